// Several stores paid on a real `dogecoind -regtest` node, Dogecoin Core 1.14.9 with AuxPoW blocks
// (docs/architecture.md#data): the suite of stores-regtest-suite.ts with the reference peer as the
// rpc backend's node. Skipped, saying why, when dogecoind is absent.
import { describe } from 'vitest';
import { haveDogecoind, startDogecoind, warnIfNoDogecoind } from '../helpers/dogecoind';
import { storesOnRegtest } from './stores-regtest-suite';

warnIfNoDogecoind('tests/integration/stores-regtest-dogecoind.test.ts');

describe.skipIf(!haveDogecoind)('on dogecoind', () => {
  storesOnRegtest({
    name: 'dogecoind',
    appEnv: {},
    seeds: [164, 165, 166],
    async start() {
      const node = await startDogecoind({ args: ['-debug=rpc'] });
      return Object.assign(node, { mineOne: async () => (await node.mine(1))[0] });
    },
  });
});
