// What a large, mainnet-sized mempool costs the rpc backend's mempool watch (docs/live.md,
// figures in docs/performance.md). Run by hand: `node bench/mempool-cost.mjs [txs]` (default
// 10,000). A regtest dogecoind (whitelisting loopback) is filled with `txs` independent
// transactions while the backend's P2P announcement connection is open, then:
//  - P2P path: the app-side CPU time and bytes per announced tx (inv, getdata, tx, parse, queue);
//  - the tick's getrawmempool diff, which stays as the safety net: the first call (every txid
//    fetched) and a steady-state call (nothing new) at that mempool size.
import { createJiti } from 'jiti';
import { join } from 'node:path';
import { ROOT } from './lib/app.mjs';

const jiti = createJiti(import.meta.url, { alias: { '@': ROOT } });
const n = Number(process.argv[2] ?? 10_000);
const h = await jiti.import(join(ROOT, 'tests/helpers/dogecoind.ts'));
if (!h.haveDogecoind) {
  console.log(h.skipReason);
  process.exit(0);
}
const { createRpcBackend } = await jiti.import(join(ROOT, 'lib/chain/rpc/backend.ts'));
const { createRpcClient } = await jiti.import(join(ROOT, 'lib/chain/rpc/client.ts'));
const doge = await jiti.import(join(ROOT, 'lib/doge/index.ts'));

const network = doge.getNetwork('regtest');
const ok = (items) => items.map((i) => {
  if (!i.ok) throw i.error;
  return i.result;
});
const node = await h.startDogecoind({ args: ['-whitelist=127.0.0.1', '-maxmempool=1000'], matureBlocks: 100 });
const rpc = createRpcClient({ url: node.rpcUrl, timeoutMs: 300_000 });
try {
  // n confirmed wallet outputs of 2 DOGE on n distinct addresses, 1,000 per sendmany.
  const coins = [];
  for (let left = n; left > 0; left -= 1000) {
    const k = Math.min(1000, left);
    const addrs = ok(await rpc.batch(Array.from({ length: k }, () => ({ method: 'getnewaddress', params: [] }))));
    const txid = await rpc.call('sendmany', ['', Object.fromEntries(addrs.map((a) => [a, 2]))]);
    const tx = await rpc.call('getrawtransaction', [txid, true]);
    const mine = new Set(addrs);
    for (const o of tx.vout) if (mine.has(o.scriptPubKey.addresses?.[0])) coins.push({ txid, vout: o.n });
  }
  await node.mine(1);
  console.log(`${coins.length} coins ready`);

  const backend = createRpcBackend({ url: node.rpcUrl, network: 'regtest', p2p: { magic: network.magic, peer: `127.0.0.1:${node.p2pPort}`, defaultPort: node.p2pPort } });
  await backend.start();
  await backend.mempoolNewTxs(); // the diff's first call on an empty mempool
  let announced = 0;
  backend.onMempoolTx(() => {
    announced += backend.takePushedTxs().length;
  });
  await new Promise((r) => setTimeout(r, 1000));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  // n independent txs (one coin each, 1.99 DOGE to an address outside the wallet), 500 at a time.
  for (let i = 0; i < coins.length; i += 500) {
    const part = coins.slice(i, i + 500);
    const raws = ok(await rpc.batch(part.map((c) => ({ method: 'createrawtransaction', params: [[c], { [h.EXTERNAL_ADDRESS]: 1.99 }] }))));
    const signed = ok(await rpc.batch(raws.map((r) => ({ method: 'signrawtransaction', params: [r] }))));
    ok(await rpc.batch(signed.map((s) => ({ method: 'sendrawtransaction', params: [s.hex] }))));
  }
  const sentMs = performance.now() - t0;
  const end = Date.now() + 120_000;
  while (announced < coins.length && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  const cpu = process.cpuUsage(cpu0);
  const pool = await rpc.call('getmempoolinfo', []);
  console.log(`mempool: ${pool.size} txs, ${(pool.bytes / 1e6).toFixed(1)} MB; sent in ${(sentMs / 1000).toFixed(1)} s`);
  console.log(`P2P: ${announced} txs announced and fetched; app CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms in all (includes this script's RPC), ${((cpu.user + cpu.system) / announced).toFixed(0)} µs a tx`);

  // The tick's diff at this size: the first call fetches every txid it has not handed over
  // (the P2P path handed them all over: nothing), then a steady-state call.
  const times = [];
  for (let i = 0; i < 5; i++) {
    const c0 = process.cpuUsage();
    const t = performance.now();
    const fresh = await backend.mempoolNewTxs();
    const c = process.cpuUsage(c0);
    times.push({ ms: Math.round(performance.now() - t), cpu_ms: Math.round((c.user + c.system) / 1000), fresh: fresh.length });
  }
  console.log('getrawmempool diff, steady state (wall ms, app CPU ms, new txs):', JSON.stringify(times));
  // Without the P2P path: a fresh backend's first diff fetches every tx.
  const cold = createRpcBackend({ url: node.rpcUrl, network: 'regtest' });
  const c0 = process.cpuUsage();
  const t = performance.now();
  const all = await cold.mempoolNewTxs();
  const c = process.cpuUsage(c0);
  console.log(`getrawmempool diff, first call: ${all.length} txs fetched in ${Math.round(performance.now() - t)} ms, app CPU ${Math.round((c.user + c.system) / 1000)} ms`);
  await backend.stop();
} finally {
  await node.dispose();
}
