// Stock adjustments (docs/catalog.md#stock): POST /api/admin/products/<id>/stock with a change
// (`delta`) or a counted level (`count`), a reason and an optional note. A delta moves stock by
// `stock = stock + Δ` in one statement (no read-modify-write); a count locks the product's row
// to learn the delta it records. A count on an untracked product starts tracking it; a delta on
// one is refused (409): there is nothing to add to.
import { inStore, storeIdOf } from '../stores';
import { z } from 'zod';
import type { Db } from '../db';
import { InvalidRequestError, conflict, notFound, parseWith } from '../errors';

/** Counts and deltas stay well inside the INTEGER column (as the product's own fields do). */
export const STOCK_LIMIT = 1_000_000_000;
export const ADJUST_REASONS = ['received', 'count', 'damaged', 'returned', 'other'] as const;
export type AdjustReason = (typeof ADJUST_REASONS)[number];

// C0, DEL and C1 controls: never in a stored note (docs/security.md).
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f]/;
const int = z
  .number()
  .int('must be a whole number')
  .min(-STOCK_LIMIT, `must be at least -${STOCK_LIMIT}`)
  .max(STOCK_LIMIT, `must be at most ${STOCK_LIMIT}`);

export const AdjustRequest = z
  .object({
    delta: int.refine((n) => n !== 0, 'must not be 0').optional(),
    count: int.optional(),
    reason: z.enum(ADJUST_REASONS, { message: `must be one of ${ADJUST_REASONS.join(', ')}` }),
    note: z
      .string()
      .max(500, 'must be at most 500 characters')
      .refine((s) => !CONTROL_RE.test(s), 'must not contain control characters')
      .optional(),
  })
  .strict();

export type Adjustment = { delta: number; count?: undefined } | { count: number; delta?: undefined };

/** Parses the body: exactly one of delta and count (400 naming the field otherwise). */
export function parseAdjustment(body: unknown): { change: Adjustment; reason: AdjustReason; note: string } {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new InvalidRequestError('body', 'must be a JSON object { "delta" | "count", "reason", "note" }');
  const p = parseWith(AdjustRequest, body);
  if ((p.delta === undefined) === (p.count === undefined)) throw new InvalidRequestError('delta', 'give exactly one of delta and count');
  const change: Adjustment = p.delta !== undefined ? { delta: p.delta } : { count: p.count! };
  return { change, reason: p.reason, note: p.note?.trim() ?? '' };
}

const ADD_SQL = `
  WITH u AS (
    UPDATE product SET stock = stock + $2::int, updated_at = $5::timestamptz
     WHERE id = $1 AND store_id = $7 AND stock IS NOT NULL AND stock::bigint + $2::int BETWEEN -${STOCK_LIMIT} AND ${STOCK_LIMIT}
    RETURNING id, store_id, stock),
  m AS (
    INSERT INTO stock_movement (store_id, product_id, at, delta, reason, note, user_id)
    SELECT store_id, id, $5::timestamptz, $2::int, $3::text, $4::text, $6::text FROM u)
  SELECT stock FROM u`;

const LOCK_SQL = `SELECT stock FROM product WHERE id = $1 AND store_id = $2 FOR UPDATE`;
const SET_SQL = `
  WITH u AS (UPDATE product SET stock = $2::int, updated_at = $5::timestamptz WHERE id = $1 AND store_id = $8 RETURNING id, store_id, stock)
  INSERT INTO stock_movement (store_id, product_id, at, delta, reason, note, user_id)
  SELECT store_id, id, $5::timestamptz, $7::int, $3::text, $4::text, $6::text FROM u`;

/** Applies an adjustment; returns the new stock. 404 for no such product, 409 for a delta on an untracked one or out of range. */
export async function adjustStock(
  db: Db,
  storeId: number,
  productId: string,
  a: { change: Adjustment; reason: AdjustReason; note: string },
  userId: string | null,
  now = new Date(),
): Promise<number> {
  if (a.change.delta !== undefined) {
    const r = await db.query<{ stock: number }>(ADD_SQL, [
      productId,
      a.change.delta,
      a.reason,
      a.note,
      now.toISOString(),
      userId,
      storeIdOf(storeId),
    ]);
    if (r.length) return Number(r[0].stock);
    const p = await db.prisma.product.findFirst({ where: { id: productId, ...inStore(storeId) }, select: { stock: true } });
    if (!p) throw notFound('no such product');
    if (p.stock === null) throw conflict(`delta: this product's stock is not tracked: set a count first (reason "count")`, 'delta');
    throw conflict(`delta: stock would leave the range ±${STOCK_LIMIT}`, 'delta');
  }
  return setStockCount(db, storeId, productId, a.change.count, a.reason, a.note, userId, now);
}

/**
 * Sets a product's stock to a counted level, recording the difference as a movement (a count on
 * an untracked product starts tracking it: the movement is the whole count). Also used when a
 * product's `stock` is edited (lib/backoffice/catalog.ts).
 */
export async function setStockCount(
  db: Db,
  storeId: number,
  productId: string,
  count: number,
  reason: AdjustReason,
  note: string,
  userId: string | null,
  now = new Date(),
): Promise<number> {
  return db.prisma.$transaction(async (t) => {
    const cur = await t.$queryRawUnsafe<{ stock: number | null }[]>(LOCK_SQL, productId, storeIdOf(storeId));
    if (!cur.length) throw notFound('no such product');
    const delta = count - (cur[0].stock ?? 0);
    await t.$queryRawUnsafe(SET_SQL, productId, count, reason, note, now.toISOString(), userId, delta, storeId);
    return count;
  });
}

/** Stops tracking a product's stock (its `stock` edited to null); its movements stay. */
export async function untrackStock(db: Db, storeId: number, productId: string, now = new Date()): Promise<void> {
  await db.query(`UPDATE product SET stock = NULL, updated_at = $2::timestamptz WHERE id = $1 AND store_id = $3`, [
    productId,
    now.toISOString(),
    storeIdOf(storeId),
  ]);
}

// A CSV import (docs/catalog.md#csv-export-and-import) sets stock as its file says: each tracked
// level it changes is a `count` movement. The products' rows are locked first (FOR UPDATE), so a
// sale that lands meanwhile waits and then applies on top of the imported level.
const IMPORT_COUNTS_SQL = `
  WITH r AS (SELECT id, stock FROM jsonb_to_recordset($1::jsonb) AS r(id text, stock int, stock_set boolean) WHERE r.stock_set),
  old AS (SELECT p.id, p.stock FROM product p WHERE p.store_id = $4 AND p.id IN (SELECT id FROM r) FOR UPDATE)
  INSERT INTO stock_movement (store_id, product_id, at, delta, reason, note, user_id)
  SELECT $4, old.id, $2::timestamptz, r.stock - COALESCE(old.stock, 0), 'count', 'import', (SELECT id FROM "user" WHERE id = $3::text)
    FROM r JOIN old ON old.id = r.id
   WHERE r.stock IS NOT NULL AND r.stock IS DISTINCT FROM old.stock`;
const IMPORT_CREATED_SQL = `
  INSERT INTO stock_movement (store_id, product_id, at, delta, reason, note, user_id)
  SELECT p.store_id, p.id, $2::timestamptz, r.stock, 'count', 'import', (SELECT id FROM "user" WHERE id = $3::text)
    FROM jsonb_to_recordset($1::jsonb) AS r(id text, stock int) JOIN product p ON p.id = r.id AND p.store_id = $4
   WHERE r.stock IS NOT NULL`;

/**
 * Records the stock levels an import sets (`rows`: the products' ids and the stock each will
 * have), inside the import's transaction: before the update for existing products (their old
 * levels are read and locked here), after the insert for new ones (no old level: the whole count).
 * Only the store's own products count: an id of another store records nothing.
 */
export async function recordImportCounts(
  t: { $executeRawUnsafe(q: string, ...v: unknown[]): Promise<number> },
  storeId: number,
  rows: string,
  userId: string | null,
  created: boolean,
  now = new Date(),
): Promise<number> {
  return t.$executeRawUnsafe(created ? IMPORT_CREATED_SQL : IMPORT_COUNTS_SQL, rows, now.toISOString(), userId, storeIdOf(storeId));
}
