// What the payment screen shows for a payment view (from POST /api/v1/payments, the SSE feed
// or a cancel): one of six states and its words. Pure; the clock is a parameter.
// A transaction the network refused never reaches the till: the payment stays unpaid (
// docs/relay.md), so the till keeps waiting. `declined` is only the merchant's "mark invalid" or a
// double spend confirmed after acceptance; a cancel shows as cancelled.
import { formatKoinu, parseKoinu } from '../money';
// The pure predicates module itself: this file runs in the browser too.
import { isPastExpiry, tillStateOfView } from '../payments/client';

export type PosPaymentState = 'waiting' | 'accepted' | 'confirmed' | 'declined' | 'cancelled' | 'expired';

export interface PosPaymentView {
  status: string;
  required?: number;
  confirmed?: number;
  reason?: string | null;
  exception?: string | null;
  expired?: boolean;
  /** docs/api.md#payments-from-any-wallet: what has reached the address so far, and what is still missing (8-DP strings). */
  amount_paid?: string;
  amount_due?: string;
}

/**
 * A short payment (docs/api.md#payments-from-any-wallet): still waiting, with some money in and some missing.
 * The rest is asked for with a plain `dogecoin:<address>?amount=<amount_due>` URI (the address
 * read from the payment's own dogecoin: URI). Null when the payment is not short, not waiting,
 * or the amounts do not add up (never a guess: then the ordinary screen stays).
 */
export function underpaidRest(
  s: PosPaymentState,
  v: PosPaymentView,
  total: string,
  uri: string,
): { paid: bigint; due: bigint; total: bigint; restUri: string } | null {
  if (s !== 'waiting' || v.exception !== 'underpaid' || !v.amount_paid || !v.amount_due) return null;
  const address = /^dogecoin:([1-9A-HJ-NP-Za-km-z]{25,40})(\?|$)/.exec(uri)?.[1];
  if (!address) return null;
  try {
    const paid = parseKoinu(v.amount_paid);
    const due = parseKoinu(v.amount_due);
    const t = parseKoinu(total);
    if (paid <= 0n || due <= 0n || paid + due !== t) return null;
    return { paid, due, total: t, restUri: `dogecoin:${address}?amount=${formatKoinu(due)}` };
  } catch {
    return null;
  }
}

export function posPaymentState(v: PosPaymentView, expiresAtMs: number, nowMs: number): PosPaymentState {
  // lib/payments' one definition: a declined sale stays declined; expired is strictly past the deadline.
  const expired = v.expired || isPastExpiry({ expiresAt: new Date(expiresAtMs) }, new Date(nowMs));
  const s = tillStateOfView({ status: v.status, exception: v.exception, expired });
  return s === 'unpaid' ? 'waiting' : s;
}

export const isFinalPosState = (s: PosPaymentState) => s !== 'waiting' && s !== 'accepted';

/**
 * The txid worth showing: only once the payment is accepted or later. While waiting, the view's
 * txid is a submission still being broadcast, which the network may yet refuse (the claim is
 * then released and the payment stays payable).
 */
export const shownTxid = (s: PosPaymentState, txid: string | null | undefined): string | null =>
  s === 'waiting' || s === 'expired' ? null : txid || null;

/**
 * The status panel's words as message keys (messages/*.json, namespace "payment") with their
 * values, for the translated till; `reason` is the server's own words when it gave some.
 */
export function posStatusMessage(
  s: PosPaymentState,
  v: PosPaymentView,
): { title: string; detail: string; values?: Record<string, number>; reason?: string } {
  switch (s) {
    case 'waiting':
      // Money came without the order data the payment asks for (an ordinary wallet paid the
      // address and amount): not paid; the back office refunds it or marks it settled.
      if (v.exception === 'data_missing') return { title: 'dataMissing', detail: 'dataMissingDetail' };
      return { title: 'waiting', detail: 'waitingDetail' };
    case 'accepted': {
      const m = v.required ?? 1;
      const n = v.confirmed ?? 0;
      return n >= m
        ? { title: 'accepted', detail: 'acceptedDone', values: { n } }
        : { title: 'accepted', detail: 'acceptedProgress', values: { n, m } };
    }
    case 'confirmed':
      return { title: 'paid', detail: 'paidDetail' };
    case 'declined':
      if (v.exception === 'double_spent')
        return { title: 'declinedDoubleSpent', detail: 'doubleSpentReason', reason: v.reason || undefined };
      if (v.exception === 'marked_invalid')
        return {
          title: 'declined',
          detail: 'markedInvalid',
          reason: v.reason && v.reason !== 'marked invalid by merchant' ? v.reason : undefined,
        };
      return { title: 'declined', detail: 'declinedReason', reason: v.reason || undefined };
    case 'cancelled':
      return { title: 'cancelled', detail: 'cancelledDetail' };
    case 'expired':
      return { title: 'expired', detail: 'expiredDetail' };
  }
}

/** m:ss, never negative. */
export function countdown(ms: number): string {
  const t = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, '0')}`;
}

/**
 * What the till shows while live updates are down: a payment that is not final is "status
 * unknown" (no stale waiting, countdown or paid); a final one keeps its final state.
 */
export function posShownState(s: PosPaymentState, live: boolean): PosPaymentState | 'unknown' {
  return !live && !isFinalPosState(s) ? 'unknown' : s;
}

/** "OK to hand over" only once the store's policy is met: the relay reports `confirmed`. */
export const okToHandOver = (s: PosPaymentState | 'unknown') => s === 'confirmed';

/** A sale still in the customer's hands: leaving it (New sale, Cancel) asks first. */
export const saleInProgress = (s: PosPaymentState | 'unknown') => s === 'waiting' || s === 'accepted' || s === 'unknown';
