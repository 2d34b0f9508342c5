// Creating a refund (docs/api.md#refunds): an outgoing payment request, signed by the relay key, with
// one item line "Refund of <payment id>" and one p2pkh output to the customer, which the
// merchant's own wallet pays through Counter's relay (Counter holds no keys).
//
// A refund is stored as a row of `payment` with `refund_of` set (and a negative seq, see the
// migration 20261124084000_refunds), so /dc/<id>, /relay/pay, /relay/status, the chain worker
// and the state machine serve it like any payment. It is created inside one transaction that
// first locks the refunded payment's row (SELECT … FOR UPDATE): concurrent refunds of one
// payment are serialised, and together never exceed amount_paid.
import { createHash } from 'node:crypto';
import { inStore } from '../stores';
import type { Db } from '../db';
import type { Network } from '../doge';
import { signEnvelope } from '../connect';
import { rateCurrency, rateInForce } from '../rates';
import {
  buildConnectPayment,
  readStoreSettings,
  requiredConfirmations,
  activeRelayKey,
  isWalletUrl,
  refundView,
  rfc3339,
  insertPaymentWithEvent,
  type RefundView,
} from '../payments';
import { InvalidRequestError, DomainError } from '../errors';
import { returnSaleStock } from '../stock';
import { newRefundId, REFUND_SEQ_OFFSET } from './ids';
import { createCashRefund } from './cash-refund';
import { fiatRefundKoinu, lockedRate, parseRefundRequest, refundAddress, refundAmount, RefundConflictError } from './request';

/** How long the merchant's wallet has to pay a refund through /relay/pay (a plain payment still counts after). */
export const REFUND_TIMEOUT_SEC = 7 * 24 * 3600;

export class RefundNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'no payment with this id');
    this.name = 'RefundNotFoundError';
  }
}

export interface CreateRefundContext {
  db: Db;
  /** The caller's store: another store's payment is not found. */
  storeId: number;
  network: Network;
  publicUrl: string;
  apiKeyId?: string | null;
  userId?: string | null;
  /** A cashier's user id (only its own sales), or null. */
  ownSalesOf?: string | null;
  now?: Date;
}

interface Locked {
  id: string;
  amount_paid: string;
  refund_address: string;
  fiat_currency: string;
  rate_value: string;
  created_by: string | null;
}

type RefundRequest = ReturnType<typeof parseRefundRequest>;

interface RefundFiat {
  amount: string;
  currency: string;
  rate: string;
  source: string;
  at: Date | null;
}

interface RefundParent {
  id: string;
  refundAddress: string;
  fiatCurrency: string;
  rateValue: string;
}

/** The refunded payment (a cashier's own sales only), with how it was paid. */
async function refundParent(ctx: CreateRefundContext, paymentId: string) {
  const parent = await ctx.db.prisma.payment.findFirst({
    where: { id: paymentId, ...inStore(ctx.storeId), refundOf: null, ...(ctx.ownSalesOf ? { createdBy: ctx.ownSalesOf } : {}) },
    select: { id: true, refundAddress: true, fiatCurrency: true, rateValue: true, tender: true },
  });
  if (!parent) throw new RefundNotFoundError();
  return parent;
}

/** The customer's address, which must not be one of the store's own. */
async function refundTo(ctx: CreateRefundContext, parent: RefundParent, req: RefundRequest): Promise<string> {
  const address = refundAddress(req.address, parent.refundAddress, ctx.network);
  const own = await ctx.db.prisma.walletAddress.findFirst({ where: { address, ...inStore(ctx.storeId) }, select: { address: true } });
  if (own) throw new InvalidRequestError('address', "is one of the store's own receiving addresses, not the customer's");
  return address;
}

/** The koinu asked for (null: all that is left) and, for a fiat ask, its fiat amount and the rate used (the sale's locked one, or today's). */
async function priceRefund(
  db: Db,
  storeId: number,
  req: RefundRequest,
  parent: RefundParent,
  now: Date,
): Promise<{ asked: bigint | null; fiat: RefundFiat | null }> {
  if (req.ask.kind === 'doge') return { asked: req.ask.koinu, fiat: null };
  if (req.ask.kind !== 'fiat') return { asked: null, fiat: null };
  if (req.ask.rate === 'then') {
    const r = lockedRate(parent);
    const c = fiatRefundKoinu(req.ask.text, r.currency, r.rate);
    return { asked: c.koinu, fiat: { amount: c.fiat, currency: r.currency, rate: r.value, source: 'locked', at: null } };
  }
  const currency = parent.fiatCurrency || (await rateCurrency(db, storeId));
  const r = await rateInForce(db, currency, { now });
  const c = fiatRefundKoinu(req.ask.text, currency, r.decimal);
  return { asked: c.koinu, fiat: { amount: c.fiat, currency, rate: r.value, source: r.source, at: r.at } };
}

type Tx = Parameters<Parameters<Db['prisma']['$transaction']>[0]>[0];

/** Locks the refunded payment's row and returns how much this refund pays (what is asked, within what is left). */
async function lockedRefundAmount(t: Tx, paymentId: string, asked: bigint | null): Promise<bigint> {
  const locked = (
    await t.$queryRawUnsafe<Locked[]>(
      `SELECT id, amount_paid::text AS amount_paid, refund_address, fiat_currency, rate_value, created_by FROM payment WHERE id = $1 AND refund_of IS NULL FOR UPDATE`,
      paymentId,
    )
  )[0];
  if (!locked) throw new RefundNotFoundError();
  const sums = await t.$queryRawUnsafe<{ s: string | null }[]>(
    `SELECT COALESCE(sum(total), 0)::text AS s FROM payment WHERE refund_of = $1 AND status <> 'declined'`,
    paymentId,
  );
  return refundAmount(asked, BigInt(locked.amount_paid), BigInt(sums[0]?.s ?? '0'));
}

/** Validates, prices, and stores the refund of payment `paymentId`; returns the 201 body. Throws InvalidRequestError (400), RefundNotFoundError (404), RefundConflictError (409), RateUnavailableError (503). */
export async function createRefund(ctx: CreateRefundContext, paymentId: string, body: unknown): Promise<RefundView> {
  const { db } = ctx;
  const req = parseRefundRequest(body);
  const now = ctx.now ?? new Date();
  // Outside the transaction: what does not depend on the amounts already refunded.
  const parent = await refundParent(ctx, paymentId);
  // A cash sale is refunded in cash at the counter (docs/counter.md#cash-refunds).
  if (parent.tender === 'cash') return createCashRefund(ctx, parent, req);
  const address = await refundTo(ctx, parent, req);
  const { asked, fiat } = await priceRefund(db, ctx.storeId, req, parent, now);
  const settings = await readStoreSettings(db, ctx.storeId);
  const key = await activeRelayKey(db, ctx.storeId);
  const allowHttp = ctx.publicUrl.startsWith('http://');

  return db.prisma.$transaction(async (t) => {
    const amount = await lockedRefundAmount(t, paymentId, asked);
    const seqRows = await t.$queryRawUnsafe<{ n: string }[]>(`SELECT nextval(pg_get_serial_sequence('payment', 'seq'))::text AS n`);
    const seq = BigInt(seqRows[0]!.n) - REFUND_SEQ_OFFSET;
    const id = newRefundId();
    const issuedAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
    const expiresAt = new Date(issuedAt.getTime() + REFUND_TIMEOUT_SEC * 1000);
    const line = {
      type: 'item' as const,
      id: 'refund',
      name: `Refund of ${paymentId}`,
      desc: req.reason,
      icon: '',
      count: 1,
      unit: amount,
      total: amount,
      tax: null,
    };
    const output = { type: 'p2pkh' as const, address, amount, data: null };
    const payment = buildConnectPayment({
      id,
      issued: rfc3339(issuedAt),
      timeout: REFUND_TIMEOUT_SEC,
      relay: `${ctx.publicUrl}/relay`,
      feePerKb: settings.feePerKb,
      maxSize: settings.maxSize,
      vendor: {
        name: settings.name,
        address: settings.address,
        icon: isWalletUrl(settings.icon, allowHttp) ? settings.icon : '',
        url: isWalletUrl(settings.url, allowHttp) ? settings.url : '',
      },
      order: { vendorOrderUrl: '', vendorOrderId: '', orderReference: '', note: `Refund of ${paymentId}` },
      total: amount,
      fees: 0n,
      taxes: 0n,
      fiat: { total: fiat?.amount ?? '', tax: '', currency: fiat?.currency ?? '' },
      lines: [line],
      outputs: [output],
      meta: {},
    });
    const signed = signEnvelope(payment, key.secretKey);
    const row = await insertPaymentWithEvent(
      t,
      {
        id,
        storeId: ctx.storeId,
        seq,
        refundOf: paymentId,
        refundReason: req.reason,
        total: amount,
        quantity: 1,
        address,
        fiatTotal: fiat?.amount ?? '',
        fiatCurrency: fiat?.currency ?? '',
        rateValue: fiat?.rate ?? '',
        rateSource: fiat?.source ?? '',
        rateAt: fiat?.at ?? null,
        timeoutSec: REFUND_TIMEOUT_SEC,
        feePerKb: settings.feePerKb,
        maxSize: settings.maxSize,
        requiredConfirmations: requiredConfirmations(amount, settings),
        issuedAt,
        expiresAt,
        envelope: JSON.stringify(signed.envelope),
        payloadHash: createHash('sha256').update(signed.payloadBytes).digest('hex'),
        pubkey: signed.envelope.pubkey,
        signature: signed.envelope.sig,
        relayToken: '', // no token is issued (docs/relay.md)
        // The instant to the millisecond, not the envelope's whole second: a tx pays the refund
        // only when first seen after it (lib/payments/refund-match.ts).
        apiKeyId: ctx.apiKeyId ?? null,
        createdBy: ctx.userId ?? null,
        createdAt: now,
        lines: {
          create: [
            {
              storeId: ctx.storeId,
              idx: 0,
              type: 'item',
              itemId: line.id,
              name: line.name,
              description: line.desc,
              icon: '',
              count: 1,
              unit: amount,
              total: amount,
              tax: null,
            },
          ],
        },
        outputs: { create: [{ storeId: ctx.storeId, idx: 0, type: 'p2pkh', address, amount, data: null }] },
      },
      'refund.created',
      ctx.publicUrl,
      issuedAt,
    );
    // "Return to stock": what the sale took goes back, once, with the refund (the payment's row
    // lock above orders this against a concurrent decline's return).
    if (req.returnToStock) await returnSaleStock(t, paymentId, now, 'returned', ctx.userId ?? null, `refund ${id}`);
    return refundView(row, ctx.publicUrl);
  });
}

export { RefundConflictError };
