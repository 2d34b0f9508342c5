// How a stored payment is shown: to the vendor (GET /api/v1/payments/<id>, webhooks) and to
// wallets (the Payment Status, docs/protocol.md#the-relay-pay-and-status). Pure functions of the row and the clock.
import { formatKoinu } from '../money';
import { buildConnectUri, buildDogecoinUri } from '../connect';
import { amountDue, expiredField } from './predicates';

export interface PaymentRow {
  id: string;
  status: string;
  exception: string | null;
  total: bigint;
  address: string;
  issuedAt: Date;
  expiresAt: Date;
  envelope: string;
  pubkey: string;
  txid: string | null;
  requiredConfirmations: number;
  confirmations: number;
  confirmedAt: Date | null;
  reason: string;
  refundAddress: string;
  blockHeight: number | null;
  createdAt: Date;
  /** docs/api.md#payments-from-any-wallet: the sum paid to the address over every tx, and those txs in the order seen. */
  amountPaid?: bigint;
  paidTxids?: string[];
  /** The merchant's decision (POST /api/v1/payments/<id>/mark). */
  decisionAs?: string | null;
  decisionNote?: string;
  decidedBy?: string | null;
  decidedAt?: Date | null;
  /** The rate a fiat-priced payment was converted at (docs/api.md#exchange-rates); '' when DOGE-priced. */
  rateValue?: string;
  rateSource?: string;
  rateAt?: Date | null;
  /** Its refunds (docs/api.md#refunds), when the caller loaded them (lib/refunds/load.ts); shown as none otherwise. */
  refunds?: RefundRow[];
  /** The registered till's name at the time of the sale (docs/counter.md); null when none. */
  terminal?: string | null;
  /** docs/counter.md#cash: 'doge' (the default) or 'cash'; a cash sale's cash received and change, fiat fixed form. */
  tender?: string;
  cashReceived?: string;
  cashChange?: string;
  /** The row's fiat columns: a cash sale has no signed payment to read them from. */
  fiatTotal?: string;
  fiatTax?: string;
  fiatCurrency?: string;
}

/** A refund: a payment row paying the customer, pointing at the payment it refunds (docs/api.md#refunds). */
export interface RefundRow {
  id: string;
  refundOf: string | null;
  status: string;
  total: bigint;
  address: string;
  pubkey: string;
  refundReason: string;
  createdAt: Date;
  /** What the txs that pay it (lib/payments/refund-match.ts) sent, and those txs; shown as none when not loaded. */
  amountPaid?: bigint;
  paidTxids?: string[];
  txid?: string | null;
  /** 'cash' for a cash refund (docs/counter.md#cash-refunds): the cash handed back, in fiatTotal. */
  tender?: string;
  fiatTotal?: string;
  fiatCurrency?: string;
}

export const rfc3339 = (d: Date) => d.toISOString();

export function decodeSignedPayment(envelopeJson: string): unknown {
  const env = JSON.parse(envelopeJson) as { payload: string };
  return JSON.parse(Buffer.from(env.payload, 'base64').toString('utf8'));
}

export function links(publicUrl: string, row: Pick<PaymentRow, 'id' | 'address' | 'total' | 'pubkey'>) {
  const envelopeUrl = `${publicUrl}/dc/${row.id}`;
  return {
    uri: buildDogecoinUri({ address: row.address, amount: formatKoinu(row.total), envelopeUrl, pubkey: row.pubkey }),
    connect_uri: buildConnectUri({ envelopeUrl, pubkey: row.pubkey }),
    envelope_url: envelopeUrl,
    relay: `${publicUrl}/relay`,
  };
}

/** The customer's own page for a payment (docs/using-counter.md, "The customer's checkout page"). */
export const checkoutUrl = (publicUrl: string, id: string) => `${publicUrl}/checkout/${id}`;

export const dueSec = (required: number, confirmed: number) => Math.max(required - confirmed, 0) * 60;

/** The spec's Payment Status for wallets (/pay, /status). */
export function paymentStatus(
  row: Pick<PaymentRow, 'id' | 'status' | 'txid' | 'requiredConfirmations' | 'confirmations' | 'confirmedAt' | 'reason'>,
): Record<string, unknown> {
  switch (row.status) {
    case 'accepted':
    case 'confirmed': {
      const s: Record<string, unknown> = {
        id: row.id,
        status: row.status,
        txid: row.txid,
        required: row.requiredConfirmations,
        confirmed: row.confirmations,
        due_sec: dueSec(row.requiredConfirmations, row.confirmations),
      };
      if (row.status === 'confirmed' && row.confirmedAt) s.confirmed_at = rfc3339(row.confirmedAt);
      return s;
    }
    case 'declined':
      return { id: row.id, status: 'declined', reason: row.reason || 'declined' };
    default:
      return { id: row.id, status: 'unpaid' };
  }
}

/** amount_paid, amount_due and txids (docs/api.md#payments-from-any-wallet): txid stays the first one. */
export function amountFields(row: Pick<PaymentRow, 'total' | 'amountPaid' | 'paidTxids' | 'txid'>) {
  const paid = row.amountPaid ?? 0n;
  const due = amountDue(row);
  const txids = row.paidTxids?.length ? row.paidTxids : row.txid && paid > 0n ? [row.txid] : [];
  return { amount_paid: formatKoinu(paid), amount_due: formatKoinu(due), txids };
}

/** The locked rate of a fiat-priced payment (docs/api.md#exchange-rates), or null when it was priced in DOGE. */
export function rateView(
  row: Pick<PaymentRow, 'rateValue' | 'rateSource' | 'rateAt'>,
  fiatCurrency: string,
): Record<string, string> | null {
  if (!row.rateValue || !fiatCurrency) return null;
  return { pair: `DOGE/${fiatCurrency}`, value: row.rateValue, source: row.rateSource ?? '', at: row.rateAt ? rfc3339(row.rateAt) : '' };
}

/** The signed fiat fields, top level: exactly as priced (fiat pricing) or as the vendor sent them; "" when none. */
function fiatFields(payment: unknown) {
  const p = (payment ?? {}) as { fiat_total?: unknown; fiat_tax?: unknown; fiat_currency?: unknown };
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return { fiat_total: str(p.fiat_total), fiat_tax: str(p.fiat_tax), fiat_currency: str(p.fiat_currency) };
}

/** A refund as POST /api/v1/payments/<id>/refunds answers it (docs/api.md#refunds), with its current status. */
export interface RefundView {
  id: string;
  payment_id: string | null;
  status: string;
  amount: string;
  address: string | null;
  uri: string | null;
  connect_uri: string | null;
  envelope_url: string | null;
  created_at: string;
  reason: string;
  /** Like a payment's (docs/api.md): the sum the txs that pay this refund sent, and those txs. */
  amount_paid: string;
  txids: string[];
  /** How it was paid back: 'doge' by the merchant's wallet, or 'cash' at the counter, with the cash handed back. */
  tender: 'doge' | 'cash';
  fiat_amount: string | null;
  fiat_currency: string | null;
}

export function refundView(r: RefundRow, publicUrl: string): RefundView {
  // A cash refund has no address, envelope or wallet link: the cash was handed back at the counter.
  const cash = r.tender === 'cash';
  const l = cash ? NO_LINKS : links(publicUrl, r);
  return {
    id: r.id,
    payment_id: r.refundOf,
    status: r.status,
    amount: formatKoinu(r.total),
    address: cash ? null : r.address,
    uri: l.uri,
    connect_uri: l.connect_uri,
    envelope_url: l.envelope_url,
    created_at: rfc3339(r.createdAt),
    reason: r.refundReason,
    tender: cash ? 'cash' : 'doge',
    fiat_amount: r.fiatTotal || null,
    fiat_currency: r.fiatCurrency || null,
    amount_paid: formatKoinu(r.amountPaid ?? 0n),
    txids: amountFields({ ...r, txid: r.txid ?? null }).txids,
  };
}

/** The sum of the refunds paid: accepted or confirmed (docs/api.md#refunds amount_refunded). */
export function amountRefunded(refunds: readonly Pick<RefundRow, 'status' | 'total'>[]): bigint {
  return refunds.reduce((s, r) => (r.status === 'accepted' || r.status === 'confirmed' ? s + r.total : s), 0n);
}

/** Whether a payment is a cash sale (docs/counter.md#cash): no address, envelope or wallet-facing state. */
export const isCashSale = (row: Pick<PaymentRow, 'tender'>) => row.tender === 'cash';

/**
 * tender, cash_received and change (docs/counter.md#cash): every payment says how it was paid;
 * the cash amounts are the fiat currency's fixed form ("20.00"), null for a Dogecoin payment.
 */
export function tenderFields(row: Pick<PaymentRow, 'tender' | 'cashReceived' | 'cashChange'>) {
  const cash = isCashSale(row);
  return {
    tender: cash ? 'cash' : 'doge',
    cash_received: cash ? (row.cashReceived ?? '') : null,
    change: cash ? (row.cashChange ?? '') : null,
  };
}

const NO_LINKS = { uri: null, connect_uri: null, envelope_url: null, relay: null };

/** The vendor API's payment body: the 201 body plus lifecycle fields (docs/api.md). */
export function vendorPaymentView(row: PaymentRow, publicUrl: string, now: Date) {
  // A cash sale signed nothing: no Connect Payment, no wallet links, no checkout page; its fiat
  // amounts are the row's own.
  const cash = isCashSale(row);
  const payment = cash ? null : decodeSignedPayment(row.envelope);
  const fiat = cash
    ? { fiat_total: row.fiatTotal ?? '', fiat_tax: row.fiatTax ?? '', fiat_currency: row.fiatCurrency ?? '' }
    : fiatFields(payment);
  return {
    id: row.id,
    status: row.status,
    total: formatKoinu(row.total),
    ...fiat,
    rate: rateView(row, fiat.fiat_currency),
    ...(cash ? NO_LINKS : links(publicUrl, row)),
    checkout_url: cash ? null : checkoutUrl(publicUrl, row.id),
    ...tenderFields(row),
    issued: rfc3339(row.issuedAt),
    expires_at: rfc3339(row.expiresAt),
    payment,
    txid: row.txid ?? null,
    required: row.requiredConfirmations,
    confirmed: row.confirmations,
    due_sec: dueSec(row.requiredConfirmations, row.confirmations),
    confirmed_at: row.confirmedAt ? rfc3339(row.confirmedAt) : null,
    reason: row.reason || null,
    refund_address: row.refundAddress || null,
    block_height: row.blockHeight ?? null,
    expired: expiredField(row, now),
    exception: row.exception ?? null,
    // A cash sale was paid in full at the counter: nothing is due, and no DOGE was paid.
    ...(cash ? { ...amountFields(row), amount_due: '0' } : amountFields(row)),
    amount_refunded: formatKoinu(amountRefunded(row.refunds ?? [])),
    refunds: (row.refunds ?? []).map((r) => refundView(r, publicUrl)),
    decision: row.decisionAs
      ? { as: row.decisionAs, note: row.decisionNote ?? '', by: row.decidedBy ?? null, at: row.decidedAt ? rfc3339(row.decidedAt) : null }
      : null,
    created_at: rfc3339(row.createdAt),
    terminal: row.terminal ?? null,
  };
}
