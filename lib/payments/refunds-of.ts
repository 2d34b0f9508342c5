// The refunds of payments (docs/api.md#refunds), read for the payment body's `refunds` and
// `amount_refunded`: one indexed query (payment_refund_of_idx) for any number of payments.
// Here, with the writer, because every event body a transition writes lists them
// (apply.ts); lib/refunds reads them through this module too.
import type { Prisma } from '../db';
import type { RefundRow } from './view';

type Reader = Pick<Prisma, 'payment'>;

const REFUND_SELECT = {
  id: true,
  refundOf: true,
  status: true,
  total: true,
  address: true,
  pubkey: true,
  refundReason: true,
  createdAt: true,
  amountPaid: true,
  paidTxids: true,
  txid: true,
  tender: true,
  fiatTotal: true,
  fiatCurrency: true,
} as const;

/** The refunds of each payment in `ids`, oldest first. A payment with none maps to []. */
export async function loadRefunds(p: Reader, ids: readonly string[]): Promise<Map<string, RefundRow[]>> {
  const out = new Map<string, RefundRow[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await p.payment.findMany({ where: { refundOf: { in: [...ids] } }, select: REFUND_SELECT, orderBy: { seq: 'asc' } });
  for (const r of rows) out.get(r.refundOf!)?.push(r);
  return out;
}

/** The rows with their refunds attached (for vendorPaymentView). */
export async function withRefunds<T extends { id: string }>(p: Reader, rows: T[]): Promise<(T & { refunds: RefundRow[] })[]> {
  const m = await loadRefunds(
    p,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, refunds: m.get(r.id) ?? [] }));
}

/** One row with its refunds attached. */
export async function withRefundsOne<T extends { id: string }>(p: Reader, row: T): Promise<T & { refunds: RefundRow[] }> {
  return (await withRefunds(p, [row]))[0]!;
}
