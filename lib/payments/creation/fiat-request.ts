// A vendor request priced in fiat (docs/api.md#pricing-in-a-fiat-currency): `"currency": "<the store's pricing_currency>"`
// makes each item's `unit`, `total` and `tax` amounts of that currency, in its minor units
// ("2.00" USD). They are converted to DOGE here, at one rate, before the ordinary DOGE pricing
// (payment-request.ts) validates and sums the result. Pure: the rate is passed in.
//
// Rounding: each line's `unit` and `tax` are converted on their own, fiat ÷ rate, rounded half-up
// to the koinu (lib/money fiatToKoinu); the line's DOGE `total` is count × the converted unit
// (the Connect spec signs total = count × unit), and the payment total is the sum of the lines.
// Every line type (item, tax, fee, shipping, discount, donation) is converted the same way; a
// discount's negative unit rounds like its positive twin.
import { fiatToKoinu, formatFiatMinor, formatKoinu, parseFiatMinor, AmountError, currencyMinorDigits, type Decimal } from '../../money';
import { PaymentRequestSchema } from './request';
import { InvalidRequestError, fromZod } from '../../errors';

/** The DOGE pricing currency: amounts are 8-DP DOGE strings, as before `currency` existed. */
export const DOGE = 'DOGE';

/**
 * The currency a request is priced in: `DOGE` when `currency` is absent or DOGE, else it must be
 * the store's pricing currency (400 naming `currency` otherwise).
 */
export function requestCurrency(body: unknown, pricingCurrency: string): string {
  const c = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).currency : undefined;
  if (c === undefined || c === DOGE) return DOGE;
  if (typeof c !== 'string' || !/^[A-Z]{3}$/.test(c)) {
    throw new InvalidRequestError('currency', "must be DOGE or the store's pricing currency (a 3-letter ISO 4217 code)");
  }
  if (c !== pricingCurrency) {
    throw new InvalidRequestError(
      'currency',
      pricingCurrency === DOGE
        ? `this store prices in DOGE: send "DOGE" or leave currency out (not ${c})`
        : `this store prices in ${pricingCurrency}: send "${pricingCurrency}" or "DOGE" (not ${c})`,
    );
  }
  return c;
}

export interface FiatSums {
  currency: string;
  /** Sum of every line's count × unit + tax, in minor units. */
  totalMinor: bigint;
  /** Sum of the lines' tax and the `tax` lines, in minor units. */
  taxMinor: bigint;
  /** The same, in the currency's fixed form ("2.00"). */
  total: string;
  tax: string;
}

export interface ConvertedRequest {
  /** The request with DOGE amounts, without `currency`, and with the fiat fields set: priced by priceRequest. */
  body: Record<string, unknown>;
  fiat: FiatSums;
  /** Each item's fiat unit and tax as priced (minor units), by index; null for signing items. Stored per line. */
  lines: (FiatLine | null)[];
}

export interface FiatLine {
  unit: bigint;
  tax: bigint | null;
}

function minor(field: string, text: string | undefined, currency: string): bigint | null {
  if (text === undefined || text === '') return null;
  try {
    return parseFiatMinor(text, currency, { allowNegative: true });
  } catch (e) {
    throw new InvalidRequestError(field, e instanceof AmountError ? e.message : 'invalid amount');
  }
}

function toKoinu(field: string, m: bigint, currency: string, rate: Decimal): bigint {
  try {
    return fiatToKoinu(m, currency, rate);
  } catch (e) {
    throw new InvalidRequestError(field, e instanceof AmountError ? e.message : 'cannot be converted');
  }
}

/**
 * Converts a request priced in `currency` at `rate` (fiat per DOGE) into its DOGE twin. Fiat
 * fields sent by the vendor must agree with the priced sums (and `fiat_currency` with
 * `currency`); p2pkh outputs are refused (their DOGE amount is the rate's to set).
 */
export function convertFiatRequest(body: unknown, currency: string, rate: Decimal): ConvertedRequest {
  currencyMinorDigits(currency); // a malformed code is a programming error here
  const raw = { ...(body as Record<string, unknown>) };
  delete raw.currency;
  const parsed = PaymentRequestSchema.safeParse(raw);
  if (!parsed.success) throw fromZod(parsed.error);
  const req = parsed.data;

  let totalMinor = 0n;
  let taxMinor = 0n;
  const lines: (FiatLine | null)[] = [];
  const items = req.items.map((it, i) => {
    lines.push(null);
    if (it.type === 'signing') return it;
    const f = (k: string) => `items[${i}].${k}`;
    const unit = minor(f('unit'), it.unit, currency);
    if (unit === null) return it; // priceRequest says "is required"
    const count = it.count ?? 1;
    const tax = minor(f('tax'), it.tax, currency);
    const sent = minor(f('total'), it.total, currency);
    if (sent !== null && sent !== BigInt(count) * unit) {
      throw new InvalidRequestError(f('total'), `must equal count × unit (${formatFiatMinor(BigInt(count) * unit, currency)} ${currency})`);
    }
    totalMinor += BigInt(count) * unit + (tax ?? 0n);
    if (tax !== null) taxMinor += tax;
    if (it.type === 'tax') taxMinor += BigInt(count) * unit;
    lines[i] = { unit, tax };
    const unitK = toKoinu(f('unit'), unit, currency, rate);
    const out: typeof it = { ...it, unit: formatKoinu(unitK) };
    if (sent !== null) out.total = formatKoinu(BigInt(count) * unitK);
    if (tax !== null) out.tax = formatKoinu(toKoinu(f('tax'), tax, currency, rate));
    return out;
  });

  (req.outputs ?? []).forEach((o, i) => {
    if ((o.type ?? 'p2pkh') === 'p2pkh') {
      throw new InvalidRequestError(
        `outputs[${i}]`,
        `p2pkh outputs cannot be given with a ${currency}-priced request: their DOGE amount is set by the exchange rate`,
      );
    }
  });

  const fiat: FiatSums = {
    currency,
    totalMinor,
    taxMinor,
    total: formatFiatMinor(totalMinor, currency),
    tax: formatFiatMinor(taxMinor, currency),
  };
  if (req.fiat_currency && req.fiat_currency !== currency) {
    throw new InvalidRequestError('fiat_currency', `must be ${currency} (the request's currency) or omitted`);
  }
  if (req.fiat_total && minor('fiat_total', req.fiat_total, currency) !== totalMinor) {
    throw new InvalidRequestError('fiat_total', `must equal the sum of the lines (${fiat.total} ${currency}) or be omitted`);
  }
  if (req.fiat_tax && minor('fiat_tax', req.fiat_tax, currency) !== taxMinor) {
    throw new InvalidRequestError('fiat_tax', `must equal the sum of the taxes (${fiat.tax} ${currency}) or be omitted`);
  }
  return {
    body: { ...req, items, fiat_total: fiat.total, fiat_tax: fiat.tax, fiat_currency: currency },
    fiat,
    lines,
  };
}
