// `stores`: many stores on one Counter (docs/performance.md#many-stores). PostgreSQL, two web
// processes (WORKER=off) and one standalone chain worker, 1,000 stores each with its own wallet,
// relay key and API key, and 200,000 payments spread over them (20 stores and 2,000 payments with
// --smoke). Measured, in one run:
//  - /relay/status and GET /api/v1/payments (each store's own key) p50/p99 over many stores,
//    4 clients split over both web processes (target p99 ≤ 20 ms), and over the first store alone;
//  - /relay/pay accepted/s at 64 clients split over both processes, payments of every store
//    (target ≥ 300/s) against the same with one store's payments (target ≥ 0.9 of it);
//  - the chain worker's watch loop at this many stores against one (bench/lib/watch-cost.mjs).
// Every process runs the devnet backend on its own copy of one pre-funded chain: a web process
// checks and accepts a tx against its copy, so the worker's copy never sees the bench's txs.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createPayment, startApp, treeRss } from './lib/app.mjs';
import { cpuMs, postgresMissing, startPostgresDb, startWorker } from './lib/cluster.mjs';
import { measureLatency } from './lib/latency.mjs';
import { fundBenchKey, preparePayBodiesOn } from './lib/pay-prep.mjs';
import { seedStorePayments, seedStores, seededIdsOf, storeXpubs } from './lib/stores-seed.mjs';
import { firePaySplit } from './lib/stores-pay.mjs';
import { measureWatchCost } from './lib/watch-cost.mjs';
import { explainStoreQueries } from './lib/stores-explain.mjs';
import { ratio } from './lib/common.mjs';

const LATENCY_CLIENTS = 4;

/** Waits until the worker has derived every store's watched addresses (2 branches × gap limit each). */
async function waitForWatchedAddresses(client, want, timeoutMs = 600_000) {
  const t = Date.now();
  for (;;) {
    const { rows } = await client.query(`SELECT count(*)::int AS n FROM wallet_address`);
    if (rows[0].n >= want) return Math.round((Date.now() - t) / 100) / 10;
    if (Date.now() - t > timeoutMs) throw new Error(`the worker watches ${rows[0].n} of ${want} addresses after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The four latency runs: each route over many stores, then over the first store alone. */
async function latencies(webs, stores, ids, { seconds, warmupSeconds }) {
  const targets = webs.map((w) => w.url);
  const status = (list) => (k) => ({ method: 'POST', path: '/relay/status', body: JSON.stringify({ id: list[k % list.length] }) });
  const LIMITS = ['20', '50', '100'];
  const listing = (pick) => (k) => ({
    path: `/api/v1/payments?limit=${LIMITS[k % 3]}${k % 5 === 4 ? '&status=confirmed' : ''}`,
    headers: { Authorization: `Bearer ${pick(k).key}` },
  });
  const run = (next) => measureLatency({ targets, connections: LATENCY_CLIENTS, seconds, warmupSeconds, next });
  return {
    status_many: await run(status(ids.many)),
    status_one: await run(status(ids.one)),
    list_many: await run(listing((k) => stores[(k * 7919) % stores.length])),
    list_one: await run(listing(() => stores[0])),
  };
}

async function setUp({ nStores, nPayments, payN, dirs }) {
  const started = Date.now();
  const db = await startPostgresDb('stores');
  const key = 'bench-' + randomBytes(16).toString('hex');
  const xpubs = await storeXpubs(nStores);
  const funded = await fundBenchKey(dirs.chain, 2 * payN);
  for (const d of [dirs.a, dirs.b, dirs.worker]) cpSync(join(dirs.chain, 'devnet'), join(d, 'devnet'), { recursive: true });
  const env = {
    DATABASE_URL: db.url,
    DOGE_NETWORK: 'regtest',
    CHAIN_BACKEND: 'devnet',
    DEVNET_BLOCK_SECONDS: '0',
    STORE_XPUB: xpubs[0],
    BOOTSTRAP_API_KEY: key,
    WORKER: 'off',
  };
  const client = new pg.Client({ connectionString: db.url });
  const state = { db, client, webs: [], worker: null };
  try {
    state.webs.push(await startApp(env, { dataDir: dirs.a }));
    await client.connect();
    const template = await createPayment(state.webs[0], key);
    const stores = await seedStores(client, xpubs, key);
    const t = Date.now();
    const payments = await seedStorePayments(client, template.id, nPayments, stores);
    const seedSeconds = Math.round((Date.now() - t) / 100) / 10;
    state.webs.push(await startApp(env, { dataDir: dirs.b }));
    const { WORKER: _web, ...workerEnv } = env;
    state.worker = await startWorker({ ...workerEnv, PUBLIC_URL: state.webs[0].url }, { dataDir: dirs.worker });
    const watchSyncSeconds = await waitForWatchedAddresses(client, nStores * 2 * 20);
    return {
      ...state,
      key,
      funded,
      template,
      stores,
      payments,
      timings: {
        setup_seconds: Math.round((Date.now() - started) / 1000),
        seed_seconds: seedSeconds,
        worker_watch_sync_seconds: watchSyncSeconds,
      },
    };
  } catch (e) {
    await tearDown(state);
    throw e;
  }
}

/** Stops the web processes, the worker and the bench's own connection; the server stays up. */
async function stopProcesses(s) {
  for (const w of s.webs.splice(0)) await w.stop().catch(() => {});
  await s.worker?.stop().catch(() => {});
  s.worker = null;
  await s.client?.end().catch(() => {});
  s.client = null;
}

async function tearDown(s) {
  await stopProcesses(s);
  await s.db?.stop();
}

const benchmark = {
  name: 'stores',
  description: 'many stores: PostgreSQL, 2 web processes + 1 worker, 1,000 stores, 200,000 payments',
  available: postgresMissing() ?? true,
  async run({ seconds, smoke }) {
    const nStores = smoke ? 20 : 1000;
    const nPayments = smoke ? 2000 : 200_000;
    const payN = smoke ? 60 : Math.max(1500, seconds * 150);
    const warmupSeconds = smoke ? 0 : 2;
    const base = mkdtempSync(join(tmpdir(), 'counter-bench-stores-'));
    const dirs = Object.fromEntries(['chain', 'a', 'b', 'worker'].map((k) => [k, mkdtempSync(join(base, `${k}-`))]));
    let s;
    try {
      s = await setUp({ nStores, nPayments, payN, dirs });
      const urls = s.webs.map((w) => w.url);
      const ids = {
        many: seededIdsOf(s.template.id, nPayments, nStores, 2000),
        one: seededIdsOf(s.template.id, nPayments, nStores, 200, (pos) => pos === 0),
      };
      const workerCpu0 = cpuMs(s.worker.pid);
      const lat = await latencies(s.webs, s.stores, ids, { seconds, warmupSeconds });
      for (const [k, x] of Object.entries(lat))
        if (x.status['2xx'] !== x.total || x.errors)
          throw new Error(`${k}: ${JSON.stringify(x.status)}, ${x.errors} errors\n${s.webs.map((w) => w.logs().slice(-3000)).join('\n')}`);
      // Each run right after its own payments are made, so that none expires in between on a
      // loaded machine. A payment not accepted is counted in `other` (smoke-check fails on it).
      const t = Date.now();
      const oneBodies = await preparePayBodiesOn(urls, () => s.stores[0].key, s.funded, payN, { concurrency: 16 });
      const prepareSeconds = [Math.round((Date.now() - t) / 100) / 10];
      const payOne = await firePaySplit(urls, oneBodies, 64);
      const t2 = Date.now();
      const manyBodies = await preparePayBodiesOn(urls, (i) => s.stores[(i * 7919) % nStores].key, s.funded, payN, {
        from: payN,
        concurrency: 16,
      });
      prepareSeconds.push(Math.round((Date.now() - t2) / 100) / 10);
      const payMany = await firePaySplit(urls, manyBodies, 64);
      const workerCpuMs = cpuMs(s.worker.pid) - workerCpu0;
      const workerRssMb = Math.round(treeRss(s.worker.pid) / 1048576);
      const explain = await explainStoreQueries(s.client, s.stores[1 % nStores].id);
      await stopProcesses(s);
      const watch = await measureWatchCost(s.db, { stores: nStores, smoke });
      return {
        metrics: {
          stores: nStores,
          payments: s.payments,
          processes: { web: 2, worker: 1 },
          backend: 'devnet',
          database: 'postgresql',
          ...s.timings,
          prepare_pay_seconds: prepareSeconds,
          latency: lat,
          pay_one_store: payOne,
          pay_many_stores: payMany,
          worker_cpu_ms_during_loads: workerCpuMs,
          worker_rss_mb: workerRssMb,
          explain,
          watch,
        },
        ratios: [
          { name: `/relay/status p99 ms (${nStores} stores, 2 processes)`, value: lat.status_many.p99_ms, target: 20, lowerIsBetter: true },
          { name: `GET /api/v1/payments p99 ms (${nStores} stores)`, value: lat.list_many.p99_ms, target: 20, lowerIsBetter: true },
          { name: `accepted pays/s at 64 clients (${nStores} stores)`, value: payMany.accepted_per_sec, target: 300 },
          { name: `pays/s ${nStores} stores / one store`, value: ratio(payMany.accepted_per_sec, payOne.accepted_per_sec), target: 0.9 },
          { name: '/relay/status p50 ms (many stores)', value: lat.status_many.p50_ms, target: null },
          { name: 'GET /api/v1/payments p50 ms (many stores)', value: lat.list_many.p50_ms, target: null },
          { name: '/relay/status p99 ms (one store)', value: lat.status_one.p99_ms, target: null },
          { name: 'GET /api/v1/payments p99 ms (one store)', value: lat.list_one.p99_ms, target: null },
          { name: 'accepted pays/s at 64 clients (one store)', value: payOne.accepted_per_sec, target: null },
          {
            name: `watch: block of ${watch.block_txs} txs ms, ${nStores} stores / one`,
            value: ratio(watch.many.block_ms, watch.one.block_ms),
            target: null,
          },
        ],
      };
    } finally {
      if (s) await tearDown(s);
      rmSync(base, { recursive: true, force: true });
    }
  },
};

export default benchmark;
