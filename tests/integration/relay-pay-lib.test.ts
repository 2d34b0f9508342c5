// lib/relay/pay.ts in process, on an in-memory PGlite with the project's migrations and a devnet
// chain: what the plain-SQL hot path writes (state, submission outcome, events in order with
// bodies matching the row), 0-conf, idempotent answers, a tx reused for another payment,
// concurrent submissions (one broadcast), the general path when the worker saw the tx mined
// between claim and acceptance, a crash between claim and broadcast, and the batching of the
// loads, claims and acceptances of one event-loop turn (one statement each, same outcomes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { REGTEST } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { submitPayment, broadcastClaimed, type PayContext } from '@/lib/relay/pay';
import { acceptClaimed, claimPayment, loadPayRow } from '@/lib/payments';
import { createDevnetBackend, type DevnetBackend } from '@/lib/chain/devnet/backend';
import { buildPaymentTx } from '@/lib/wallet';
import { vendorPaymentView } from '@/lib/payments';
import { createTestPayment } from '../helpers/payments';

const URL_BASE = 'http://127.0.0.1:1';
const XPUB = testXpub(11);
let db: Db;
let chain: DevnetBackend;
let dir: string;
let ctx: PayContext;
const used = new Set<string>();

const newPayment = (extra: Record<string, unknown> = {}) =>
  createTestPayment<{ id: string; payment: Parameters<typeof buildPaymentTx>[0] }>(db, { extra, publicUrl: URL_BASE });

/** A signed tx paying `p` from one unused demo-wallet coin. */
function payTx(p: Awaited<ReturnType<typeof newPayment>>) {
  const w = chain.demoWallet();
  const u = w.utxos.find((x) => !used.has(`${x.txid}:${x.vout}`) && x.amount >= 10_00000000n)!;
  used.add(`${u.txid}:${u.vout}`);
  return buildPaymentTx(p.payment, {
    network: 'regtest',
    utxos: [{ txid: u.txid, vout: u.vout, amount: u.amount, script: u.script }],
    keys: [w.wif],
  });
}

const body = (p: Awaited<ReturnType<typeof newPayment>>, hex: string) => ({ id: p.id, tx: hex });
const events = (id: string) =>
  db.query<{ type: string; body: string }>(`SELECT type, body FROM vendor_event WHERE payment_id = $1 ORDER BY seq`, [id]);
const submissions = (id: string) =>
  db.query<{ outcome: string; txid: string }>(`SELECT outcome, txid FROM payment_submission WHERE payment_id = $1 ORDER BY id`, [id]);

/** `db` with every query recorded (sql, params) and an optional hook that may throw instead. */
function recording(hook?: (sql: string, params: unknown[]) => void) {
  const sent: { sql: string; params: unknown[] }[] = [];
  const rec = new Proxy(db, {
    get: (t, k) =>
      k === 'query'
        ? (sql: string, params: unknown[]) => {
            sent.push({ sql, params });
            hook?.(sql, params);
            return t.query(sql, params);
          }
        : Reflect.get(t, k),
  }) as Db;
  return {
    rec,
    sent,
    claims: () => sent.filter((x) => /INSERT INTO payment_submission/.test(x.sql)),
    accepts: () => sent.filter((x) => /INSERT INTO vendor_event/.test(x.sql)),
  };
}
/** A claim needs only a txid and some hex: nothing is broadcast here. */
const fakeTx = () => ({ txid: randomBytes(32).toString('hex'), hex: randomBytes(60).toString('hex') });
const claimOf = (t: { txid: string; hex: string }) => ({ txid: t.txid, txHex: t.hex, refund: '', buyer: '', now: new Date() });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'counter-pay-lib-'));
  db = await openTestDb();
  await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: XPUB }, create: { id: 1, storeXpub: XPUB } });
  await activeRelayKey(db, 1);
  chain = createDevnetBackend({ network: REGTEST, dir, blockSeconds: 0 });
  await chain.start();
  ctx = { db, network: REGTEST, chain, publicUrl: URL_BASE };
}, 60_000);
afterAll(async () => {
  await chain?.stop();
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('submitPayment', () => {
  it('accepts: state, submission outcome, one payment.accepted event whose body is the accepted row', async () => {
    const p = await newPayment();
    const tx = payTx(p);
    const r = await submitPayment(ctx, { ...body(p, tx.hex), refund: '' });
    expect(r).toEqual({ status: 200, body: { id: p.id, status: 'accepted', txid: tx.txid, required: 1, confirmed: 0, due_sec: 60 } });
    const row = (await loadPayRow(db, p.id))!;
    expect(row).toMatchObject({ status: 'accepted', broadcastState: 'sent', txid: tx.txid, txHex: tx.hex, confirmedAt: null });
    expect(await chain.inMempool(tx.txid)).toBe(true);
    expect(await submissions(p.id)).toEqual([{ outcome: 'accepted', txid: tx.txid }]);
    const ev = await events(p.id);
    expect(ev.map((e) => e.type)).toEqual(['payment.accepted']);
    const b = JSON.parse(ev[0].body);
    expect(b.type).toBe('payment.accepted');
    expect(b.payment).toMatchObject({
      id: p.id,
      status: 'accepted',
      txid: tx.txid,
      required: 1,
      confirmed: 0,
      total: '2',
      confirmed_at: null,
      block_height: null,
    });
    // Exactly the view of the stored row (as the ORM path built it from the re-read row).
    const stored = await db.prisma.payment.findUniqueOrThrow({ where: { id: p.id } });
    expect(b.payment).toEqual(vendorPaymentView(stored, URL_BASE, new Date(b.created_at)));
    // Idempotent: the same or another tx afterwards gets the current status, nothing new is written.
    expect(await submitPayment(ctx, body(p, 'zz'))).toEqual(r);
    expect(await submissions(p.id)).toHaveLength(1);
    expect(await events(p.id)).toHaveLength(1);
  });

  it('0-conf: confirmed at once, events accepted then confirmed, both showing the confirmed row', async () => {
    const p = await newPayment({ required_confirmations: 0 });
    const tx = payTx(p);
    const r = await submitPayment(ctx, body(p, tx.hex));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'confirmed', required: 0, confirmed: 0, due_sec: 0 });
    const ev = await events(p.id);
    expect(ev.map((e) => e.type)).toEqual(['payment.accepted', 'payment.confirmed']);
    const stored = await db.prisma.payment.findUniqueOrThrow({ where: { id: p.id } });
    for (const e of ev) {
      const b = JSON.parse(e.body);
      expect(b.payment).toMatchObject({ status: 'confirmed', required: 0 });
      expect(b.payment).toEqual(vendorPaymentView(stored, URL_BASE, new Date(b.created_at)));
    }
  });

  it('refuses a transaction that already paid another payment (400 invalid_tx), and the loser keeps nothing', async () => {
    const a = await newPayment();
    const tx = payTx(a);
    expect((await submitPayment(ctx, body(a, tx.hex))).status).toBe(200);
    const b = await newPayment();
    // Same outputs are not needed for the claim to collide: the txid is unique across payments.
    const row = (await loadPayRow(db, b.id))!;
    const claim = await claimPayment(db, b.id, { txid: tx.txid, txHex: tx.hex, refund: '', buyer: '', now: new Date() });
    expect(claim).toBe('duplicate_tx');
    expect(await loadPayRow(db, b.id)).toMatchObject({ status: 'unpaid', broadcastState: 'none', txid: null, updatedAt: row.updatedAt });
    expect(await submissions(b.id)).toEqual([]);
  });

  it('concurrent submissions of different valid txs: exactly one is broadcast and every answer reports it', async () => {
    const p = await newPayment();
    const txs = Array.from({ length: 6 }, () => payTx(p));
    const answers = await Promise.all(txs.map((t) => submitPayment(ctx, body(p, t.hex))));
    const winner = (await loadPayRow(db, p.id))!.txid;
    expect(txs.map((t) => t.txid)).toContain(winner);
    for (const a of answers) expect(a).toMatchObject({ status: 200, body: { status: 'accepted', txid: winner } });
    const inPool = await Promise.all(txs.map((t) => chain.inMempool(t.txid)));
    expect(inPool.filter(Boolean)).toHaveLength(1);
    expect(await submissions(p.id)).toEqual([{ outcome: 'accepted', txid: winner }]);
    expect((await events(p.id)).map((e) => e.type)).toEqual(['payment.accepted']);
  });

  it('the worker saw the tx mined between claim and acceptance: the event shows the block (general path)', async () => {
    const p = await newPayment();
    const tx = payTx(p);
    expect(await claimPayment(db, p.id, { txid: tx.txid, txHex: tx.hex, refund: '', buyer: '', now: new Date() })).toBe('claimed');
    const claimed = (await loadPayRow(db, p.id))!;
    await db.query(`UPDATE payment SET block_height = 7, block_hash = $2 WHERE id = $1`, [p.id, 'ab'.repeat(32)]);
    const r = await broadcastClaimed(ctx, p.id, claimed);
    expect(r).toMatchObject({ kind: 'decided', row: { status: 'accepted', txid: tx.txid } });
    const ev = await events(p.id);
    expect(ev.map((e) => e.type)).toEqual(['payment.accepted']);
    expect(JSON.parse(ev[0].body).payment).toMatchObject({ status: 'accepted', block_height: 7 });
    expect(await submissions(p.id)).toEqual([{ outcome: 'accepted', txid: tx.txid }]);
  });

  it('a crash after the claim: the reconciler path (no row given) broadcasts once and accepts', async () => {
    const p = await newPayment();
    const tx = payTx(p);
    expect(await claimPayment(db, p.id, { txid: tx.txid, txHex: tx.hex, refund: '', buyer: '', now: new Date() })).toBe('claimed');
    expect(await submissions(p.id)).toEqual([{ outcome: 'pending', txid: tx.txid }]);
    // A submission meanwhile waits for the claim holder; here nobody holds it, so check the row only.
    const r = await broadcastClaimed(ctx, p.id);
    expect(r).toMatchObject({ kind: 'decided', row: { status: 'accepted', txid: tx.txid } });
    expect(await chain.inMempool(tx.txid)).toBe(true);
    // Run again (a second reconciler pass): nothing changes.
    expect(await broadcastClaimed(ctx, p.id)).toMatchObject({ kind: 'decided', row: { status: 'accepted', txid: tx.txid } });
    expect((await events(p.id)).map((e) => e.type)).toEqual(['payment.accepted']);
  });

  it('keeps the contract order for refusals: unknown id, then the tx; no relay_token is checked', async () => {
    const p = await newPayment();
    expect(await submitPayment(ctx, { id: 'nope', tx: '00' })).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(await submitPayment(ctx, { id: p.id, tx: '00', relay_token: 'x' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_tx' },
    });
    expect(await submitPayment(ctx, { id: p.id, tx: 'zz' })).toMatchObject({ status: 400, body: { error: 'invalid_tx' } });
    expect(await loadPayRow(db, p.id)).toMatchObject({ status: 'unpaid', broadcastState: 'none' });
  });
});

describe('loadPayRow batching', () => {
  it('answers the loads of one turn with one query, each caller its own fresh row', async () => {
    const [a, b] = [await newPayment(), await newPayment()];
    const { rec: counting, sent } = recording();
    const rows = await Promise.all([
      loadPayRow(counting, a.id),
      loadPayRow(counting, b.id),
      loadPayRow(counting, a.id),
      loadPayRow(counting, 'no-such-id'),
      loadPayRow(counting, 'bad\u0000id'),
    ]);
    expect(sent.map((x) => x.params)).toEqual([[[a.id, b.id, 'no-such-id']]]); // the NUL id is never sent
    expect(rows.map((r) => r?.id ?? null)).toEqual([a.id, b.id, a.id, null, null]);
    expect(rows[0]).not.toBe(rows[2]); // same payment, separate objects
    expect(rows[0]!.outputs).not.toBe(rows[2]!.outputs);
    // Fresh: a load after a write sees it.
    await db.query(`UPDATE payment SET reason = 'changed' WHERE id = $1`, [b.id]);
    expect((await loadPayRow(counting, b.id))!.reason).toBe('changed');
    expect(sent).toHaveLength(2);
  });
});

describe('claim and accept batching', () => {
  it('the claims of one turn share one statement; a payment or a txid twice in a turn goes in the next batch', async () => {
    const [a, b, c] = [await newPayment(), await newPayment(), await newPayment()];
    const [ta, tb, ta2] = [fakeTx(), fakeTx(), fakeTx()];
    const r = recording();
    const got = await Promise.all([
      claimPayment(r.rec, a.id, claimOf(ta)),
      claimPayment(r.rec, b.id, claimOf(tb)),
      claimPayment(r.rec, a.id, claimOf(ta2)), // a again: next batch, finds it claimed
      claimPayment(r.rec, c.id, claimOf(tb)), // tb again: next batch, the txid already pays b
    ]);
    expect(got).toEqual(['claimed', 'claimed', 'lost', 'duplicate_tx']);
    expect(r.claims().map((x) => [x.params[0]].flat())).toEqual([[a.id, b.id], [a.id, c.id], [a.id], [c.id]]); // after the unique violation, each alone
    expect(await loadPayRow(db, a.id)).toMatchObject({ broadcastState: 'pending', txid: ta.txid });
    expect(await loadPayRow(db, c.id)).toMatchObject({ broadcastState: 'none', txid: null });
    expect(await submissions(a.id)).toEqual([{ outcome: 'pending', txid: ta.txid }]);
    expect(await submissions(c.id)).toEqual([]);
  });

  it('a batch with a txid that already pays another payment: each retried alone, only that one refused', async () => {
    const [d, e, f, g] = [await newPayment(), await newPayment(), await newPayment(), await newPayment()];
    const [td, te, tg] = [fakeTx(), fakeTx(), fakeTx()];
    expect(await claimPayment(db, d.id, claimOf(td))).toBe('claimed');
    const r = recording();
    const got = await Promise.all([
      claimPayment(r.rec, e.id, claimOf(te)),
      claimPayment(r.rec, f.id, claimOf(td)),
      claimPayment(r.rec, g.id, claimOf(tg)),
    ]);
    expect(got).toEqual(['claimed', 'duplicate_tx', 'claimed']);
    expect(r.claims().map((x) => [x.params[0]].flat())).toEqual([[e.id, f.id, g.id], [e.id], [f.id], [g.id]]);
    expect(await submissions(f.id)).toEqual([]);
    expect(await submissions(g.id)).toEqual([{ outcome: 'pending', txid: tg.txid }]);
  });

  it('a deadlock (PostgreSQL, rows locked in another order by another process): each claim retried alone', async () => {
    const [h, i] = [await newPayment(), await newPayment()];
    let thrown = false;
    const r = recording((sql, params) => {
      if (!thrown && /INSERT INTO payment_submission/.test(sql) && Array.isArray(params[0])) {
        thrown = true;
        throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      }
    });
    const [th, ti] = [fakeTx(), fakeTx()];
    const got = await Promise.all([claimPayment(r.rec, h.id, claimOf(th)), claimPayment(r.rec, i.id, claimOf(ti))]);
    expect(got).toEqual(['claimed', 'claimed']);
    expect(r.claims().map((x) => [x.params[0]].flat())).toEqual([[h.id, i.id], [h.id], [i.id]]);
  });

  it('retried one by one, an item that fails again fails alone: the others are claimed and told so', async () => {
    const [l, m, n] = [await newPayment(), await newPayment(), await newPayment()];
    const r = recording((sql, params) => {
      if (!/INSERT INTO payment_submission/.test(sql)) return;
      const ids = params[0] as string[]; // one array of ids, in the batch and the one-row form alike
      if (ids.length > 1 || ids[0] === m.id) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
    });
    const got = await Promise.allSettled([l, m, n].map((p) => claimPayment(r.rec, p.id, claimOf(fakeTx()))));
    expect(got.map((x) => (x.status === 'fulfilled' ? x.value : (x.reason as Error).message))).toEqual([
      'claimed',
      'deadlock detected',
      'claimed',
    ]);
    expect(r.claims().map((x) => [x.params[0]].flat())).toEqual([[l.id, m.id, n.id], [l.id], [m.id], [n.id]]);
    expect(await loadPayRow(db, m.id)).toMatchObject({ broadcastState: 'none' });
    expect(await loadPayRow(db, n.id)).toMatchObject({ broadcastState: 'pending' });
  });

  it('an outage fails every claim of its batch, and the next batch runs', async () => {
    const [j, k] = [await newPayment(), await newPayment()];
    let down = true;
    const r = recording(() => {
      if (down) throw new Error('connection refused');
    });
    const [tj, tk] = [fakeTx(), fakeTx()];
    const got = await Promise.allSettled([claimPayment(r.rec, j.id, claimOf(tj)), claimPayment(r.rec, k.id, claimOf(tk))]);
    expect(got.map((x) => x.status)).toEqual(['rejected', 'rejected']);
    down = false;
    expect(await claimPayment(r.rec, j.id, claimOf(tj))).toBe('claimed');
    expect(await submissions(k.id)).toEqual([]);
  });

  it('the acceptances of one turn share one statement: each row guarded on its own, events in order', async () => {
    // (A batch of one, the usual case, takes the one-row statements: the tests above.)
    const ps = [await newPayment(), await newPayment({ required_confirmations: 0 }), await newPayment()];
    const txs = [fakeTx(), fakeTx(), fakeTx()];
    for (const [n, p] of ps.entries()) expect(await claimPayment(db, p.id, claimOf(txs[n]))).toBe('claimed');
    const rows = await Promise.all(ps.map((p) => loadPayRow(db, p.id)));
    // The worker saw the third payment's tx mined after its row was read: the shared statement
    // leaves it alone, and acceptClaimed accepts it on the row as it now stands (the general path).
    await db.query(`UPDATE payment SET block_height = 9, block_hash = $2 WHERE id = $1`, [ps[2].id, 'cd'.repeat(32)]);
    const r = recording();
    const now = new Date();
    const got = await Promise.all(rows.map((row) => acceptClaimed(r.rec, row!, now, URL_BASE, { value: row!.total, inputs: [] }, false)));
    expect(r.accepts()).toHaveLength(1);
    expect(got.map((x) => x?.status ?? null)).toEqual(['accepted', 'confirmed', 'accepted']);
    expect(await loadPayRow(db, ps[2].id)).toMatchObject({ status: 'accepted', broadcastState: 'sent', blockHeight: 9 });
    expect(await submissions(ps[2].id)).toEqual([{ outcome: 'accepted', txid: txs[2].txid }]);
    const all = await db.query<{ payment_id: string; type: string }>(
      `SELECT payment_id, type FROM vendor_event WHERE payment_id = ANY($1::text[]) ORDER BY seq`,
      [ps.map((p) => p.id)],
    );
    expect(all).toEqual([
      { payment_id: ps[0].id, type: 'payment.accepted' },
      { payment_id: ps[1].id, type: 'payment.accepted' },
      { payment_id: ps[1].id, type: 'payment.confirmed' },
      { payment_id: ps[2].id, type: 'payment.accepted' },
    ]);
    for (const n of [0, 1]) expect(await submissions(ps[n].id)).toEqual([{ outcome: 'accepted', txid: txs[n].txid }]);
    const stored = await db.prisma.payment.findUniqueOrThrow({ where: { id: ps[1].id } });
    expect(stored).toMatchObject({ status: 'confirmed', requiredConfirmations: 0, broadcastState: 'sent' });
    expect(stored.confirmedAt?.toISOString()).toBe(now.toISOString());
  });
});
