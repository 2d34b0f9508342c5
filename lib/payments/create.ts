// Creating payment rows: a sale (lib/payments/creation/create-payment.ts prices and signs it), a
// cash sale (lib/cash prices it) or a refund
// (lib/refunds/create-refund.ts). The callers build the columns; the INSERT, and the event a
// new row reports, are written here (the one writer, docs/architecture.md).
import type { Prisma } from '../db';
import { recordEvent, type EventType } from './events';
import { applyTransition } from './apply';

type Tx = Pick<Prisma, 'payment' | 'vendorEvent' | '$queryRawUnsafe'>;
/** The columns of a new payment row, as Prisma's create takes them. */
export type NewPayment = Parameters<Prisma['payment']['create']>[0]['data'];

/** Inserts a new unpaid payment row (with its lines and outputs), inside the caller's transaction. */
export function insertPayment(t: Tx, data: NewPayment) {
  return t.payment.create({ data });
}

/** Inserts a new unpaid payment row and writes the event that reports it (refund.created for a refund). */
export async function insertPaymentWithEvent(t: Tx, data: NewPayment, event: EventType, publicUrl: string, now: Date) {
  const row = await t.payment.create({ data });
  await recordEvent(t, event, row, publicUrl, now);
  return row;
}

/**
 * Records a cash sale (docs/counter.md#cash): the row is inserted unpaid with tender 'cash', and
 * moved at once through the table's `cash.received` row (unpaid → confirmed, payment.confirmed),
 * in the caller's transaction, so it goes through the same transition path as any sale that
 * becomes paid. Guarded by the tender: no Dogecoin payment can take that row.
 */
export async function insertCashSale(t: Tx, data: NewPayment, publicUrl: string, now: Date) {
  if (data.tender !== 'cash') throw new Error('insertCashSale records tender cash only');
  const row = await t.payment.create({ data });
  const applied = await applyTransition(t, { row, trigger: 'till.cash', guard: { tender: 'cash' }, publicUrl, now });
  if (!applied) throw new Error(`cash sale ${row.id} changed under its own transaction`);
  return applied.row;
}

/**
 * Records a cash refund (docs/counter.md#cash-refunds): a refund row of tender 'cash', reported
 * as refund.created, then moved at once through the same `cash.received` row (unpaid →
 * confirmed, reported as refund.confirmed): the cashier handed the cash back.
 */
export async function insertCashRefund(t: Tx, data: NewPayment, publicUrl: string, now: Date) {
  if (data.tender !== 'cash' || !data.refundOf) throw new Error('insertCashRefund records a cash refund only');
  const row = await insertPaymentWithEvent(t, data, 'refund.created', publicUrl, now);
  const applied = await applyTransition(t, { row, trigger: 'till.cash', guard: { tender: 'cash' }, publicUrl, now });
  if (!applied) throw new Error(`cash refund ${row.id} changed under its own transaction`);
  return applied.row;
}
