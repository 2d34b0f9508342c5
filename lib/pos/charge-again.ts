// "Charge again" on the till (docs/using-counter.md#the-till-pos, docs/using-counter.md#pricing-in-dollars-euros-fiat-pricing): an expired (or declined) sale becomes a new
// payment with the same lines. The request is built here, on the server, from the stored lines,
// so it does not depend on what the till that made the sale still remembers:
// - a sale priced in fiat is priced again from its fiat lines, exactly as they were priced, in
//   its currency: a new payment at the rate in force now, with that rate locked (no fresh rate
//   is 503 rate_unavailable, never a fallback to the old DOGE amounts);
// - a sale priced in DOGE gets its DOGE lines again.
import type { Db } from '../db';
import { formatFiatMinor, formatKoinu } from '../money';
import { hasFiatLines } from '../receipts';
import { salesScope, type SalesViewer, createPayment, type CreatePaymentContext, type CreatePaymentResult } from '../payments';
import { DomainError, InvalidRequestError } from '../errors';

/** A stored payment as far as charging it again reads it. */
export interface StoredSale {
  status: string;
  note: string;
  fiatTotal: string;
  fiatTax: string;
  fiatCurrency: string;
  rateValue: string;
  lines: {
    type: string;
    itemId: string;
    name: string;
    description: string;
    icon: string;
    count: number | null;
    unit: bigint | null;
    total: bigint | null;
    tax: bigint | null;
    fiatUnit: bigint | null;
    fiatTax: bigint | null;
  }[];
}

export class ChargeAgainError extends DomainError {
  constructor(code: 'not_found' | 'conflict', message: string) {
    super(code, message);
    this.name = 'ChargeAgainError';
  }
}

/**
 * The POST /api/v1/payments body that charges `sale` again under `orderReference`. A fiat-priced
 * sale made before fiat lines were stored cannot be priced again exactly: ChargeAgainError 409.
 */
export function chargeAgainRequest(sale: StoredSale, orderReference: string): Record<string, unknown> {
  if (sale.status === 'accepted' || sale.status === 'confirmed') {
    throw new ChargeAgainError('conflict', 'this sale is already paid: it cannot be charged again');
  }
  const fiat = hasFiatLines(sale.lines, sale.fiatCurrency, sale.rateValue);
  if (!fiat && sale.rateValue) {
    throw new ChargeAgainError(
      'conflict',
      `this sale was priced in ${sale.fiatCurrency} before its lines were kept in ${sale.fiatCurrency}: ring it up again`,
    );
  }
  const items = sale.lines.map((l) => {
    const it: Record<string, unknown> = { type: l.type, id: l.itemId, name: l.name };
    if (l.description) it.desc = l.description;
    if (l.icon) it.icon = l.icon;
    if (l.type === 'signing') return it;
    it.count = l.count ?? 1;
    if (fiat) {
      it.unit = formatFiatMinor(l.fiatUnit!, sale.fiatCurrency);
      if (l.fiatTax !== null && l.fiatTax !== 0n) it.tax = formatFiatMinor(l.fiatTax, sale.fiatCurrency);
    } else {
      it.unit = formatKoinu(l.unit ?? 0n);
      if (l.tax !== null && l.tax !== 0n) it.tax = formatKoinu(l.tax);
    }
    return it;
  });
  if (!items.some((i) => i.type !== 'signing')) throw new ChargeAgainError('conflict', 'the sale has no lines to charge again');
  const body: Record<string, unknown> = { items, order_reference: orderReference };
  if (sale.note) body.note = sale.note;
  if (fiat) body.currency = sale.fiatCurrency;
  else if (sale.fiatTotal && sale.fiatCurrency) {
    // a DOGE-priced sale whose vendor gave its fiat value: kept as it was
    body.fiat_total = sale.fiatTotal;
    body.fiat_currency = sale.fiatCurrency;
    if (sale.fiatTax) body.fiat_tax = sale.fiatTax;
  }
  return body;
}

/**
 * Charges payment `id` again (within the caller's sales: `ownSalesOf`), as a new payment created
 * like POST /api/v1/payments (same Idempotency-Key semantics, readiness, rate lock).
 * `rawBody` is `{ "order_reference": "<new reference>" }`.
 */
export async function chargeAgain(
  ctx: CreatePaymentContext & { ownSalesOf: string | null },
  id: string,
  rawBody: string,
): Promise<CreatePaymentResult> {
  let ref: unknown;
  try {
    ref = (JSON.parse(rawBody) as { order_reference?: unknown })?.order_reference;
  } catch {
    throw new InvalidRequestError('body', 'must be a JSON object { "order_reference": "…" }');
  }
  if (typeof ref !== 'string' || ref.length < 1 || ref.length > 64)
    throw new InvalidRequestError('order_reference', 'must be a string of 1 to 64 characters');
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new ChargeAgainError('not_found', 'no payment with this id');
  const sale = await loadSale(ctx.db, { storeId: ctx.storeId, ownSalesOf: ctx.ownSalesOf }, id);
  if (!sale) throw new ChargeAgainError('not_found', 'no payment with this id');
  return createPayment(ctx, JSON.stringify(chargeAgainRequest(sale, ref)));
}

async function loadSale(db: Db, v: SalesViewer, id: string): Promise<StoredSale | null> {
  return db.prisma.payment.findFirst({
    where: { id, ...salesScope(v) },
    select: {
      status: true,
      note: true,
      fiatTotal: true,
      fiatTax: true,
      fiatCurrency: true,
      rateValue: true,
      lines: {
        orderBy: { idx: 'asc' },
        select: {
          type: true,
          itemId: true,
          name: true,
          description: true,
          icon: true,
          count: true,
          unit: true,
          total: true,
          tax: true,
          fiatUnit: true,
          fiatTax: true,
        },
      },
    },
  });
}
