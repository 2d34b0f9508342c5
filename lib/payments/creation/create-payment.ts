// Starting a payment (POST /api/v1/payments): price the request, pick a receive address,
// build and sign the Connect Payment once, and store everything in one transaction.
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db';
import type { Network } from '../../doge';
import { signEnvelope } from '../../connect';
import { SCOPES, type Scope } from '../../auth';
import { priceRequest, isWalletUrl, type PricedOutput, type PricedRequest } from './request';
import { authorizePaymentRequest } from './authz';
import { countOpenPayments, DEFAULT_MAX_OPEN_PAYMENTS } from '../queries/open-payments';
import { TooManyOpenPaymentsError } from './errors';
import { StoreSuspendedError } from '../../errors';
import { buildConnectPayment } from './connect-payment';
import { readStoreSettings, type StoreSettings } from '../store-settings';
import { requiredConfirmations } from '../risk';
import { allocateReceiveAddress } from './receive-address';
import { activeRelayKey } from './relay-key';
import { vendorPaymentView, rfc3339 } from '../view';
import { insertPayment } from '../create';
import { convertFiatRequest, requestCurrency, DOGE, type FiatLine } from './fiat-request';
import { rateInForce, type RateInForce } from '../../rates';
import { idempotency, type Idempotency } from './idempotency';
import { resolveOptionLines, soldOptions, type SoldOption } from './options';
import { ticketOfRequest, withTicket } from './ticket';
import { inStore } from '../../stores';
import { paymentLineRows } from './line-rows';

/** What a stored line keeps beside its DOGE amounts: its fiat unit and tax, and the options it was sold with. */
interface LineExtras {
  fiat: FiatLine | null;
  options: SoldOption[] | null;
}

export { IdempotencyConflictError } from './idempotency';

export interface CreatePaymentContext {
  db: Db;
  /** The store the sale is made for: the principal's (lib/api/access.ts). */
  storeId: number;
  network: Network;
  publicUrl: string;
  apiKeyId?: string | null;
  userId?: string | null;
  idempotencyKey?: string | null;
  /** The credential's scopes, for the field-level checks (lib/payments/creation/authz). Default: all (trusted in-process callers). */
  scopes?: readonly Scope[];
  /** MAX_OPEN_PAYMENTS (default 5000): beyond it, TooManyOpenPaymentsError (429). */
  maxOpenPayments?: number;
  now?: Date;
  /**
   * Runs after an Idempotency-Key replay is ruled out and before anything is created: throws to
   * refuse a new payment (the till's readiness check; a replayed answer is never refused).
   */
  beforeCreate?: () => Promise<void>;
  /** The registered till the sale is made on (docs/counter.md), or null. */
  terminal?: { id: string; name: string } | null;
}

export interface CreatePaymentResult {
  status: number; // 201, or the replayed status
  body: Record<string, unknown>;
  replayed: boolean;
}

/** 128 random bits, base64url, never starting with '-' or '_' (safe as a CLI argument and in CSV cells). */
export function newPaymentId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (/^[A-Za-z0-9]/.test(id)) return id;
  }
}

export async function createPayment(ctx: CreatePaymentContext, rawBody: string): Promise<CreatePaymentResult> {
  const { db } = ctx;
  // The Idempotency-Key (./idempotency.ts), shared with the cash sale (lib/cash).
  const idem = idempotency(db, ctx, ctx.idempotencyKey, rawBody);
  const prior = await idem.replay();
  if (prior) return prior;
  // Validation (400), then who may ask for this (403), then readiness (503, sessions only),
  // then the open-payment cap (429), all before an address is handed out.
  const settings = await readStoreSettings(db, ctx.storeId);
  const { priced, rate, fiatLines, ticketId } = await priceAndAuthorize(ctx, rawBody, settings);
  if (settings.suspended) throw new StoreSuspendedError();
  // Readiness (the till's gate) after validation and authorisation: a request that is wrong or
  // forbidden is told so whatever the store's state.
  await ctx.beforeCreate?.();
  const maxOpen = ctx.maxOpenPayments ?? DEFAULT_MAX_OPEN_PAYMENTS;
  if ((await countOpenPayments(db, ctx.storeId, maxOpen, ctx.now ?? new Date())) >= maxOpen) throw new TooManyOpenPaymentsError(maxOpen);
  const key = await activeRelayKey(db, ctx.storeId);
  const { address, addressIndex, outputs } = await receiveOutputs(ctx, priced);

  const id = newPaymentId();
  const issuedAt = new Date(Math.floor((ctx.now ?? new Date()).getTime() / 1000) * 1000);
  const timeout = priced.request.timeout ?? settings.timeoutSec;
  const signed = signedPayment(ctx, { id, issuedAt, timeout, settings, priced, outputs }, key.secretKey);
  const row = { ...paymentRow(ctx, { id, issuedAt, timeout, settings, priced, address, addressIndex, rate, signed }), ticketId };
  const response = creationAnswer(ctx, row, issuedAt);
  try {
    await storePayment(db, row, { priced, outputs, fiatLines }, idem, response);
  } catch (err) {
    // A concurrent request with the same Idempotency-Key won the race: answer as it did.
    const won = await idem.replay();
    if (won) return won;
    throw err;
  }
  return { status: 201, body: response, replayed: false };
}

/**
 * The request checked and priced in koinu, then authorised field by field. A fiat-priced request
 * (docs/api.md#exchange-rates) is converted at the rate in force, locked here, and then priced
 * like any DOGE request; no fresh rate is 503 rate_unavailable.
 */
async function priceAndAuthorize(ctx: CreatePaymentContext, rawBody: string, settings: StoreSettings) {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    body = undefined;
  }
  const currency = requestCurrency(body, settings.pricingCurrency);
  // A sale charged from an open ticket carries its name (docs/counter.md#open-tickets).
  const ticket = await ticketOfRequest(ctx.db, ctx.storeId, body);
  body = withTicket(body, ticket);
  // Lines sold with options are priced from the catalog first (docs/catalog.md#options).
  const resolved = await resolveOptionLines(ctx.db, ctx.storeId, body, currency);
  body = resolved.body;
  let rate: RateInForce | null = null;
  let fiatLines: (FiatLine | null)[] = [];
  if (currency !== DOGE) {
    // Validate the request before asking for a rate: a bad request is 400 whatever the rates.
    convertFiatRequest(body, currency, { m: 10n ** 30n, s: 0 }); // shape only: a rate so large nothing overflows
    rate = await rateInForce(ctx.db, currency, { now: ctx.now });
    const converted = convertFiatRequest(body, currency, rate.decimal);
    body = converted.body;
    fiatLines = converted.lines;
  }
  const priced = priceRequest(body, ctx.network, { allowHttpUrls: allowsHttp(ctx) });
  authorizePaymentRequest(priced, settings, ctx.scopes ?? SCOPES);
  const sold = soldOptions(resolved.chosen, currency, rate?.decimal ?? null);
  return {
    priced,
    rate,
    ticketId: ticket?.id ?? null,
    fiatLines: priced.lines.map((_, i): LineExtras => ({ fiat: fiatLines[i] ?? null, options: sold[i] ?? null })),
  };
}

/** A development server on http:// may sign http:// URLs; a public one only https://. */
function allowsHttp(ctx: CreatePaymentContext): boolean {
  return ctx.publicUrl.startsWith('http://');
}

/** The outputs to pay: the vendor's own p2pkh output, or a fresh receive address of the store's first. */
async function receiveOutputs(ctx: CreatePaymentContext, priced: PricedRequest) {
  const outputs: PricedOutput[] = [...priced.outputs];
  if (priced.hasOwnP2pkh) return { address: outputs.find((o) => o.type === 'p2pkh')!.address!, addressIndex: null, outputs };
  const a = await allocateReceiveAddress(ctx.db, ctx.storeId, ctx.network);
  outputs.unshift({ type: 'p2pkh', address: a.address, amount: priced.total, data: null });
  return { address: a.address, addressIndex: a.index as number | null, outputs };
}

interface Issued {
  id: string;
  issuedAt: Date;
  timeout: number;
  settings: StoreSettings;
  priced: PricedRequest;
}

/** The Connect Payment, built and signed once with the relay key: /dc/<id> serves these bytes. */
function signedPayment(ctx: CreatePaymentContext, p: Issued & { outputs: PricedOutput[] }, secretKey: Uint8Array) {
  const { settings, priced } = p;
  const req = priced.request;
  const allowHttp = allowsHttp(ctx);
  const payment = buildConnectPayment({
    id: p.id,
    issued: rfc3339(p.issuedAt),
    timeout: p.timeout,
    relay: `${ctx.publicUrl}/relay`,
    feePerKb: settings.feePerKb,
    maxSize: settings.maxSize,
    // The store's icon and URL are signed only when a wallet may follow them (https://, or
    // http:// in development): an emoji or image data icon stays in the back office.
    vendor: {
      name: settings.name,
      address: settings.address,
      icon: isWalletUrl(settings.icon, allowHttp) ? settings.icon : '',
      url: isWalletUrl(settings.url, allowHttp) ? settings.url : '',
    },
    order: {
      vendorOrderUrl: req.vendor_order_url ?? '',
      vendorOrderId: req.vendor_order_id ?? '',
      orderReference: req.order_reference ?? '',
      note: req.note ?? '',
    },
    total: priced.total,
    fees: priced.fees,
    taxes: priced.taxes,
    fiat: { total: req.fiat_total ?? '', tax: req.fiat_tax ?? '', currency: req.fiat_currency ?? '' },
    lines: priced.lines,
    outputs: p.outputs,
    meta: req.meta ?? {},
  });
  return signEnvelope(payment, secretKey);
}

/** The payment row's columns (lines and outputs are stored beside it). */
function paymentRow(
  ctx: CreatePaymentContext,
  p: Issued & {
    address: string;
    addressIndex: number | null;
    rate: RateInForce | null;
    signed: ReturnType<typeof signEnvelope>;
  },
) {
  const { settings, priced, signed, rate } = p;
  const req = priced.request;
  return {
    id: p.id,
    storeId: inStore(ctx.storeId).storeId,
    total: priced.total,
    fees: priced.fees,
    taxes: priced.taxes,
    quantity: priced.quantity,
    address: p.address,
    addressIndex: p.addressIndex,
    vendorOrderId: req.vendor_order_id ?? '',
    orderReference: req.order_reference ?? '',
    note: req.note ?? '',
    vendorOrderUrl: req.vendor_order_url ?? '',
    fiatTotal: req.fiat_total ?? '',
    fiatTax: req.fiat_tax ?? '',
    fiatCurrency: req.fiat_currency ?? '',
    rateValue: rate?.value ?? '',
    rateSource: rate?.source ?? '',
    rateAt: rate?.at ?? null,
    mintHash: (req.mint_hash ?? '').toLowerCase(),
    pendingTokenBalanceId: req.pending_token_balance_id ?? '',
    meta: req.meta ?? {},
    timeoutSec: p.timeout,
    feePerKb: settings.feePerKb,
    maxSize: settings.maxSize,
    requiredConfirmations: requiredConfirmations(priced.total, settings, req.required_confirmations),
    issuedAt: p.issuedAt,
    expiresAt: new Date(p.issuedAt.getTime() + p.timeout * 1000),
    envelope: JSON.stringify(signed.envelope),
    payloadHash: createHash('sha256').update(signed.payloadBytes).digest('hex'),
    pubkey: signed.envelope.pubkey,
    signature: signed.envelope.sig,
    relayToken: '', // no token is issued; the column stays for older rows
    apiKeyId: ctx.apiKeyId ?? null,
    createdBy: ctx.userId ?? null,
    createdAt: p.issuedAt,
    terminalId: ctx.terminal?.id ?? null,
    terminal: ctx.terminal?.name ?? null,
  };
}

/** The 201 answer: the vendor view of the new, unpaid payment. */
function creationAnswer(ctx: CreatePaymentContext, row: ReturnType<typeof paymentRow>, issuedAt: Date): Record<string, unknown> {
  const created = {
    ...row,
    status: 'unpaid',
    exception: null,
    txid: null,
    confirmations: 0,
    confirmedAt: null,
    reason: '',
    refundAddress: '',
    blockHeight: null,
  };
  const full = vendorPaymentView(created, ctx.publicUrl, issuedAt);
  return {
    id: full.id,
    status: full.status,
    total: full.total,
    uri: full.uri,
    connect_uri: full.connect_uri,
    fiat_total: full.fiat_total,
    fiat_tax: full.fiat_tax,
    fiat_currency: full.fiat_currency,
    rate: full.rate,
    envelope_url: full.envelope_url,
    checkout_url: full.checkout_url,
    relay: full.relay,
    issued: full.issued,
    expires_at: full.expires_at,
    payment: full.payment,
    terminal: full.terminal,
    tender: full.tender,
    cash_received: full.cash_received,
    change: full.change,
  };
}

/** The row, its lines and outputs, and the Idempotency-Key's answer, in one transaction. */
async function storePayment(
  db: Db,
  row: ReturnType<typeof paymentRow>,
  p: { priced: PricedRequest; outputs: PricedOutput[]; fiatLines: LineExtras[] },
  idem: Idempotency,
  response: Record<string, unknown>,
): Promise<void> {
  const { priced, outputs, fiatLines } = p;
  await db.prisma.$transaction(async (tx) => {
    await insertPayment(tx, {
      ...row,
      lines: {
        create: paymentLineRows(row.storeId, priced.lines, (idx) => ({
          fiatUnit: fiatLines[idx]?.fiat?.unit ?? null,
          fiatTax: fiatLines[idx]?.fiat?.tax ?? null,
          options: fiatLines[idx]?.options ?? null,
        })),
      },
      outputs: {
        create: outputs.map((o, idx) => ({ storeId: row.storeId, idx, type: o.type, address: o.address, amount: o.amount, data: o.data })),
      },
    });
    await idem.save(tx, 201, response);
  });
}
