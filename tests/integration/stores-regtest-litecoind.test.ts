// Several stores paid on a real `litecoind -regtest` node (docs/architecture.md#data): the suite of
// stores-regtest-suite.ts with Litecoin Core as the rpc backend's node.
import { startLitecoind, EXTERNAL_ADDRESS, LITECOIN_REGTEST_GENESIS } from '../helpers/litecoind';
import { storesOnRegtest } from './stores-regtest-suite';

storesOnRegtest({
  name: 'litecoind',
  appEnv: { CHAIN_GENESIS_HASH: LITECOIN_REGTEST_GENESIS },
  seeds: [161, 162, 163],
  async start() {
    const node = await startLitecoind({ args: ['-debug=rpc'] });
    return Object.assign(node, { mineOne: async () => (await node.mine(1, EXTERNAL_ADDRESS))[0] });
  },
});
