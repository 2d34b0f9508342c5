// Refunds in a report period (docs/api.md#refunds, docs/using-counter.md#reports-and-receipts): refunds are not sales; the report subtracts
// the refunds confirmed in the period from gross to give net.
//
// A refund is a row of `payment` with `refund_of` set (lib/refunds). The period's refunds are
// those whose `confirmed_at` falls in [from, to), scoped to the payments `ownSalesOf` created
// when set, and actually paid: a refund is confirmed only by a tx that pays its exact amount
// (lib/payments/refund-match.ts), and `amount_paid` ≥ `total` is checked here as well, so that a refund
// credited short by a wrong tx before that rule (docs/security.md) is not reported as paid. Their fiat value, per currency: the refund's own fiat amount when it was asked in
// fiat, else its DOGE amount at the refunded payment's locked rate, rounded half-up to the minor
// unit; a refund of a payment priced in DOGE has none. A cash refund (docs/counter.md#cash-refunds)
// is paid by no tx: it is paid the moment the cashier hands the cash back, and is counted apart
// as well, since the report's cash tender falls by it.
import { storeIdOf } from '../stores';
import type { Db } from '../db';
import { currencyMinorDigits, formatFiatMinor, parseDecimal, parseFiatMinor, DECIMALS } from '../money';

export interface PeriodRefunds {
  count: number;
  koinu: bigint;
  /** Fiat value of the refunds, in the currency's decimal string, per ISO code. */
  fiat: Map<string, string>;
  /** The cash refunds among them: DOGE at the sale's rate, and the cash handed back per currency. */
  cash: { koinu: bigint; fiat: Map<string, bigint> };
}

/** koinu × rate (fiat per DOGE), in the currency's minor units, rounded half-up. Null when the rate does not parse. */
export function koinuToFiatMinor(koinu: bigint, currency: string, rateText: string): bigint | null {
  let digits: number;
  let rate: { m: bigint; s: number };
  try {
    digits = currencyMinorDigits(currency);
    rate = parseDecimal(rateText);
  } catch {
    return null;
  }
  if (rate.m <= 0n || koinu < 0n) return null;
  const num = koinu * rate.m * 10n ** BigInt(digits);
  const den = 10n ** BigInt(DECIMALS + rate.s);
  return (2n * num + den) / (2n * den);
}

export interface RefundFiatRow {
  total: bigint;
  fiatTotal: string;
  fiatCurrency: string;
  parentRate: string;
  parentCurrency: string;
}

/** A refund's fiat value: its own fiat amount, else at the refunded payment's locked rate, else none. */
export function refundFiat(r: RefundFiatRow): { currency: string; minor: bigint } | null {
  if (r.fiatCurrency && r.fiatTotal) {
    try {
      return { currency: r.fiatCurrency, minor: parseFiatMinor(r.fiatTotal, r.fiatCurrency) };
    } catch {
      return null;
    }
  }
  if (r.parentCurrency && r.parentRate) {
    const minor = koinuToFiatMinor(r.total, r.parentCurrency, r.parentRate);
    return minor === null ? null : { currency: r.parentCurrency, minor };
  }
  return null;
}

export async function refundsConfirmedInPeriod(
  db: Db,
  storeId: number,
  from: Date,
  to: Date,
  ownSalesOf: string | null,
): Promise<PeriodRefunds> {
  const rows = await db.prisma.$queryRawUnsafe<
    { total: string; fiat_total: string; fiat_currency: string; parent_rate: string; parent_currency: string; tender: string }[]
  >(
    `SELECT r."total"::text AS total, r."fiat_total", r."fiat_currency", p."rate_value" AS parent_rate, p."fiat_currency" AS parent_currency, r."tender"
       FROM "payment" r JOIN "payment" p ON p."id" = r."refund_of"
      WHERE r."store_id" = $3 AND r."refund_of" IS NOT NULL AND r."status" = 'confirmed' AND (r."amount_paid" >= r."total" OR r."tender" = 'cash') AND r."confirmed_at" >= $1 AND r."confirmed_at" < $2
        ${ownSalesOf ? 'AND p."created_by" = $4' : ''}`,
    from,
    to,
    storeIdOf(storeId),
    ...(ownSalesOf ? [ownSalesOf] : []),
  );
  let koinu = 0n;
  const minor = new Map<string, bigint>();
  const cash = { koinu: 0n, fiat: new Map<string, bigint>() };
  for (const r of rows) {
    const total = BigInt(r.total);
    koinu += total;
    const f = refundFiat({
      total,
      fiatTotal: r.fiat_total,
      fiatCurrency: r.fiat_currency,
      parentRate: r.parent_rate,
      parentCurrency: r.parent_currency,
    });
    if (f) minor.set(f.currency, (minor.get(f.currency) ?? 0n) + f.minor);
    if (r.tender !== 'cash') continue;
    cash.koinu += total;
    if (f) cash.fiat.set(f.currency, (cash.fiat.get(f.currency) ?? 0n) + f.minor);
  }
  const fiat = new Map<string, string>();
  for (const [c, m] of minor) fiat.set(c, formatFiatMinor(m, c));
  return { count: rows.length, koinu, fiat, cash };
}
