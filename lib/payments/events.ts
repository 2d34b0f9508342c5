// Vendor events (docs/api.md#webhooks). Each is written in the same transaction as the state change
// it reports; the row doubles as the webhook outbox entry.
import { randomBytes } from 'node:crypto';
import { inStore } from '../stores';
import type { Prisma } from '../db';
import { refundView, vendorPaymentView, type PaymentRow } from './view';

import { EVENT_TYPES, type EventType } from './event-types';

export { EVENT_TYPES, type EventType };

type Tx = Pick<Prisma, 'vendorEvent'>;

/** A payment row that may be a refund (docs/api.md#refunds: a refund is a payment row paying the customer). */
export type EventRow = PaymentRow & { refundOf?: string | null; refundReason?: string };

/**
 * The event a transition of this row reports. A refund moves through the same table as a
 * payment, but reports only refund.created, refund.accepted (accepted, late or not) and
 * refund.confirmed (docs/api.md#refunds); its other transitions (expiry, over- and underpayment,
 * reorgs) are not vendor events. Null: nothing to report.
 */
export function eventTypeFor(row: Pick<EventRow, 'refundOf'>, type: EventType): EventType | null {
  if (!row.refundOf) return type;
  switch (type) {
    case 'refund.created':
    case 'refund.accepted':
    case 'refund.confirmed':
      return type;
    case 'payment.accepted':
    case 'payment.paid_late':
      return 'refund.accepted';
    case 'payment.confirmed':
      return 'refund.confirmed';
    default:
      return null;
  }
}

// Event ids are 12 random bytes (base64url), drawn from a pooled buffer: one call into OpenSSL
// for 341 ids rather than one per event (1 % of /relay/pay's CPU in its profile). Ids are
// names, not secrets: they only have to be unique.
const ID_BYTES = 12;
let idPool = Buffer.alloc(0);
let idAt = 0;

/** A new vendor event id: `evt_` and 16 base64url characters. */
export function newEventId(): string {
  if (idAt + ID_BYTES > idPool.length) {
    idPool = randomBytes(ID_BYTES * 341);
    idAt = 0;
  }
  const id = 'evt_' + idPool.toString('base64url', idAt, idAt + ID_BYTES);
  idAt += ID_BYTES;
  return id;
}

/** The event body: `payment` (the payment body), or `refund` (the refund as its 201 answer) for a refund. */
export function eventBody(id: string, type: EventType, row: EventRow, publicUrl: string, now: Date): string {
  const subject = row.refundOf
    ? { refund: refundView({ ...row, refundOf: row.refundOf, refundReason: row.refundReason ?? '' }, publicUrl) }
    : { payment: vendorPaymentView(row, publicUrl, now) };
  return JSON.stringify({ id, type, created_at: now.toISOString(), ...subject });
}

export async function recordEvent(tx: Tx, type: EventType, row: EventRow, publicUrl: string, now = new Date()): Promise<void> {
  const t = eventTypeFor(row, type);
  if (t === null) return;
  const id = newEventId();
  const body = eventBody(id, t, row, publicUrl, now);
  // The event is its payment's store's: its lists, streams and webhooks hold only that store's.
  // The rows passed here are whole payment rows; inStore refuses one without its store.
  const { storeId } = inStore((row as Partial<{ storeId: number }>).storeId as number);
  await tx.vendorEvent.create({ data: { id, storeId, type: t, paymentId: row.id, body, createdAt: now, nextAttemptAt: now } });
}
