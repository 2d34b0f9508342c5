// lib/payments/chain-sync.ts updateConfirmations on PGlite: counts follow the tip up to
// CONFIRMATIONS_TRACKED, the required depth moves a payment through the state machine either
// way (with its events), and a block's work is bounded by the payments whose count still moves:
// history confirmed long ago is not rewritten on every block.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { REGTEST } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { createPayment } from '@/lib/payments/creation/create-payment';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { CONFIRMATIONS_TRACKED, onBlockDisconnected, updateConfirmations, type SyncContext } from '@/lib/payments';

const XPUB = testXpub(12);
let db: Db;
let ctx: SyncContext;

beforeAll(async () => {
  db = await openTestDb();
  await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: XPUB }, create: { id: 1, storeXpub: XPUB } });
  await activeRelayKey(db, 1);
  ctx = { db, network: REGTEST, publicUrl: 'http://127.0.0.1:1' };
});
afterAll(async () => db?.close());

/** A payment in `status`, mined at `height` (null: not in a block), with `required` confirmations. */
async function payment(status: 'accepted' | 'confirmed', height: number | null, required: number, confirmations = 0) {
  const r = await createPayment(
    { storeId: 1, db, network: REGTEST, publicUrl: ctx.publicUrl, apiKeyId: null, userId: null, idempotencyKey: null, scopes: undefined },
    JSON.stringify({ items: [{ type: 'item', id: 'sku', name: 'Tea', count: 1, unit: '2' }], required_confirmations: required }),
  );
  const id = (r.body as { id: string }).id;
  const old = new Date('2026-01-01T00:00:00Z');
  await db.query(
    `UPDATE payment SET status = $2, txid = md5($1) || md5($1 || 'x'), broadcast_state = 'sent', block_height = $3, block_hash = CASE WHEN $3::int IS NULL THEN NULL ELSE 'h' END,
            confirmations = $4, confirmed_at = CASE WHEN $2 = 'confirmed' THEN $5::timestamptz ELSE NULL END, updated_at = $5 WHERE id = $1`,
    [id, status, height, confirmations, old],
  );
  return id;
}
const row = async (id: string) =>
  (
    await db.query<{ status: string; confirmations: number; updated_at: Date; exception: string | null }>(
      `SELECT status, confirmations, updated_at, exception FROM payment WHERE id = $1`,
      [id],
    )
  )[0]!;
const events = async (id: string) =>
  (await db.query<{ type: string }>(`SELECT type FROM vendor_event WHERE payment_id = $1 ORDER BY seq`, [id])).map((e) => e.type);

describe('updateConfirmations', () => {
  it('counts an accepted payment up, and confirms it through the state machine at the required depth', async () => {
    const id = await payment('accepted', 100, 6);
    await updateConfirmations(ctx, 102);
    expect(await row(id)).toMatchObject({ status: 'accepted', confirmations: 3 });
    await updateConfirmations(ctx, 105);
    expect(await row(id)).toMatchObject({ status: 'confirmed', confirmations: 6 });
    expect(await events(id)).toContain('payment.confirmed');
  });

  it('a confirmed payment whose block left the chain goes back to accepted (reorged)', async () => {
    const id = await payment('confirmed', null, 1, 5);
    await updateConfirmations(ctx, 200);
    expect(await row(id)).toMatchObject({ status: 'accepted', confirmations: 0, exception: 'reorged' });
    expect(await events(id)).toContain('payment.unconfirmed');
  });

  it(`counts a confirmed payment on to ${CONFIRMATIONS_TRACKED}, then leaves it alone`, async () => {
    const id = await payment('confirmed', 10, 1, 1);
    await updateConfirmations(ctx, 20);
    const at20 = await row(id);
    expect(at20).toMatchObject({ status: 'confirmed', confirmations: 11 });
    expect(at20.updated_at.getTime()).toBeGreaterThan(Date.parse('2026-01-02'));
    await updateConfirmations(ctx, 10 + CONFIRMATIONS_TRACKED + 50);
    const deep = await row(id);
    expect(deep).toMatchObject({ status: 'confirmed', confirmations: CONFIRMATIONS_TRACKED });
    // deeper blocks write nothing for it
    await db.query(`UPDATE payment SET updated_at = '2026-01-01T00:00:00Z' WHERE id = $1`, [id]);
    await updateConfirmations(ctx, 10 + CONFIRMATIONS_TRACKED + 51);
    await updateConfirmations(ctx, 10 + CONFIRMATIONS_TRACKED + 500);
    expect((await row(id)).updated_at.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(await events(id)).not.toContain('payment.unconfirmed');
  });

  it('a block touches only the payments whose count still moves, not the whole history', async () => {
    const history = [];
    for (let i = 0; i < 30; i++) history.push(await payment('confirmed', 1, 1, CONFIRMATIONS_TRACKED));
    const fresh = await payment('accepted', 999, 6);
    const writes: string[] = [];
    const rec = new Proxy(db, {
      get: (t, k) =>
        k === 'query'
          ? (sql: string, params: unknown[]) => {
              if (/^\s*UPDATE/i.test(sql)) writes.push(sql);
              return t.query(sql, params);
            }
          : Reflect.get(t, k),
    }) as Db;
    await updateConfirmations({ ...ctx, db: rec }, 1000);
    expect(writes.length).toBe(1); // one statement for every count that moved
    expect(await row(fresh)).toMatchObject({ status: 'accepted', confirmations: 2 });
    for (const id of history) expect((await row(id)).updated_at.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });
  it("the worker's recounts read only the counts that can move; a payment counted to the maximum whose block is disconnected is moved back at once", async () => {
    const deep = await payment('confirmed', 10, 1, CONFIRMATIONS_TRACKED);
    await db.query(`UPDATE payment SET block_hash = 'deep-block' WHERE id = $1`, [deep]);
    await updateConfirmations(ctx, 2000, 'tip-a'); // this process's first recount: the whole history
    await updateConfirmations(ctx, 2001, 'tip-b'); // a new tip: the moving ones only
    expect(await row(deep)).toMatchObject({ status: 'confirmed', confirmations: CONFIRMATIONS_TRACKED });
    // The disconnect moves it in the same write as its count (never confirmed at 0 < required).
    await onBlockDisconnected(ctx, 'deep-block');
    expect(await row(deep)).toMatchObject({ status: 'accepted', confirmations: 0, exception: 'reorged' });
    await updateConfirmations(ctx, 2001, 'tip-c');
    expect(await row(deep)).toMatchObject({ status: 'accepted', confirmations: 0, exception: 'reorged' });
    expect((await events(deep)).filter((e) => e === 'payment.unconfirmed')).toHaveLength(1);
  });
});
