// A cash sale (docs/counter.md#cash): POST /api/v1/payments with `"tender": "cash"` and
// `"cash_received"`. The lines are priced in the store's fiat pricing currency and converted at
// the rate in force, locked into the sale, exactly as a fiat-priced Dogecoin sale is (so its DOGE
// `total` counts in every report); the change is computed in the currency's minor units. The
// sale is recorded paid at once through lib/payments (table row cash.received), with its
// payment.confirmed event in the same transaction. It gets no address, envelope or relay
// state: wallets never see it (/dc and /relay answer 404).
import { z } from 'zod';
import type { Db } from '../db';
import type { Network } from '../doge';
import {
  convertFiatRequest,
  DOGE,
  idempotency,
  resolveOptionLines,
  soldOptions,
  ticketOfRequest,
  withTicket,
  insertCashSale,
  newPaymentId,
  paymentLineRows,
  priceRequest,
  readStoreSettings,
  vendorPaymentView,
} from '../payments';
import { InvalidRequestError, StoreSuspendedError, fromZod } from '../errors';
import { rateInForce } from '../rates';
import { CashAmountError, cashChange } from './change';

export interface CashSaleContext {
  db: Db;
  /** The store the sale is made for: the principal's (lib/api/access.ts). */
  storeId: number;
  network: Network;
  publicUrl: string;
  apiKeyId?: string | null;
  userId?: string | null;
  idempotencyKey?: string | null;
  now?: Date;
  terminal?: { id: string; name: string } | null;
}

/** The cash fields; the rest of the body is an ordinary fiat-priced request. */
const CashFields = z.object({
  tender: z.literal('cash'),
  cash_received: z.string({ message: 'is required: the cash handed over, in the pricing currency ("20.00")' }).max(40, 'too long'),
});

/** Fields of a Dogecoin payment that mean nothing for cash: refused, not ignored. */
const NOT_FOR_CASH = ['outputs', 'timeout', 'required_confirmations', 'mint_hash', 'pending_token_balance_id'] as const;

/** The request's tender: "doge" when absent. Anything but "doge" or "cash" is 400 naming `tender`. */
export function tenderOf(rawBody: string): 'doge' | 'cash' {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return 'doge'; // the ordinary path answers the malformed body
  }
  const t = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).tender : undefined;
  if (t === undefined || t === 'doge') return 'doge';
  if (t === 'cash') return 'cash';
  throw new InvalidRequestError('tender', 'must be "doge" or "cash"');
}

/** Validates and prices a cash sale, then records it paid. 201 with the payment body (tender, cash_received, change). */
export async function createCashSale(
  ctx: CashSaleContext,
  rawBody: string,
): Promise<{ status: number; body: Record<string, unknown>; replayed: boolean }> {
  const { db } = ctx;
  const idem = idempotency(db, ctx, ctx.idempotencyKey, rawBody);
  const prior = await idem.replay();
  if (prior) return prior;

  const body = JSON.parse(rawBody) as Record<string, unknown>;
  const cash = CashFields.safeParse({ tender: body.tender, cash_received: body.cash_received });
  if (!cash.success) throw fromZod(cash.error);
  for (const f of NOT_FOR_CASH) if (body[f] !== undefined) throw new InvalidRequestError(f, 'is not used by a cash sale: leave it out');

  const settings = await readStoreSettings(db, ctx.storeId);
  if (settings.suspended) throw new StoreSuspendedError();
  if (settings.pricingCurrency === DOGE) {
    throw new InvalidRequestError('tender', 'cash is taken only when the store prices in a fiat currency (setting pricing_currency)');
  }
  if (!settings.cashEnabled) throw new InvalidRequestError('tender', 'this store has turned cash off (setting cash_enabled)');
  const currency = settings.pricingCurrency;
  if (body.currency !== undefined && body.currency !== currency) {
    throw new InvalidRequestError('currency', `a cash sale is priced in the store's currency: send "${currency}" or leave it out`);
  }
  const { tender: _t, cash_received: _c, ...rest } = body;
  // A sale from an open ticket carries its name (docs/counter.md#open-tickets); lines sold with
  // options are priced from the catalog first (docs/catalog.md#options).
  const ticket = await ticketOfRequest(db, ctx.storeId, rest);
  const resolved = await resolveOptionLines(
    db,
    ctx.storeId,
    { ...(withTicket(rest, ticket) as Record<string, unknown>), currency },
    currency,
  );
  const request = resolved.body as Record<string, unknown>;

  // Shape and sums first (a bad request is 400 whatever the rates), then the change, then the rate.
  const shape = convertFiatRequest(request, currency, { m: 10n ** 30n, s: 0 });
  let change;
  try {
    change = cashChange(shape.fiat.totalMinor, cash.data.cash_received, currency);
  } catch (e) {
    if (e instanceof CashAmountError) throw new InvalidRequestError(e.field, e.message.slice(e.field.length + 2));
    throw e;
  }
  const now = ctx.now ?? new Date();
  const rate = await rateInForce(db, currency, { now });
  const converted = convertFiatRequest(request, currency, rate.decimal);
  const priced = priceRequest(converted.body, ctx.network, { allowHttpUrls: ctx.publicUrl.startsWith('http://') });
  const req = priced.request;
  const sold = soldOptions(resolved.chosen, currency, rate.decimal);

  const id = newPaymentId();
  // Not floored to the second as a signed payment's `issued` is: nothing is signed, and the
  // shift's drawer (shift.ts) compares it with the instant of the last Close shift.
  const issuedAt = now;
  const data = {
    id,
    storeId: ctx.storeId,
    ticketId: ticket?.id ?? null,
    tender: 'cash',
    cashReceived: change.received,
    cashChange: change.change,
    total: priced.total,
    fees: priced.fees,
    taxes: priced.taxes,
    quantity: priced.quantity,
    // No address, envelope or signature: nothing for a wallet to pay or a relay to serve.
    address: '',
    addressIndex: null,
    envelope: '',
    payloadHash: '',
    pubkey: '',
    signature: '',
    relayToken: '',
    vendorOrderId: req.vendor_order_id ?? '',
    orderReference: req.order_reference ?? '',
    note: req.note ?? '',
    vendorOrderUrl: req.vendor_order_url ?? '',
    fiatTotal: converted.fiat.total,
    fiatTax: converted.fiat.tax,
    fiatCurrency: currency,
    rateValue: rate.value,
    rateSource: rate.source,
    rateAt: rate.at,
    meta: req.meta ?? {},
    timeoutSec: 0,
    feePerKb: settings.feePerKb,
    maxSize: settings.maxSize,
    requiredConfirmations: 0,
    issuedAt,
    expiresAt: issuedAt,
    apiKeyId: ctx.apiKeyId ?? null,
    createdBy: ctx.userId ?? null,
    createdAt: issuedAt,
    terminalId: ctx.terminal?.id ?? null,
    terminal: ctx.terminal?.name ?? null,
    lines: {
      create: paymentLineRows(ctx.storeId, priced.lines, (idx) => ({
        fiatUnit: converted.lines[idx]?.unit ?? null,
        fiatTax: converted.lines[idx]?.tax ?? null,
        options: sold[idx] ?? null,
      })),
    },
  };
  try {
    const response = await db.prisma.$transaction(async (tx) => {
      const row = await insertCashSale(tx, data, ctx.publicUrl, now);
      const view = vendorPaymentView(row, ctx.publicUrl, now);
      await idem.save(tx, 201, view);
      return view;
    });
    return { status: 201, body: response, replayed: false };
  } catch (err) {
    // A concurrent request with the same Idempotency-Key won the race: answer as it did.
    const raced = await idem.replay();
    if (raced) return raced;
    throw err;
  }
}
