// Vendor events (DESIGN.md §5). Each is written in the same transaction as the state change
// it reports; the row doubles as the webhook outbox entry.
import { randomBytes } from 'node:crypto';
import type { Prisma } from '../db/client';
import { vendorPaymentView, type PaymentRow } from './payment-view';

export const EVENT_TYPES = [
  'payment.accepted', 'payment.confirmed', 'payment.declined', 'payment.expired', 'payment.unconfirmed', 'payment.paid_late',
  'payment.underpaid', 'payment.overpaid',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

type Tx = Pick<Prisma, 'vendorEvent'>;

export async function recordEvent(tx: Tx, type: EventType, row: PaymentRow, publicUrl: string, now = new Date()): Promise<void> {
  const id = 'evt_' + randomBytes(12).toString('base64url');
  const body = JSON.stringify({ id, type, created_at: now.toISOString(), payment: vendorPaymentView(row, publicUrl, now) });
  await tx.vendorEvent.create({ data: { id, type, paymentId: row.id, body, createdAt: now, nextAttemptAt: now } });
}
