// What the customer's checkout page shows of a payment's lifecycle (docs/using-counter.md, "The
// customer's checkout page"). Pure, and shared by the server (first render, no JavaScript
// needed) and the browser (live updates). The page learns only the fields in CheckoutLive: the
// public stream (app/api/checkout/[id]/events) sends these and nothing else of the vendor's view,
// so no refund, decision note, refund address or other merchant detail reaches the customer.
import { posPaymentState, underpaidRest } from '../pos/client';

/** The live part of a payment, as the checkout page sees it. */
export type CheckoutLive = {
  status: string;
  exception: string | null;
  expired: boolean;
  required: number;
  confirmed: number;
  amount_paid: string;
  amount_due: string;
};

const str = (v: unknown, d = '') => (typeof v === 'string' ? v : d);
const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0);

/** The checkout's fields of a vendor payment view (lib/payments/view.ts), and no others. */
export function checkoutLive(v: Record<string, unknown>): CheckoutLive {
  return {
    status: str(v.status, 'unpaid'),
    exception: typeof v.exception === 'string' ? v.exception : null,
    expired: v.expired === true,
    required: int(v.required),
    confirmed: int(v.confirmed),
    amount_paid: str(v.amount_paid, '0'),
    amount_due: str(v.amount_due, '0'),
  };
}

export type CheckoutState = 'waiting' | 'underpaid' | 'data_missing' | 'accepted' | 'paid' | 'expired' | 'cancelled' | 'declined';

export interface CheckoutShown {
  state: CheckoutState;
  /** Underpaid: what arrived, what is missing (koinu), and the plain URI asking for the rest. */
  rest: { paid: bigint; due: bigint; restUri: string } | null;
}

/**
 * The state shown: the till's states (lib/pos/payment-state.ts), with "paid" for confirmed, and
 * two of a waiting payment's exceptions told apart: underpaid (a QR code for the rest) and data
 * missing (money arrived without the order's data: nothing more to pay, the store decides).
 * `dogecoinUri` is the payment's own `dogecoin:` URI, whose address the rest is asked to.
 */
export function checkoutShown(v: CheckoutLive, total: string, dogecoinUri: string, expiresAtMs: number, nowMs: number): CheckoutShown {
  const s = posPaymentState(v, expiresAtMs, nowMs);
  if (s === 'confirmed') return { state: 'paid', rest: null };
  if (s !== 'waiting') return { state: s, rest: null };
  if (v.exception === 'data_missing') return { state: 'data_missing', rest: null };
  const rest = underpaidRest(s, v, total, dogecoinUri);
  return rest ? { state: 'underpaid', rest } : { state: 'waiting', rest: null };
}

/** States in which the page still asks for money (and shows a QR code). */
export const asksForMoney = (s: CheckoutState) => s === 'waiting' || s === 'underpaid';

/** Nothing more will change on the page. */
export const isFinalCheckout = (s: CheckoutState) => s === 'paid' || s === 'expired' || s === 'cancelled' || s === 'declined';
