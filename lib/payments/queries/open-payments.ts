// The cap on open payments (docs/security.md, MAX_OPEN_PAYMENTS): open = unpaid and not expired.
// The count walks the partial index payment_open_expires_idx (unpaid rows by expiry) from now
// on and stops at the cap, so it reads at most `limit` index entries however many payments
// (expired or paid) the table holds. Refunds (docs/api.md#refunds) are not sales and do not count.
import type { Db } from '../../db';
import { storeIdOf } from '../../stores';

export const DEFAULT_MAX_OPEN_PAYMENTS = 5000;

/** The number of open payments, counted up to `limit` (a larger number is reported as `limit`). */
export async function countOpenPayments(db: Db, storeId: number, limit: number, now = new Date()): Promise<number> {
  // Counted per store, so one busy store cannot starve the others (docs/architecture.md#data).
  const rows = await db.query<{ n: unknown }>(
    `SELECT count(*) AS n FROM (SELECT 1 FROM payment WHERE store_id = $3 AND status = 'unpaid' AND expires_at > $1 AND refund_of IS NULL LIMIT $2) AS open`,
    [now, limit, storeIdOf(storeId)],
  );
  return Number(rows[0]?.n ?? 0);
}
