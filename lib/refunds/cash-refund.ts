// A cash refund (docs/counter.md#cash-refunds): a cash sale is paid back in cash at the counter.
// The refund is recorded confirmed at once, with the cash handed back (`fiat_amount`, in the
// sale's currency) and its DOGE at the sale's locked rate (`amount`). It has no address, envelope
// or QR code. Its limits are those of every refund, counted in the sale's fiat minor units (the
// cash the customer paid): the sale's row is locked (SELECT … FOR UPDATE), so concurrent refunds
// are serialised and together never hand back more than the sale took.
import type { Db } from '../db';
import { fiatToKoinu, formatFiatMinor, parseFiatMinor, AmountError } from '../money';
import { insertCashRefund, readStoreSettings, refundView, type RefundView } from '../payments';
import { InvalidRequestError } from '../errors';
import { returnSaleStock } from '../stock';
import { lockedRate, RefundConflictError, type ParsedRefund } from './request';
import { newRefundId, REFUND_SEQ_OFFSET } from './ids';

type Tx = Parameters<Parameters<Db['prisma']['$transaction']>[0]>[0];

export interface CashRefundContext {
  db: Db;
  storeId: number;
  publicUrl: string;
  apiKeyId?: string | null;
  userId?: string | null;
  now?: Date;
}

export interface CashSaleRow {
  id: string;
  fiatCurrency: string;
  rateValue: string;
}

/** What a cash refund may ask: a fiat amount at the sale's own rate (or all that is left), never an address. */
export function checkCashAsk(req: ParsedRefund): { minor: 'all' | string } {
  if (req.address !== null) {
    throw new InvalidRequestError('address', 'a cash sale is refunded in cash at the counter: leave the address out');
  }
  if (req.ask.kind === 'doge')
    throw new InvalidRequestError('amount', 'a cash sale is refunded in cash: give fiat_amount, the cash handed back');
  if (req.ask.kind === 'all') return { minor: 'all' };
  if (req.ask.rate === 'now')
    throw new InvalidRequestError('rate', 'a cash refund is at the sale\'s own rate: leave rate out or send "then"');
  return { minor: req.ask.text };
}

/** The cash asked for, in minor units of the sale's currency (null: all that is left). */
function askedMinor(text: 'all' | string, currency: string): bigint | null {
  if (text === 'all') return null;
  let minor: bigint;
  try {
    minor = parseFiatMinor(text, currency);
  } catch (e) {
    throw new InvalidRequestError('fiat_amount', e instanceof AmountError ? e.message : 'is not a valid amount');
  }
  if (minor <= 0n) throw new InvalidRequestError('fiat_amount', 'must be greater than 0');
  return minor;
}

interface Left {
  fiat: bigint;
  koinu: bigint;
  saleFiat: string;
}

/** Locks the sale and returns what is left to refund, in cash and in DOGE (refunds not declined count). */
async function lockedCashLeft(t: Tx, sale: CashSaleRow): Promise<Left> {
  const rows = await t.$queryRawUnsafe<{ status: string; total: string; fiat_total: string }[]>(
    `SELECT status, total::text AS total, fiat_total FROM payment WHERE id = $1 AND refund_of IS NULL FOR UPDATE`,
    sale.id,
  );
  const p = rows[0];
  if (!p) throw new RefundConflictError('no such cash sale');
  if (p.status !== 'confirmed') throw new RefundConflictError('this cash sale is not paid, so there is nothing to refund');
  const refunds = await t.$queryRawUnsafe<{ total: string; fiat_total: string }[]>(
    `SELECT total::text AS total, fiat_total FROM payment WHERE refund_of = $1 AND status <> 'declined'`,
    sale.id,
  );
  let fiat = parseFiatMinor(p.fiat_total, sale.fiatCurrency);
  let koinu = BigInt(p.total);
  for (const r of refunds) {
    fiat -= r.fiat_total ? parseFiatMinor(r.fiat_total, sale.fiatCurrency) : 0n;
    koinu -= BigInt(r.total);
  }
  return { fiat: fiat > 0n ? fiat : 0n, koinu: koinu > 0n ? koinu : 0n, saleFiat: p.fiat_total };
}

/** The cash and DOGE of this refund, within what is left (409 when it would hand back more than was paid). */
function cashRefundAmounts(asked: bigint | null, left: Left, sale: CashSaleRow): { minor: bigint; koinu: bigint } {
  const currency = sale.fiatCurrency;
  if (left.fiat === 0n) throw new RefundConflictError(`the cash sale is already fully refunded (${left.saleFiat} ${currency})`);
  if (asked !== null && asked > left.fiat) {
    throw new RefundConflictError(
      `a cash refund of ${formatFiatMinor(asked, currency)} ${currency} would exceed what was paid: the sale took ${left.saleFiat}, refundable ${formatFiatMinor(left.fiat, currency)}`,
    );
  }
  // All that is left: its DOGE is the rest of the sale's, exactly, so the refunds add up to the sale.
  if (asked === null || asked === left.fiat) return { minor: left.fiat, koinu: left.koinu };
  const koinu = fiatToKoinu(asked, currency, lockedRate(sale).rate);
  return { minor: asked, koinu: koinu < left.koinu ? koinu : left.koinu };
}

/** Records the cash refund of `sale` and returns its 201 body. */
export async function createCashRefund(ctx: CashRefundContext, sale: CashSaleRow, req: ParsedRefund): Promise<RefundView> {
  const { db } = ctx;
  const ask = checkCashAsk(req);
  const currency = sale.fiatCurrency;
  lockedRate(sale); // a cash sale always locked one; a 409 says so if it did not
  const asked = askedMinor(ask.minor, currency);
  const now = ctx.now ?? new Date();
  const settings = await readStoreSettings(db, ctx.storeId);
  return db.prisma.$transaction(async (t) => {
    const left = await lockedCashLeft(t, sale);
    const { minor, koinu } = cashRefundAmounts(asked, left, sale);
    const seqRows = await t.$queryRawUnsafe<{ n: string }[]>(`SELECT nextval(pg_get_serial_sequence('payment', 'seq'))::text AS n`);
    const seq = BigInt(seqRows[0]!.n) - REFUND_SEQ_OFFSET;
    const id = newRefundId();
    const fiat = formatFiatMinor(minor, currency);
    const row = await insertCashRefund(
      t,
      {
        id,
        storeId: ctx.storeId,
        seq,
        refundOf: sale.id,
        refundReason: req.reason,
        tender: 'cash',
        total: koinu,
        quantity: 1,
        address: '',
        addressIndex: null,
        envelope: '',
        payloadHash: '',
        pubkey: '',
        signature: '',
        relayToken: '',
        fiatTotal: fiat,
        fiatCurrency: currency,
        rateValue: sale.rateValue,
        rateSource: 'locked',
        rateAt: null,
        note: `Refund of ${sale.id}`,
        timeoutSec: 0,
        feePerKb: settings.feePerKb,
        maxSize: settings.maxSize,
        requiredConfirmations: 0,
        issuedAt: now,
        expiresAt: now,
        apiKeyId: ctx.apiKeyId ?? null,
        createdBy: ctx.userId ?? null,
        createdAt: now,
        lines: {
          create: [
            {
              storeId: ctx.storeId,
              idx: 0,
              type: 'item',
              itemId: 'refund',
              name: `Refund of ${sale.id}`,
              description: req.reason,
              icon: '',
              count: 1,
              unit: koinu,
              total: koinu,
              tax: null,
              fiatUnit: minor,
            },
          ],
        },
      },
      ctx.publicUrl,
      now,
    );
    if (req.returnToStock) await returnSaleStock(t, sale.id, now, 'returned', ctx.userId ?? null, `refund ${id}`);
    return refundView({ ...row, refundOf: sale.id, refundReason: req.reason }, ctx.publicUrl);
  });
}
