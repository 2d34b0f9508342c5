// What a large, mainnet-sized mempool costs the rpc backend's mempool watch (docs/live.md,
// figures in docs/performance.md). Run by hand: `node bench/mempool-cost.mjs [txs]` (default
// 10,000). A regtest dogecoind (whitelisting loopback) is filled with `txs` independent
// transactions while the backend's P2P announcement connection is open, then:
//  - P2P path: the app-side CPU time per announced tx (inv, getdata, tx, parse, queue);
//  - the fast poll's rounds at that mempool size (lib/chain/rpc/mempool.ts): the change check
//    alone (getmempoolinfo + getbestblockhash, the mempool unchanged) and a round that lists the
//    mempool (getrawmempool, nothing new to fetch), each as wall time, app CPU and the node's CPU
//    (/proc/<pid>/stat), and what they cost a second at the default 250 ms interval;
//  - the tick's first diff on a fresh backend (every tx fetched).
import { createJiti } from 'jiti';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
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
const { RpcMempoolWatch } = await jiti.import(join(ROOT, 'lib/chain/rpc/mempool.ts'));
const { rpcNode } = await jiti.import(join(ROOT, 'lib/chain/rpc/node.ts'));
const doge = await jiti.import(join(ROOT, 'lib/doge/index.ts'));

const network = doge.getNetwork('regtest');
const ok = (items) =>
  items.map((i) => {
    if (!i.ok) throw i.error;
    return i.result;
  });
/** The node process's CPU time so far, in ms (utime + stime of /proc/<pid>/stat, in clock ticks of 10 ms). */
function nodeCpuMs(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** `rounds` calls of `fn`: wall ms p50/max, and app and node CPU ms per call. */
async function costOf(pid, rounds, fn) {
  const walls = [];
  const c0 = process.cpuUsage();
  const n0 = nodeCpuMs(pid);
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await fn();
    walls.push(performance.now() - t);
  }
  const c = process.cpuUsage(c0);
  walls.sort((a, b) => a - b);
  const r = (x) => Math.round(x * 100) / 100;
  return {
    wall_p50_ms: r(walls[Math.floor(walls.length / 2)]),
    wall_max_ms: r(walls.at(-1)),
    app_cpu_ms: r((c.user + c.system) / 1000 / rounds),
    node_cpu_ms: r((nodeCpuMs(pid) - n0) / rounds),
  };
}

/** The fast poll's two kinds of round at this mempool size, and the tick's cold first diff. */
async function pollCosts(node, size) {
  const watch = new RpcMempoolWatch(rpcNode(createRpcClient({ url: node.rpcUrl, timeoutMs: 300_000 })));
  const c0 = process.cpuUsage();
  const t = performance.now();
  const all = await watch.newTxs(); // the tick's first diff: every tx fetched
  const c = process.cpuUsage(c0);
  console.log(
    `tick's first diff: ${all.length} txs fetched in ${Math.round(performance.now() - t)} ms, app CPU ${Math.round((c.user + c.system) / 1000)} ms`,
  );
  watch.polling = true;
  const check = await costOf(node.pid, 200, () => watch.poll());
  watch.polling = false; // every newTxs now lists the mempool (nothing new to fetch)
  const list = await costOf(node.pid, 20, () => watch.newTxs());
  const perSec = (x, k) => Math.round(x.app_cpu_ms * k * 10) / 10;
  console.log(`mempool of ${size} txs, 250 ms poll:`);
  console.log(`  change check only (unchanged mempool): ${JSON.stringify(check)}`);
  console.log(`  round that lists the mempool (nothing new): ${JSON.stringify(list)}`);
  console.log(`  a second, quiet mempool (4 checks): app ${perSec(check, 4)} ms, node ${Math.round(check.node_cpu_ms * 40) / 10} ms`);
  console.log(
    `  a second, the mempool changing before every round (4 checks + 4 lists): app ${perSec(check, 4) + perSec(list, 4)} ms, node ${Math.round((check.node_cpu_ms + list.node_cpu_ms) * 40) / 10} ms`,
  );
  console.log(`  the tick's unconditional list before this change, a second: app ${perSec(list, 1)} ms, node ${list.node_cpu_ms} ms`);
}

const node = await h.startDogecoind({ args: ['-whitelist=127.0.0.1', '-maxmempool=1000'], matureBlocks: 100 });
const rpc = createRpcClient({ url: node.rpcUrl, timeoutMs: 300_000 });
try {
  // n confirmed wallet outputs of 2 DOGE: 100 wallet addresses paid 2 DOGE each by n/100
  // sendmany calls (the wallet derives keys slowly: ~10 a second here), each locked against the
  // wallet's next coin selection, a block every 20 calls
  // so the chained change stays under the ancestor limit.
  const addrs = ok(await rpc.batch(Array.from({ length: 100 }, () => ({ method: 'getnewaddress', params: [] }))));
  const mine = new Set(addrs);
  const coins = [];
  for (let k = 0; coins.length < n; k++) {
    const txid = await rpc.call('sendmany', ['', Object.fromEntries(addrs.map((a) => [a, 2]))]);
    const tx = await rpc.call('getrawtransaction', [txid, true]);
    const got = tx.vout.filter((o) => mine.has(o.scriptPubKey.addresses?.[0])).map((o) => ({ txid, vout: o.n }));
    // Locked, so the next sendmany does not spend them.
    await rpc.call('lockunspent', [false, got]);
    coins.push(...got.slice(0, n - coins.length));
    if (k % 20 === 19) await node.mine(1);
  }
  await node.mine(1);
  console.log(`${coins.length} coins ready`);

  const backend = createRpcBackend({
    url: node.rpcUrl,
    network: 'regtest',
    p2p: { magic: network.magic, peer: `127.0.0.1:${node.p2pPort}`, defaultPort: node.p2pPort },
  });
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
  console.log(
    `P2P: ${announced} txs announced and fetched; app CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms in all (includes this script's RPC), ${((cpu.user + cpu.system) / announced).toFixed(0)} µs a tx`,
  );

  await backend.stop();
  await pollCosts(node, coins.length);
} finally {
  await node.dispose();
}
