import { startDogecoind } from './tests/helpers/dogecoind';
import { createRpcBackend } from './lib/chain/rpc/backend';
import { REGTEST } from './lib/doge/network';
for (const wl of [true, false]) {
  const node = await startDogecoind({ args: wl ? ['-whitelist=127.0.0.1'] : [] });
  const be = createRpcBackend({ url: node.rpcUrl, network: 'regtest', p2p: { magic: REGTEST.magic, peer: `127.0.0.1:${node.p2pPort}`, defaultPort: node.p2pPort } });
  await be.start();
  let got: number[] = [];
  let t0 = 0;
  be.onMempoolTx!(() => { for (const t of be.takePushedTxs!()) got.push(performance.now() - t0); });
  await new Promise(r => setTimeout(r, 1500));
  const addr = await node.newAddress();
  for (let i = 0; i < 8; i++) {
    const n = got.length;
    t0 = performance.now();
    await node.rpc('sendtoaddress', addr, 1);
    const end = Date.now() + 15000;
    while (got.length === n && Date.now() < end) await new Promise(r => setTimeout(r, 2));
    await new Promise(r => setTimeout(r, 100));
  }
  console.log('whitelist', wl, got.map(x => Math.round(x)));
  await be.stop();
  await node.dispose();
}
