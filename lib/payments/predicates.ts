// What a payment may do next, and the facts derived from its row, computed in one place. Routes
// and other modules ask these rather than repeating the table's conditions (as BTCPay's
// InvoiceState.CanMarkComplete). Pure: the clock is a parameter.
import type { Trigger } from './states';
import { allows } from './table';

/** The columns the predicates read. */
export interface StateRow {
  status: string;
  broadcastState: string;
}

/** The payment's deadline has passed: strictly after `expires_at` (the relay refuses /pay from then on). */
export function isPastExpiry(row: { expiresAt: Date }, now: Date): boolean {
  return now.getTime() > row.expiresAt.getTime();
}

/**
 * Expired: still unpaid, no /pay broadcast in flight, and past its deadline. Nothing more will
 * happen at the counter (late money is still counted, table rows chain.enough_late).
 */
export function isExpired(row: StateRow & { expiresAt: Date }, now: Date): boolean {
  return row.status === 'unpaid' && row.broadcastState === 'none' && isPastExpiry(row, now);
}

/**
 * The vendor API's `expired` field: the deadline passed without the payment being paid (unpaid,
 * or declined). Kept as the API has always answered it; the till's word is `tillState`.
 */
export function expiredField(row: { status: string; expiresAt: Date }, now: Date): boolean {
  return (row.status === 'unpaid' || row.status === 'declined') && isPastExpiry(row, now);
}

/** The worker emits payment.expired now (table row timer.expired): expired, not yet emitted, not a refund. */
export function isExpiryDue(row: StateRow & { expiresAt: Date; expiredAt: Date | null; refundOf: string | null }, now: Date): boolean {
  return row.expiredAt === null && row.refundOf === null && allows(row, 'timer.expiry') && isPastExpiry(row, now);
}

/** The vendor may cancel it (table row vendor.cancel): unpaid, no /pay broadcast pending. */
export const canCancel = (row: StateRow): boolean => allows(row, 'vendor.cancel');

/** The merchant may mark it settled or invalid (table rows merchant.*): unpaid or accepted. */
export function canMark(row: StateRow, as: 'settled' | 'invalid'): boolean {
  return allows(row, as === 'settled' ? 'merchant.mark_settled' : 'merchant.mark_invalid');
}

/** A /pay submission may claim it to broadcast its tx (table row pay.claim). */
export const canClaimBroadcast = (row: StateRow): boolean => allows(row, 'relay.claim');

/** The claim may be given back (table row pay.release): a broadcast is pending. */
export const canReleaseBroadcast = (row: StateRow): boolean => allows(row, 'relay.release');

/** Final: nothing the chain or a wallet does changes what the till shows (confirmed, declined or expired). */
export function isFinal(row: StateRow & { expiresAt: Date }, now: Date): boolean {
  return row.status === 'confirmed' || row.status === 'declined' || isExpired(row, now);
}

/** A decided payment answers /pay idempotently (accepted, confirmed or declined). */
export const isDecided = (row: { status: string }): boolean => row.status !== 'unpaid';

/** max(total − amount_paid, 0) (docs/api.md amount_due). */
export function amountDue(row: { total: bigint; amountPaid?: bigint }): bigint {
  const paid = row.amountPaid ?? 0n;
  return row.total > paid ? row.total - paid : 0n;
}

/**
 * A refund can be issued against it: a sale (not a refund itself) that money reached. The
 * amount left to refund is lib/refunds' to compute.
 */
export function canRefund(row: { refundOf: string | null; amountPaid: bigint }): boolean {
  return row.refundOf === null && row.amountPaid > 0n;
}

/** What the till shows for a sale: its status, or cancelled, or expired. */
export type TillState = 'unpaid' | 'accepted' | 'confirmed' | 'declined' | 'cancelled' | 'expired';

/**
 * The till's word for a sale. A declined payment stays declined (or cancelled) past its
 * deadline: only an unpaid one with nothing in flight becomes expired.
 */
export function tillState(row: StateRow & { exception: string | null; expiresAt: Date }, now: Date): TillState {
  if (row.status === 'declined') return row.exception === 'cancelled' ? 'cancelled' : 'declined';
  if (isExpired(row, now)) return 'expired';
  return row.status as TillState;
}

/**
 * tillState from the vendor API's view (the till's live poll, in the browser), where `expired`
 * is expiredField: past the deadline while unpaid or declined.
 */
export function tillStateOfView(v: { status: string; exception?: string | null; expired?: boolean }): TillState {
  if (v.status === 'declined') return v.exception === 'cancelled' ? 'cancelled' : 'declined';
  if (v.status === 'unpaid' && v.expired) return 'expired';
  return v.status as TillState;
}

/** Every trigger the table has from this row's state and broadcast sub-state (for the back office and tests). */
export function allowedTriggers(row: StateRow, triggers: readonly Trigger[]): Trigger[] {
  return triggers.filter((t) => allows(row, t));
}
