// What the chain worker's watch loop costs at many stores against one (docs/performance.md#many-stores),
// measured in this process with the worker's own functions (lib/ through jiti) on PostgreSQL:
//  - a tick's address sync (syncWatchAddresses: every store's wallet, steady state);
//  - a block of txs paying nobody Counter watches (the wallet tracker, then the payments' side);
//  - a batch of such mempool txs (the payments' side: the worker's path for each new mempool tx);
//  - the watch set the spv backend loads into its BIP37 filters: its size, and the shares it is
//    split into (lib/chain/spv/watch.ts buildFilters, docs/node.md#many-stores-and-the-filter):
//    each share's bytes, hash functions and fill, the false-positive rate of all of them at that
//    fill, and what one filter over the whole set would give.
// "many" is the benchmark's database as the worker left it; "one" is a copy of it with every
// payment moved to the first store and the other stores gone (oneStoreCopy, below).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createJiti } from 'jiti';
import { ROOT } from './app.mjs';

const jiti = createJiti(import.meta.url, { alias: { '@': ROOT } });
const lib = async () => ({
  db: await jiti.import(join(ROOT, 'lib/db/index.ts')),
  doge: await jiti.import(join(ROOT, 'lib/doge/index.ts')),
  watch: await jiti.import(join(ROOT, 'lib/chain/watch-addresses.ts')),
  tracker: await jiti.import(join(ROOT, 'lib/chain/wallet-tracker.ts')),
  sync: await jiti.import(join(ROOT, 'lib/payments/chain-sync.ts')),
  spv: await jiti.import(join(ROOT, 'lib/chain/spv/watch.ts')),
});

const hex = (n) => randomBytes(n).toString('hex');

/** `count` txs of one input and two p2pkh outputs to fresh addresses: nothing any store watches. */
function strangerTxs(count) {
  return Array.from({ length: count }, () => ({
    txid: hex(32),
    inputs: [{ txid: hex(32), vout: 0, scriptSig: '' }],
    outputs: [0, 1].map((n) => ({ n, value: 100_000_000n, script: `76a914${hex(20)}88ac` })),
    signalsRbf: false,
  }));
}

let height = 10_000;
function block(txs) {
  return {
    hash: hex(32),
    prevHash: hex(32),
    height: height++,
    time: 0,
    header: new Uint8Array(80),
    size: txs.length * 226,
    txCount: txs.length,
    totalTxSize: txs.length * 226,
    txs,
  };
}

const round = (x) => Math.round(x * 100) / 100;
async function timed(fn, times) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < times; i++) await fn(i);
  return round(Number(process.hrtime.bigint() - t) / 1e6 / times);
}

/** The share of a filter's bits set, and the false-positive rate that gives (fill ^ hash functions). */
function filterFacts(f) {
  let set = 0;
  for (const byte of f.data) for (let b = byte; b; b &= b - 1) set++;
  const fill = set / (f.data.length * 8);
  return { bytes: f.data.length, hash_funcs: f.hashFuncs, fill: Number(fill.toFixed(3)), fp: fill ** f.hashFuncs };
}

/** The filter shares of a watch set: each one's facts, and the rate at which any of them matches a random tx. */
function sharesFacts(L, set) {
  const shares = L.spv.buildFilters(set).map(filterFacts);
  const single = filterFacts(L.spv.buildFilter(set));
  return {
    shares: shares.length,
    bytes: shares.map((f) => f.bytes),
    hash_funcs: shares.map((f) => f.hash_funcs),
    fill: shares.map((f) => f.fill),
    fp_rate: Number(1 - shares.reduce((miss, f) => miss * (1 - f.fp), 1)).toPrecision(3),
    one_filter_fp_rate: Number(single.fp).toPrecision(3),
  };
}

/** The figures for one database. */
async function costOf(L, db, { blockTxs, mempoolTxs, repeats }) {
  const network = L.doge.getNetwork('regtest');
  const ctx = { db, network, publicUrl: 'http://127.0.0.1' };
  // The first sync of this process reads each store's derived-address counts once.
  const firstSyncMs = await timed(() => L.watch.syncWatchAddresses(db, network), 1);
  const tickMs = await timed(() => L.watch.syncWatchAddresses(db, network), repeats);
  const blocks = Array.from({ length: repeats }, () => block(strangerTxs(blockTxs)));
  const walletMs = await timed((i) => L.tracker.trackBlockConnected(db, network, blocks[i]), repeats);
  const paymentsMs = await timed((i) => L.sync.onBlockConnected(ctx, blocks[i]), repeats);
  const blockMs = round(walletMs + paymentsMs);
  const mempool = Array.from({ length: repeats }, () => strangerTxs(mempoolTxs));
  const mempoolMs = await timed((i) => L.sync.onMempoolTxs(ctx, mempool[i]), repeats);
  const t = process.hrtime.bigint();
  const set = await L.spv.loadWatchSet(db);
  const loadMs = round(Number(process.hrtime.bigint() - t) / 1e6);
  const [{ n: addresses }] = await db.query(`SELECT count(*)::int AS n FROM wallet_address`);
  return {
    watched_addresses: Number(addresses),
    first_sync_ms: firstSyncMs,
    tick_sync_ms: tickMs,
    block_ms: blockMs,
    block_wallet_ms: walletMs,
    block_payments_ms: paymentsMs,
    block_ms_per_tx: round(blockMs / blockTxs),
    mempool_batch_ms: mempoolMs,
    mempool_ms_per_tx: round(mempoolMs / mempoolTxs),
    watch_set: {
      hash160s: set.hash160s.length,
      outpoints: set.outpoints.length,
      txids: set.txids.length,
      load_ms: loadMs,
    },
    spv_filter: sharesFacts(L, set),
  };
}

/**
 * A copy of database `name` with one store: the first keeps every payment, the other stores and
 * their watched addresses are gone (their API and relay keys stay: the watch loop never reads
 * them, and deleting API keys checks payment.api_key_id, unindexed, once per key). The same payments and chain state, one store's wallet.
 */
async function oneStoreCopy(server, name) {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE one_store TEMPLATE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = server.url.replace(/\/postgres$/, '/one_store');
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const first = Number((await c.query(`SELECT min(id) AS id FROM store`)).rows[0].id);
    for (const sql of [
      `DELETE FROM wallet_address WHERE store_id <> $1`,
      `UPDATE payment SET store_id = $1 WHERE store_id <> $1`,
      `DELETE FROM store WHERE id <> $1`,
    ])
      await c.query(sql, [first]);
    await c.query('VACUUM ANALYZE');
  } finally {
    await c.end();
  }
  return url;
}

/**
 * `pg`: the benchmark's server and database ({ url, name, server }), once every process using it
 * has stopped; `stores`: how many it holds.
 */
export async function measureWatchCost(pg, { stores, smoke }) {
  const L = await lib();
  const sizes = { blockTxs: smoke ? 50 : 1000, mempoolTxs: smoke ? 20 : 200, repeats: smoke ? 2 : 5 };
  const oneUrl = await oneStoreCopy(pg.server, pg.name);
  const many = await L.db.openDb({ databaseUrl: pg.url, poolSize: 4 });
  const one = await L.db.openDb({ databaseUrl: oneUrl, poolSize: 4 });
  try {
    const manyCost = await costOf(L, many, sizes);
    const oneCost = await costOf(L, one, sizes);
    return { stores, block_txs: sizes.blockTxs, mempool_txs: sizes.mempoolTxs, repeats: sizes.repeats, many: manyCost, one: oneCost };
  } finally {
    await many.close();
    await one.close();
  }
}
