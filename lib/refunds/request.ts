// The refund request (docs/api.md#refunds): POST /api/v1/payments/<id>/refunds
//   { "amount": "<8-DP DOGE>" | null, "fiat_amount": "<decimal>" | null, "rate": "then" | "now" | null,
//     "address": "<address>" | null, "reason": "…" }
// Validation and the amount arithmetic, pure: no database, no clock. Every refusal names its
// field (InvalidRequestError → 400 invalid_request), or is a RefundConflictError (409 conflict).
import { z } from 'zod';
import { AmountError, fiatToKoinu, formatFiatMinor, formatKoinu, parseDecimal, parseFiatMinor, parseKoinu, type Decimal } from '../money';
import { decodeAddress, type Network } from '../doge';
import { DomainError, fromZod, InvalidRequestError } from '../errors';

/** Dogecoin's soft dust limit: a refund output below 0.01 DOGE would not relay. */
export const MIN_REFUND = 1_000_000n;

/** C0/C1 controls (NUL included) and DEL: never in a stored or signed string. */
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f]/;
const clean = (max: number) =>
  z
    .string()
    .max(max, `at most ${max} characters`)
    .refine((s) => !CONTROL_RE.test(s), 'must not contain NUL or other control characters');

export const refundRequestSchema = z
  .object({
    amount: clean(40).nullable().optional(),
    fiat_amount: clean(40).nullable().optional(),
    rate: z.enum(['then', 'now']).nullable().optional(),
    address: clean(100).nullable().optional(),
    reason: clean(500).optional().default(''),
    // Return the sale's goods to stock (docs/catalog.md#stock), once per payment.
    return_to_stock: z.boolean().optional().default(false),
  })
  .strict();

export type RefundRequest = z.infer<typeof refundRequestSchema>;

/** 409 conflict: the payment cannot be refunded as asked (nothing paid, over-refunding, no locked rate). */
export class RefundConflictError extends DomainError {
  constructor(message: string) {
    super('conflict', message);
    this.name = 'RefundConflictError';
  }
}

/** What was asked, validated: exactly one of a DOGE amount, a fiat amount, or the whole refundable amount. */
export type RefundAsk = { kind: 'doge'; koinu: bigint } | { kind: 'fiat'; text: string; rate: 'then' | 'now' } | { kind: 'all' };

export interface ParsedRefund {
  ask: RefundAsk;
  address: string | null;
  reason: string;
  returnToStock: boolean;
}

const amountMessage = (e: unknown) => (e instanceof AmountError ? e.message : 'is not a valid amount');

/** Parses and checks the body's shape (a JSON value, already parsed; undefined when it was not JSON). */
export function parseRefundRequest(body: unknown): ParsedRefund {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new InvalidRequestError('body', 'a JSON object { "amount" | "fiat_amount", "rate", "address", "reason" } is required');
  }
  const r = refundRequestSchema.safeParse(body);
  if (!r.success) throw fromZod(r.error);
  const q = r.data;
  const hasAmount = q.amount !== undefined && q.amount !== null;
  const hasFiat = q.fiat_amount !== undefined && q.fiat_amount !== null;
  if (hasAmount && hasFiat) throw new InvalidRequestError('fiat_amount', 'give amount or fiat_amount, not both');
  if (q.rate && !hasFiat) throw new InvalidRequestError('rate', 'applies only with fiat_amount');
  let ask: RefundAsk = { kind: 'all' };
  if (hasAmount) {
    let koinu: bigint;
    try {
      koinu = parseKoinu(q.amount!);
    } catch (e) {
      throw new InvalidRequestError('amount', amountMessage(e));
    }
    if (koinu < MIN_REFUND) throw new InvalidRequestError('amount', 'must be at least 0.01 DOGE (the dust limit)');
    ask = { kind: 'doge', koinu };
  } else if (hasFiat) {
    ask = { kind: 'fiat', text: q.fiat_amount!, rate: q.rate ?? 'then' };
  }
  const address = q.address === undefined || q.address === null || q.address === '' ? null : q.address;
  return { ask, address, reason: q.reason, returnToStock: q.return_to_stock };
}

/** The refund's address: the one asked for, else the customer's from the /pay submission. Must be p2pkh on `network`. */
export function refundAddress(asked: string | null, customerRefund: string, network: Network): string {
  const address = asked ?? (customerRefund || null);
  if (address === null) {
    throw new InvalidRequestError('address', 'is required: the customer gave no refund address with the payment');
  }
  let type: string;
  try {
    type = decodeAddress(address, network).type;
  } catch (e) {
    throw new InvalidRequestError(
      'address',
      `is not a valid ${network.name} address${asked === null ? " (the customer's refund address)" : ''}: ${(e as Error).message}`,
    );
  }
  if (type !== 'p2pkh') throw new InvalidRequestError('address', 'must be a p2pkh address (a refund is paid by one p2pkh output)');
  return address;
}

/** A fiat amount to koinu at a rate (fiat per DOGE), through lib/money; the field is named on error. */
export function fiatRefundKoinu(text: string, currency: string, rate: Decimal): { koinu: bigint; fiat: string } {
  let minor: bigint;
  try {
    minor = parseFiatMinor(text, currency);
  } catch (e) {
    throw new InvalidRequestError('fiat_amount', amountMessage(e));
  }
  if (minor <= 0n) throw new InvalidRequestError('fiat_amount', 'must be greater than 0');
  let koinu: bigint;
  try {
    koinu = fiatToKoinu(minor, currency, rate);
  } catch (e) {
    throw new InvalidRequestError('fiat_amount', amountMessage(e));
  }
  if (koinu < MIN_REFUND) throw new InvalidRequestError('fiat_amount', 'converts to less than 0.01 DOGE (the dust limit)');
  return { koinu, fiat: formatFiatMinor(minor, currency) };
}

/** The payment's locked rate ("then"), or a 409 saying why there is none. */
export function lockedRate(p: { rateValue: string; fiatCurrency: string }): { currency: string; rate: Decimal; value: string } {
  if (!p.rateValue || !p.fiatCurrency) {
    throw new RefundConflictError(
      'this payment has no locked exchange rate (it was priced in DOGE): refund a DOGE amount, or a fiat_amount with "rate": "now"',
    );
  }
  let rate: Decimal;
  try {
    rate = parseDecimal(p.rateValue);
  } catch {
    throw new RefundConflictError('this payment\'s locked exchange rate cannot be read: refund a DOGE amount, or use "rate": "now"');
  }
  if (rate.m <= 0n)
    throw new RefundConflictError('this payment\'s locked exchange rate is not positive: refund a DOGE amount, or use "rate": "now"');
  return { currency: p.fiatCurrency, rate, value: p.rateValue };
}

/**
 * What may still be refunded: amount_paid less the refunds that have not failed (declined ones
 * free their amount again). Never negative.
 */
export function refundable(amountPaid: bigint, nonFailedRefunds: bigint): bigint {
  const left = amountPaid - nonFailedRefunds;
  return left > 0n ? left : 0n;
}

/** The refund's amount in koinu for an ask, or a 409 when it would over-refund or nothing is left. */
export function refundAmount(asked: bigint | null, amountPaid: bigint, nonFailedRefunds: bigint): bigint {
  if (amountPaid <= 0n) throw new RefundConflictError('nothing has been paid to this payment, so there is nothing to refund');
  const left = refundable(amountPaid, nonFailedRefunds);
  if (asked === null) {
    if (left === 0n) throw new RefundConflictError(`the payment is already fully refunded (amount_paid ${formatKoinu(amountPaid)} DOGE)`);
    if (left < MIN_REFUND)
      throw new RefundConflictError(`only ${formatKoinu(left)} DOGE is left to refund, below the 0.01 DOGE dust limit`);
    return left;
  }
  if (asked > left) {
    throw new RefundConflictError(
      `a refund of ${formatKoinu(asked)} DOGE would exceed what was paid: amount_paid ${formatKoinu(amountPaid)}, already refunded or pending ${formatKoinu(nonFailedRefunds)}, refundable ${formatKoinu(left)}`,
    );
  }
  return asked;
}
