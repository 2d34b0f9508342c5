// Creating payment rows: a sale (lib/payments/creation/create-payment.ts prices and signs it) or a refund
// (lib/refunds/create-refund.ts). The callers build the columns; the INSERT, and the event a
// new row reports, are written here (the one writer, docs/architecture.md).
import type { Prisma } from '../db/client';
import { recordEvent, type EventType } from './events';

type Tx = Pick<Prisma, 'payment' | 'vendorEvent'>;
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
