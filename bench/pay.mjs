// `pay`: /relay/pay round trips per second to an accepted payment on PGlite with the devnet
// backend (target ≥ 300/s at 64 clients), also at 1 and 16 clients, against the framework floor
// (a trivial route handler in the same app) and bare node:http. Payments are created and their
// transactions signed beforehand (bench/lib/pay-prep.mjs); autocannon then submits each exactly
// once and every answer is checked: an accepted payment counts, anything else is reported.
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp } from './lib/app.mjs';
import { startBare } from './lib/bare.mjs';
import { load } from './lib/load.mjs';
import { ratio } from './lib/common.mjs';
import { fundBenchKey, fundBenchKeyRpc, preparePayBodies, regtestXpub, startLitecoindForBench } from './lib/pay-prep.mjs';

/** Submits every body once with `connections` clients; counts accepted answers. */
export async function firePay(url, bodies, connections) {
  let i = 0;
  let accepted = 0;
  const other = {};
  const started = process.hrtime.bigint();
  // Timed to the last answer: autocannon reports the end of a fixed-amount run on its next
  // one-second tick, which would add up to a second to the run.
  let last = started;
  const r = await autocannon({
    url: `${url}/relay/pay`,
    connections: Math.min(connections, bodies.length),
    amount: bodies.length,
    method: 'POST',
    pipelining: 1,
    timeout: 30,
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => ({ ...req, body: bodies[i++] }),
        onResponse: (status, body) => {
          last = process.hrtime.bigint();
          if (status === 200 && /"status":"accepted"/.test(body)) accepted++;
          else other[`${status} ${String(body).slice(0, 120)}`] = (other[`${status} ${String(body).slice(0, 120)}`] ?? 0) + 1;
        },
      },
    ],
  });
  const sec = Number(last - started) / 1e9;
  return {
    connections,
    submitted: r.requests.total,
    accepted,
    seconds: Math.round(sec * 100) / 100,
    accepted_per_sec: Math.round(accepted / sec),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    errors: r.errors + r.timeouts,
    other,
  };
}

/** The same on the rpc backend against a real litecoind -regtest (a smaller run, 16 clients). */
async function payOnRpc(n, STORE_XPUB, key) {
  const { node, genesis } = await startLitecoindForBench();
  const dataDir = mkdtempSync(join(tmpdir(), 'counter-bench-pay-rpc-'));
  let app;
  try {
    const funded = await fundBenchKeyRpc(node, n);
    app = await startApp(
      {
        DOGE_NETWORK: 'regtest',
        CHAIN_GENESIS_HASH: genesis,
        CHAIN_BACKEND: 'rpc',
        DOGE_RPC_URL: node.rpcUrl,
        STORE_XPUB,
        BOOTSTRAP_API_KEY: key,
      },
      { dataDir },
    );
    const bodies = await preparePayBodies(app, key, funded, n);
    const r = await firePay(app.url, bodies, 16);
    // A 503 (litecoind's RPC slow under load) is a valid relay answer: reported in `other`, not fatal.
    const mempool = await node.rpc('getmempoolinfo');
    if (mempool.size < r.accepted) throw new Error(`litecoind holds ${mempool.size} of the ${r.accepted} accepted txs`);
    return { ...r, litecoind_mempool: mempool.size };
  } finally {
    await app?.stop();
    await node.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const benchmark = {
  name: 'pay',
  description: 'POST /relay/pay accepted payments/s (PGlite, devnet backend), target ≥ 300/s at 64 clients',
  async run({ seconds, smoke }) {
    // Enough payments for about `seconds` at the target rate per client level (each is used once).
    const plan = smoke
      ? [
          [1, 10],
          [16, 40],
          [64, 80],
        ]
      : [
          [1, 200],
          [16, 1000],
          [64, Math.max(2000, seconds * 300)],
        ];
    const total = plan.reduce((s, [, n]) => s + n, 0);
    const dataDir = mkdtempSync(join(tmpdir(), 'counter-bench-pay-'));
    const key = 'bench-' + randomBytes(16).toString('hex');
    const STORE_XPUB = await regtestXpub();
    let app;
    const bare = await startBare();
    try {
      const t0 = Date.now();
      const funded = await fundBenchKey(dataDir, total);
      app = await startApp(
        { DOGE_NETWORK: 'regtest', CHAIN_BACKEND: 'devnet', DEVNET_BLOCK_SECONDS: '0', STORE_XPUB, BOOTSTRAP_API_KEY: key },
        { dataDir },
      );
      const runs = [];
      let from = 0;
      const prepSec = [];
      for (const [connections, n] of plan) {
        const t = Date.now();
        const bodies = await preparePayBodies(app, key, funded, n, { from });
        prepSec.push(Math.round((Date.now() - t) / 100) / 10);
        from += n;
        runs.push(await firePay(app.url, bodies, connections));
      }
      const at64 = runs.at(-1);
      if (at64.accepted !== at64.submitted) throw new Error(`not every payment was accepted: ${JSON.stringify(at64.other)}`);
      const warmupSeconds = smoke ? 0 : 2;
      const floor = await load({ url: `${app.url}/api/bench-floor`, seconds, warmupSeconds });
      const node = await load({ url: bare.url, seconds, warmupSeconds });
      await app.stop();
      app = null;
      const rpc = await payOnRpc(smoke ? 20 : 600, STORE_XPUB, key);
      return {
        metrics: {
          rpc_backend_litecoind: rpc,
          backend: 'devnet',
          store: 'pglite',
          setup_seconds: Math.round((Date.now() - t0) / 1000),
          prepare_seconds: prepSec,
          runs,
          floor,
          bare_node_http: node,
        },
        ratios: [
          { name: 'accepted pays/s at 64 clients (devnet)', value: at64.accepted_per_sec, target: 300 },
          { name: 'pay / framework floor (64 clients)', value: ratio(at64.accepted_per_sec, floor.rps), target: null },
          { name: 'pay / bare node:http (64 clients)', value: ratio(at64.accepted_per_sec, node.rps), target: null },
          { name: 'accepted pays/s at 16 clients (rpc, litecoind)', value: rpc.accepted_per_sec, target: null },
        ],
      };
    } finally {
      await app?.stop();
      await bare.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

export default benchmark;
