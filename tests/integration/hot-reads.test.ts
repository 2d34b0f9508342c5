// lib/relay/hot-reads.ts against a real (in-memory) PGlite with the project's migrations: the
// lookups of one turn share one query, each caller gets its own row (or null), answers are
// never stale, odd ids behave as the one-id query did, and a failed query fails its batch only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { MAINNET } from '@/lib/doge';
import { createPayment } from '@/lib/payments/creation/create-payment';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { loadEnvelope, loadStatusRow } from '@/lib/relay/hot-reads';
import { queryStatus } from '@/lib/relay/pay';
import { DGUB } from '../helpers/keys';

let db: Db;
const ids: string[] = [];

/** A view of `db` that records the SQL it is sent (a distinct Db, so distinct batchers). */
function counted(base: Db, fail?: () => Error | null) {
  const sql: string[] = [];
  const view: Db = {
    ...base,
    query: async <T>(q: string, p?: unknown[]) => {
      sql.push(q);
      const e = fail?.();
      if (e) throw e;
      return base.query<T>(q, p);
    },
  };
  return { view, sql };
}

/** The single-row query the batcher replaced, as the reference answer. */
async function reference(id: string) {
  const [r] = await db.query<Record<string, unknown>>(
    `SELECT id, status, txid, required_confirmations, confirmations, confirmed_at, reason, envelope FROM payment WHERE id = $1`,
    [id],
  );
  return r;
}

beforeAll(async () => {
  db = await openTestDb();
  await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: DGUB }, create: { id: 1, storeXpub: DGUB } });
  await activeRelayKey(db, 1);
  for (let i = 0; i < 6; i++) {
    const r = await createPayment(
      { storeId: 1, db, network: MAINNET, publicUrl: 'http://127.0.0.1:1' },
      JSON.stringify({ items: [{ type: 'item', id: 'sku', name: `n${i}`, count: 1, unit: String(i + 1) }] }),
    );
    ids.push((r.body as { id: string }).id);
  }
  // A mix of states, so that rows differ in more than their id.
  await db.query(
    `UPDATE payment SET status = 'confirmed', txid = $2, confirmations = 2, required_confirmations = 1, confirmed_at = '2026-01-02T03:04:05.678Z' WHERE id = $1`,
    [ids[1], 'ab'.repeat(32)],
  );
  await db.query(`UPDATE payment SET status = 'declined', reason = 'double spend' WHERE id = $1`, [ids[2]]);
  await db.query(`UPDATE payment SET status = 'accepted', txid = $2 WHERE id = $1`, [ids[3], 'cd'.repeat(32)]);
}, 60_000);
afterAll(async () => db?.close());

describe('loadStatusRow / loadEnvelope', () => {
  it('answers concurrent lookups with one query; each caller gets its own row or null', async () => {
    const { view, sql } = counted(db);
    const asked = [ids[0], 'unknown-1', ids[1], ids[2], ids[1], ids[3], 'unknown-2', ids[4]];
    const rows = await Promise.all(asked.map((id) => loadStatusRow(view, id)));
    expect(sql).toHaveLength(1);
    expect(sql[0]).toMatch(/= ANY\(\$1/);
    for (const [i, id] of asked.entries()) {
      const ref = await reference(id);
      if (!ref) {
        expect(rows[i]).toBeNull();
        continue;
      }
      expect(rows[i]).toEqual({
        id,
        status: ref.status,
        txid: ref.txid,
        requiredConfirmations: ref.required_confirmations,
        confirmations: ref.confirmations,
        confirmedAt: ref.confirmed_at === null ? null : new Date(ref.confirmed_at as string | Date),
        reason: ref.reason,
      });
    }
    expect(rows[2]!.confirmedAt!.toISOString()).toBe('2026-01-02T03:04:05.678Z');
    // Two callers of one id get equal rows, never one shared object.
    expect(rows[4]).toEqual(rows[2]);
    expect(rows[4]).not.toBe(rows[2]);
  });

  it('serves envelopes the same way: the stored bytes, one query for the turn', async () => {
    const { view, sql } = counted(db);
    const asked = [ids[5], ids[0], 'nope', ids[5]];
    const got = await Promise.all(asked.map((id) => loadEnvelope(view, id)));
    expect(sql).toHaveLength(1);
    for (const [i, id] of asked.entries()) expect(got[i]).toBe((await reference(id))?.envelope ?? null);
  });

  it('is never stale: a lookup after a change sees the change', async () => {
    const { view } = counted(db);
    expect((await loadStatusRow(view, ids[5]))!.status).toBe('unpaid');
    await db.query(`UPDATE payment SET status = 'accepted', txid = $2 WHERE id = $1`, [ids[5], 'ef'.repeat(32)]);
    const after = await queryStatus(view, { id: ids[5] });
    expect(after).toEqual({
      status: 200,
      body: { id: ids[5], status: 'accepted', txid: 'ef'.repeat(32), required: 1, confirmed: 0, due_sec: 60 },
    });
  });

  it('treats odd ids as unknown without spoiling the batch they share a turn with', async () => {
    const { view, sql } = counted(db);
    const odd = ['a\u0000b', '\ud800x', 'x,y', '{a,b}', '"q"', 'NULL', 'back\\slash', '日本'];
    const rows = await Promise.all([ids[0], ...odd, ids[1]].map((id) => loadStatusRow(view, id)));
    expect(rows.map((r) => r?.id ?? null)).toEqual([ids[0], ...odd.map(() => null), ids[1]]);
    expect(sql).toHaveLength(1);
    expect(await loadEnvelope(view, 'a\u0000b')).toBeNull();
    expect(await queryStatus(view, { id: 'a\u0000b' })).toEqual({
      status: 404,
      body: { error: 'not_found', message: 'unknown payment id' },
    });
  });

  it('rejects every lookup of a failed query with its error, and the next turn queries again', async () => {
    let down = true;
    const { view, sql } = counted(db, () => (down ? new Error('connect ECONNREFUSED 127.0.0.1:5432') : null));
    const r = await Promise.allSettled([ids[0], ids[1], 'nope'].map((id) => loadStatusRow(view, id)));
    expect(r.map((x) => (x.status === 'rejected' ? (x.reason as Error).message : 'ok'))).toEqual(
      Array(3).fill('connect ECONNREFUSED 127.0.0.1:5432'),
    );
    down = false;
    expect((await loadStatusRow(view, ids[0]))!.id).toBe(ids[0]);
    expect(sql).toHaveLength(2);
  });
});
