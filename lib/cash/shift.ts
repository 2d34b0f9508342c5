// The cash drawer of a cashier's shift (docs/counter.md#close-shift): the cash expected in it, and
// Close shift, which records the cash counted, what was expected and the difference in the audit
// log. A shift starts at the user's last Close shift, or at the start of today in the store's
// time zone when the user never closed one. Only that user's own cash sales count (paid ones:
// a cash sale is confirmed when recorded). Amounts are the pricing currency's minor units,
// summed exactly through lib/money.
import type { Db } from '../db';
import { formatFiatMinor, parseFiatMinor } from '../money';
import { localDate, startOfLocalDay, storeTimezone } from '../reports';
import { recordAudit } from '../backoffice';
import { parseCash } from './change';
import { DomainError } from '../errors';
import { findStore, inStore, storeIdOf } from '../stores';

export interface Drawer {
  user_id: string;
  /** The store's pricing currency; null when it prices in DOGE (no cash then). */
  currency: string | null;
  /** The shift's start (RFC 3339): the last Close shift, else the start of today. */
  from: string;
  /** Cash sales in the shift, and the cash they left in the drawer (fiat_total: received − change), less the cash refunds the user handed back. */
  sales: number;
  expected: string | null;
}

export interface ClosedShift extends Drawer {
  counted: string;
  /** counted − expected: negative when cash is missing. */
  difference: string;
  closed_at: string;
}

/** When the user's shift began: its last Close shift, else the start of today in the store's zone. */
export async function shiftStart(db: Db, storeId: number, userId: string, now: Date): Promise<Date> {
  const rows = await db.query<{ at: Date | string }>(
    `SELECT "at" FROM "audit_log" WHERE "store_id" = $2 AND "action" = 'shift.close' AND "changes" ->> 'user_id' = $1 ORDER BY "at" DESC, "id" DESC LIMIT 1`,
    [userId, storeIdOf(storeId)],
  );
  if (rows.length) return new Date(rows[0].at);
  const tz = await storeTimezone(db, storeId);
  return startOfLocalDay(localDate(now, tz), tz);
}

/** The cash expected in the drawer for `userId`'s current shift in store `storeId`. */
export async function drawer(db: Db, storeId: number, userId: string, now = new Date()): Promise<Drawer> {
  const [from, store] = await Promise.all([shiftStart(db, storeId, userId, now), findStore(db, storeId)]);
  const currency = store && store.pricingCurrency !== 'DOGE' ? store.pricingCurrency : null;
  // The user's cash sales put cash in, and the cash refunds it recorded took cash out
  // (docs/counter.md#cash-refunds).
  const rows = await db.prisma.payment.findMany({
    where: {
      ...inStore(storeId),
      tender: 'cash',
      status: 'confirmed',
      createdBy: userId,
      createdAt: { gte: from, lte: now },
      ...(currency ? { fiatCurrency: currency } : {}),
    },
    select: { fiatTotal: true, refundOf: true },
  });
  const sales = rows.filter((r) => r.refundOf === null);
  let sum = 0n;
  if (currency) for (const r of rows) sum += (r.refundOf === null ? 1n : -1n) * parseFiatMinor(r.fiatTotal, currency);
  return {
    user_id: userId,
    currency,
    from: from.toISOString(),
    sales: currency ? sales.length : 0,
    expected: currency ? formatFiatMinor(sum, currency) : null,
  };
}

export class ShiftError extends DomainError {
  constructor(code: 'invalid_request' | 'conflict', field: string, message: string) {
    super(code, message, field);
    this.name = 'ShiftError';
  }
}

/**
 * Closes `userId`'s shift with the cash counted (text in the pricing currency, "123.45"):
 * records counted, expected and the difference in the audit log (action shift.close), acted by
 * `actorId`, and starts the next shift now.
 */
export async function closeShift(
  db: Db,
  storeId: number,
  actorId: string,
  userId: string,
  countedText: unknown,
  now = new Date(),
): Promise<ClosedShift> {
  const d = await drawer(db, storeId, userId, now);
  if (!d.currency || d.expected === null)
    throw new ShiftError('conflict', 'tender', 'this store prices in DOGE: there is no cash drawer to close');
  if (typeof countedText !== 'string')
    throw new ShiftError('invalid_request', 'cash_counted', 'cash_counted: is required, an amount such as "120.50"');
  let counted: bigint;
  try {
    counted = parseCash('cash_counted', countedText, d.currency);
  } catch (e) {
    throw new ShiftError('invalid_request', 'cash_counted', (e as Error).message);
  }
  const expected = parseFiatMinor(d.expected, d.currency, { allowNegative: true }); // refunds may exceed the sales
  const closed: ClosedShift = {
    ...d,
    counted: formatFiatMinor(counted, d.currency),
    difference: formatFiatMinor(counted - expected, d.currency),
    closed_at: now.toISOString(),
  };
  await db.prisma.$transaction(async (tx) => {
    await recordAudit(tx, storeId, actorId, 'shift.close', {
      user_id: userId,
      currency: closed.currency,
      from: closed.from,
      sales: closed.sales,
      expected: closed.expected,
      counted: closed.counted,
      difference: closed.difference,
    });
  });
  return closed;
}
