// A worker killed, and several processes on PostgreSQL (docs/operations.md#several-processes), with real processes only:
// one PostgreSQL, one litecoind -regtest (rpc backend), two `next start` web processes with
// WORKER=off and standalone `npm run worker` processes (scripts/worker.mjs).
//  - several processes: a payment created on web A is paid through web B (web A's live feed sees it) and
//    confirmed by the active worker;
//    SIGKILL the active worker and the standby takes over within 15 s; nothing is lost.
//  - worker killed: a burst of 200 payments in mixed states (unpaid, accepted, confirming at 1 of 2, and
//    confirmed) with the only worker SIGKILLed in the middle of it; after a restart every paid
//    payment reaches its state with exactly one event per state change, and every accepted
//    payment's address was paid by exactly one transaction on the chain (no double broadcast).
//  - the lease: a live worker whose tick outlasts it keeps it (heartbeat) until it dies.
// The workers run with a short lease (WORKER_LEASE_MS, docs/configuration.md), so each takeover
// waits about 2 s for a dead worker's lease instead of the default 8 s; the quiet windows in which
// a standby must NOT take over are sized from that lease.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { openDb, type Db } from '@/lib/db';
import { testXpub } from '../helpers/keys';
import { startLitecoind, LITECOIN_REGTEST_GENESIS, type Litecoind } from '../helpers/litecoind';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';
import { startApp, type AppServer } from '../helpers/app-server';
import { sleep, until } from '../helpers/wait';
import { outputsOf } from '../helpers/vendor-client';
import { readFeedUntil } from '../helpers/streams';
import { disposeWorker, isActive, isStarted, killWorker, spawnWorker, type WorkerProcess } from '../helpers/worker-process';
import type { NodeVoutJson } from '../helpers/json-shapes';
import type { NodeBlockTxsJson, NodeTxJson } from '../helpers/json-shapes';

const API_KEY = 'test-mp-key-' + randomBytes(12).toString('hex');
const xpub = testXpub(77);
/** The workers' lease (WORKER_LEASE_MS); the active one renews it every tick and every LEASE_MS / 4. */
const LEASE_MS = 2_000;
/** The slow worker's tick (COUNTER_TEST_TICK_DELAY_MS): three leases long. */
const SLOW_TICK_MS = 3 * LEASE_MS;

let node: Litecoind;
let pg: PgServer;
let dbUrl: string;
let db: Db;
let webA: AppServer;
let webB: AppServer;
const workers: WorkerProcess[] = [];

const chainEnv = () => ({
  DOGE_NETWORK: 'regtest',
  CHAIN_GENESIS_HASH: LITECOIN_REGTEST_GENESIS,
  CHAIN_BACKEND: 'rpc',
  DOGE_RPC_URL: node.rpcUrl,
  STORE_XPUB: xpub,
  DATABASE_URL: dbUrl,
  LOG_LEVEL: 'info',
});

/** A standalone worker on this chain and database, with the short lease (and `extraEnv`). */
function startWorker(extraEnv: Record<string, string> = {}): WorkerProcess {
  const w = spawnWorker({ PUBLIC_URL: webA.url, ...chainEnv(), WORKER_LEASE_MS: String(LEASE_MS), ...extraEnv });
  workers.push(w);
  return w;
}

async function api(web: AppServer, path: string, init: RequestInit = {}) {
  const r = await fetch(web.url + path, {
    ...init,
    headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json', ...(init.headers ?? {}) },
  });
  return { status: r.status, body: await r.json().catch(() => null) };
}
async function create(web: AppServer, n: number, required: number) {
  const r = await api(web, '/api/v1/payments', {
    method: 'POST',
    body: JSON.stringify({
      items: [{ type: 'item', id: `SKU-${n}`, name: `Item ${n}`, count: 1, unit: `0.${1 + (n % 7)}5` }],
      required_confirmations: required,
      order_reference: `MP-${n}`,
    }),
  });
  expect(
    r.status,
    JSON.stringify(r.body) +
      web
        .logs()
        .split('\n')
        .filter((l) => /error/i.test(l))
        .slice(-3)
        .join('\n'),
  ).toBe(201);
  return r.body;
}
async function pay(web: AppServer, p: { id: string }, tx: string) {
  const r = await fetch(`${web.url}/relay/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ id: p.id, tx }),
  });
  return { status: r.status, body: await r.json().catch(() => null) };
}

// Confirmed wallet coins to spend one each: litecoind's mempool refuses chains of more than
// 25 unconfirmed ancestors, so each payment spends its own confirmed output.
let coins: { txid: string; vout: number }[] = [];
async function prepareCoins(n: number) {
  const addr = await node.newAddress();
  const outs: Record<string, string> = {};
  const addrs: string[] = [];
  for (let i = 0; i < n; i++) addrs.push(await node.newAddress());
  for (const a of addrs) outs[a] = '1';
  const txid: string = await node.rpc('sendmany', '', outs);
  await node.mine(1, addr);
  const tx = await node.rpc<{ decoded: { vout: NodeVoutJson[] } }>('gettransaction', txid, false, true);
  const mine = new Set<string | undefined>(addrs);
  coins = tx.decoded.vout
    .filter((o: NodeVoutJson) => mine.has(o.scriptPubKey?.address ?? o.scriptPubKey?.addresses?.[0]))
    .map((o: NodeVoutJson) => ({ txid, vout: o.n }));
  expect(coins.length).toBe(n);
}
/** A payment as POST /api/v1/payments created it: its id and the outputs to pay. */
type CreatedPayment = Parameters<typeof outputsOf>[0] & { id: string };
const payTx = (p: CreatedPayment) => node.payTo(outputsOf(p), { inputs: [coins.shift()!] });

async function eventsOf(ids: string[]) {
  const rows = await db.query<{ seq: string; type: string; payment_id: string }>(
    `SELECT seq::text AS seq, type, payment_id FROM vendor_event WHERE payment_id = ANY($1) ORDER BY vendor_event.seq`,
    [ids],
  );
  const m = new Map<string, string[]>();
  for (const r of rows) m.set(r.payment_id, [...(m.get(r.payment_id) ?? []), r.type]);
  return m;
}
/** Every tx in the chain from `fromHeight` and in the mempool that pays `address`. */
async function payersOf(addresses: Set<string>, fromHeight: number) {
  const count = new Map<string, string[]>();
  const add = (txid: string, vout: NodeVoutJson[]) => {
    for (const o of vout) {
      const a = o.scriptPubKey?.address ?? o.scriptPubKey?.addresses?.[0];
      if (a && addresses.has(a)) count.set(a, [...(count.get(a) ?? []), txid]);
    }
  };
  const tip: number = await node.rpc('getblockcount');
  for (let h = fromHeight; h <= tip; h++) {
    const b = await node.rpc<NodeBlockTxsJson>('getblock', await node.rpc('getblockhash', h), 2);
    for (const tx of b.tx) add(tx.txid, tx.vout);
  }
  for (const txid of (await node.rpc('getrawmempool')) as string[])
    add(txid, (await node.rpc<NodeTxJson>('getrawtransaction', txid, true)).vout);
  return count;
}

beforeAll(async () => {
  [node, pg] = await Promise.all([startLitecoind(), startPostgres()]);
  dbUrl = await createDatabase(pg, 'multiprocess');
  const webs = async () => {
    // The first web process migrates; the second starts on the migrated schema.
    webA = await startApp({ ...chainEnv(), WORKER: 'off', BOOTSTRAP_API_KEY: API_KEY });
    webB = await startApp({ ...chainEnv(), WORKER: 'off', BOOTSTRAP_API_KEY: API_KEY });
  };
  // The wallet's coins need only the node: prepared while the web processes start.
  await Promise.all([webs(), prepareCoins(140)]);
  db = await openDb({ databaseUrl: dbUrl, poolSize: 2 });
}, 180_000);

afterAll(async () => {
  for (const w of workers) disposeWorker(w);
  await Promise.all([webA?.stop(), webB?.stop()]);
  await db?.close();
  await node?.dispose();
  await pg?.stop();
});

describe('multi-process on PostgreSQL: a killed worker, payments across web processes', () => {
  let standby: WorkerProcess;
  let current: WorkerProcess;

  it('two web processes and two workers: created on one, paid through the other, confirmed; the standby takes over a killed worker in < 15 s', async () => {
    // Both start at once and race for the lease: exactly one wins, the other stands by.
    const pair = [startWorker(), startWorker()];
    const both = () => pair.every(isStarted) && pair.some(isActive);
    expect(await until(both, Boolean, 90_000), pair.map((w) => w.out()).join('\n----\n')).toBe(true);
    const [w1, w2] = isActive(pair[0]) ? pair : [pair[1], pair[0]];
    // A whole lease and a second more: the standby asks at start and every second, and the
    // holder's lease would have lapsed in that time had it not renewed it.
    await sleep(LEASE_MS + 1_000);
    expect(isActive(w2), w1.out() + '\n----\n' + w2.out()).toBe(false); // exactly one active worker

    const p = await create(webA, 1, 1);
    const seenOnB = await api(webB, `/api/v1/payments/${p.id}`);
    expect(seenOnB.body).toMatchObject({ id: p.id, status: 'unpaid' });
    // The cashier's live feed is served by web A; the wallet pays through web B.
    const feed = await fetch(`${webA.url}/api/v1/payments/${p.id}/events`, { headers: { Authorization: `Bearer ${API_KEY}` } });
    expect(feed.status).toBe(200);
    const feedSaw = readFeedUntil(feed, /"status":"accepted"/);
    const paid = await pay(webB, p, await payTx(p));
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'accepted', confirmed: 0 });
    expect((await api(webA, `/api/v1/payments/${p.id}`)).body).toMatchObject({ status: 'accepted', txid: paid.body.txid });
    expect(await feedSaw).toContain(paid.body.txid);
    await node.mine(1);
    const conf = await until(
      () => api(webA, `/api/v1/payments/${p.id}`),
      (r) => r.body?.status === 'confirmed',
      20_000,
    );
    expect(conf.body).toMatchObject({ status: 'confirmed', confirmed: 1 });

    // Kill the active worker while a payment is in flight; the standby finishes its work.
    const q = await create(webB, 2, 1);
    expect((await pay(webA, q, await payTx(q))).body).toMatchObject({ status: 'accepted' });
    await killWorker(w1);
    const killedAt = Date.now();
    await node.mine(1);
    expect(await until(() => isActive(w2), Boolean, 20_000)).toBe(true);
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    const qc = await until(
      () => api(webB, `/api/v1/payments/${q.id}`),
      (r) => r.body?.status === 'confirmed',
      20_000,
    );
    expect(qc.body).toMatchObject({ status: 'confirmed', confirmed: 1 });
    const pc = await api(webB, `/api/v1/payments/${p.id}`);
    expect(pc.body).toMatchObject({ status: 'confirmed', confirmed: 2 });

    const ev = await eventsOf([p.id, q.id]);
    expect(ev.get(p.id)).toEqual(['payment.accepted', 'payment.confirmed']);
    expect(ev.get(q.id)).toEqual(['payment.accepted', 'payment.confirmed']);
    standby = w2;
  }, 180_000);

  it('SIGKILL of the worker during a burst of 200 payments in mixed states loses nothing and broadcasts nothing twice', async () => {
    const w = standby;
    expect(isActive(w)).toBe(true);
    const startHeight: number = (await node.rpc<number>('getblockcount')) + 1;
    const webs = [webA, webB];
    // 200 payments: every fifth needs 2 confirmations (it will sit at "confirming", 1 of 2).
    const payments: CreatedPayment[] = [];
    for (let i = 0; i < 200; i += 20) {
      payments.push(
        ...(await Promise.all(Array.from({ length: 20 }, (_, j) => create(webs[(i + j) % 2], 100 + i + j, (i + j) % 5 === 0 ? 2 : 1)))),
      );
    }
    const toPay = payments.slice(0, 120); // 80 stay unpaid
    const txs: string[] = [];
    for (const p of toPay) txs.push(await payTx(p));
    const answers: { id: string; status: number; body: { status: string; txid: string } }[] = [];
    const payBatch = async (from: number, to: number) => {
      for (let i = from; i < to; i += 10) {
        const batch = toPay.slice(i, Math.min(i + 10, to));
        const rs = await Promise.all(batch.map((p, k) => pay(webs[(i + k + 1) % 2], p, txs[i + k])));
        rs.forEach((r, k) => answers.push({ id: batch[k].id, ...r }));
      }
    };
    // First half paid and mined while the worker runs ...
    await payBatch(0, 40);
    await node.mine(1);
    // ... then the worker dies in the middle of the next payments and a block: after their first
    // ten are answered, while the next ten are in flight.
    await payBatch(40, 50);
    const during = payBatch(50, 80);
    await killWorker(w);
    expect(answers.length).toBeLessThan(80); // killed mid-burst
    await during;
    await node.mine(1);
    await payBatch(80, 120);

    // Every submission was answered by the web processes alone (they do not need the worker).
    expect(answers.length).toBe(120);
    for (const a of answers) expect(a.status, JSON.stringify(a)).toBe(200);
    for (const a of answers) expect(a.body.status).toMatch(/^(accepted|confirmed)$/);

    // Restart: the new worker catches up on both blocks and the confirmations.
    const restarted = startWorker();
    expect(await until(() => isActive(restarted), Boolean, 60_000)).toBe(true);
    current = restarted;
    const byId = async () => {
      const rows = await db.query<{
        id: string;
        status: string;
        confirmations: number;
        required_confirmations: number;
        txid: string | null;
        broadcast_state: string;
      }>(`SELECT id, status, confirmations, required_confirmations, txid, broadcast_state FROM payment WHERE id = ANY($1)`, [
        payments.map((p) => p.id),
      ]);
      return new Map(rows.map((r) => [r.id, r]));
    };
    // Expected state from the chain itself: the block that holds each payment's tx (normally
    // 0–39 in the first block, 40–79 in the second, 80–119 in the mempool; on a loaded machine a
    // broadcast can land a block later, which the payment must then reflect).
    const tip: number = await node.rpc('getblockcount');
    const heightOf = new Map<string, number>();
    for (let h = startHeight; h <= tip; h++) {
      const block = await node.rpc<{ tx: string[] }>('getblock', await node.rpc<string>('getblockhash', h));
      for (const t of block.tx) heightOf.set(t, h);
    }
    const answered = new Map(answers.map((a) => [a.id, a.body.txid as string]));
    const expectedState = (i: number) => {
      const required = i % 5 === 0 ? 2 : 1;
      const h = heightOf.get(answered.get(toPay[i].id)!);
      const depth = h === undefined ? 0 : tip - h + 1;
      return { confirmations: depth, status: depth >= required ? 'confirmed' : 'accepted' };
    };
    const settled = (m: Map<string, { status: string; confirmations: number }>) =>
      toPay.every((p, i) => {
        const r = m.get(p.id);
        return r && r.status === expectedState(i).status && r.confirmations === expectedState(i).confirmations;
      });
    const rows = await until(byId, settled, 30_000);
    expect(rows.size).toBe(200); // no payment lost
    toPay.forEach((p, i) =>
      expect({ id: p.id, status: rows.get(p.id)!.status, confirmations: rows.get(p.id)!.confirmations }).toEqual({
        id: p.id,
        ...expectedState(i),
      }),
    );
    const mixed = toPay.map((_, i) =>
      expectedState(i).status === 'accepted' ? (expectedState(i).confirmations ? 'confirming' : 'accepted') : 'confirmed',
    );
    expect(new Set(mixed)).toEqual(new Set(['confirmed', 'confirming', 'accepted']));
    for (const p of payments.slice(120)) expect(rows.get(p.id)!.status).toBe('unpaid');
    for (const p of toPay) expect(rows.get(p.id)!.broadcast_state).not.toBe('pending');

    // Events: exactly one per state change, in order; none for unpaid payments.
    const ev = await eventsOf(payments.map((p) => p.id));
    toPay.forEach((p, i) =>
      expect({ id: p.id, events: ev.get(p.id) }).toEqual({
        id: p.id,
        events: expectedState(i).status === 'confirmed' ? ['payment.accepted', 'payment.confirmed'] : ['payment.accepted'],
      }),
    );
    for (const p of payments.slice(120)) expect(ev.get(p.id)).toBeUndefined();

    // No double broadcast: each paid address received exactly one transaction, the recorded one.
    const addrOf = new Map(toPay.map((p) => [outputsOf(p)[0].address as string, p.id as string]));
    const payers = await payersOf(new Set(addrOf.keys()), startHeight);
    for (const [addr, id] of addrOf) expect({ id, txids: payers.get(addr) }).toEqual({ id, txids: [rows.get(id)!.txid] });
    const mempool: string[] = await node.rpc('getrawmempool');
    expect(new Set(mempool)).toEqual(
      new Set(toPay.filter((_, i) => expectedState(i).confirmations === 0).map((p) => rows.get(p.id)!.txid)),
    );
  }, 180_000);

  it('a live worker whose tick outlasts the lease keeps it (heartbeat): the standby does not take over until it dies', async () => {
    const lease = async () =>
      (
        await db.query<{ holder: string; lapsed: boolean }>(
          `SELECT holder, expires_at < $1 AS lapsed FROM worker_lease WHERE name = 'chain'`,
          [new Date()],
        )
      )[0];
    await killWorker(current);
    const slow = startWorker({ COUNTER_TEST_TICK_DELAY_MS: String(SLOW_TICK_MS) }); // every tick sleeps first
    expect(await until(() => isActive(slow), Boolean, 30_000)).toBe(true);
    const held = (await lease())?.holder;
    expect(held).toMatch(/^[0-9a-f]{16}$/);
    // From now on the lease row is sampled: it must stay the slow worker's and never lapse,
    // though its ticks last three leases (only the heartbeat renews it meanwhile).
    const lapses: unknown[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const l = await lease();
        if (l?.holder !== held || l.lapsed) lapses.push(l);
        await sleep(100);
      }
    })();
    const other = startWorker();
    try {
      expect(await until(() => isStarted(other), Boolean, 60_000)).toBe(true);
      // The quiet window: a lease and two seconds more. Without the heartbeat the slow worker's
      // lease would lapse for all but one lease length of every tick, and the standby, which asks
      // at start and every second, would find it lapsed within this window wherever it began.
      await sleep(LEASE_MS + 2_000);
    } finally {
      sampling = false;
      await sampler;
    }
    expect(lapses).toEqual([]);
    expect(isActive(other), other.out()).toBe(false);
    expect((await lease())?.holder).toBe(held);
    await killWorker(slow);
    expect(await until(() => isActive(other), Boolean, 20_000)).toBe(true);
    expect((await lease())?.holder).not.toBe(held);
    // and it keeps following the chain
    await node.mine(1);
    const tip: number = await node.rpc('getblockcount');
    const stored = async () =>
      Number((await db.query<{ value: string }>(`SELECT value FROM chain_state WHERE key = 'tip_height'`))[0]?.value.replace(/"/g, ''));
    expect(await until(stored, (h) => h === tip, 20_000)).toBe(tip);
  }, 120_000);
});
