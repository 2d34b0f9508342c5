// Fiat amounts and their conversion to koinu at an exchange rate (docs/api.md#exchange-rates): a line's DOGE
// amount is its fiat amount divided by the rate (fiat per DOGE), rounded half-up to the koinu.
import { DECIMALS, MAX_MONEY } from './constants';
import { AmountError } from './errors';
import type { Decimal } from './decimal';

// ISO 4217 minor units where they are not 2 (the common cases; everything else has 2).
const MINOR_DIGITS: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
};

/** Digits after the decimal point of an ISO 4217 currency's minor unit (USD 2, JPY 0, KWD 3). */
export function currencyMinorDigits(currency: string): number {
  if (!/^[A-Z]{3}$/.test(currency)) throw new AmountError('malformed', `not an ISO 4217 currency code: ${JSON.stringify(currency)}`);
  return MINOR_DIGITS[currency] ?? 2;
}

/**
 * Koinu for `minorUnits` of `currency` (e.g. 199n cents of USD = $1.99) at `rate` fiat per DOGE:
 * minorUnits / 10^digits / rate DOGE, rounded half-up to the koinu (a half koinu goes away from
 * zero, so a negative discount line rounds like its positive twin). Exact: no float anywhere.
 * Throws AmountError for a non-positive rate, and 'too_large' past MAX_MONEY.
 */
export function fiatToKoinu(minorUnits: bigint, currency: string, rate: Decimal): bigint {
  if (typeof minorUnits !== 'bigint') throw new AmountError('type', 'fiat amount must be a bigint of minor units');
  if (rate.m <= 0n) throw new AmountError('malformed', 'exchange rate must be greater than 0');
  const digits = currencyMinorDigits(currency);
  // koinu = minor · 10^DECIMALS · 10^rate.s / (10^digits · rate.m)
  const neg = minorUnits < 0n;
  const num = (neg ? -minorUnits : minorUnits) * 10n ** BigInt(DECIMALS + rate.s);
  const den = 10n ** BigInt(digits) * rate.m;
  const q = (2n * num + den) / (2n * den); // floor(x + 1/2) for x >= 0
  if (q > MAX_MONEY) throw new AmountError('too_large', 'the converted amount exceeds 10000000000 DOGE');
  return neg ? -q : q;
}

/**
 * A fiat amount string in `currency` ("1.99", "-0.50", "100") to its minor units (199n): at most
 * the currency's minor digits ("1.999" USD is refused, not rounded), no exponent, no '+'.
 * Negative only with allowNegative (discount lines). |amount| at most 10^15 major units.
 */
export function parseFiatMinor(text: string, currency: string, opts: { allowNegative?: boolean } = {}): bigint {
  const digits = currencyMinorDigits(currency);
  if (typeof text !== 'string') throw new AmountError('type', 'amount must be a string');
  if (text === '') throw new AmountError('empty', 'amount is empty');
  if (/\s/.test(text)) throw new AmountError('whitespace', 'amount contains whitespace');
  if (/[eE]/.test(text)) throw new AmountError('exponent', 'amount must not use an exponent');
  const m = /^(-)?(?:(\d+)(?:\.(\d*))?|\.(\d+))$/.exec(text);
  if (!m)
    throw new AmountError(text[0] === '+' ? 'sign' : 'malformed', `amount is not a decimal number: ${JSON.stringify(text.slice(0, 40))}`);
  if (m[1] && !opts.allowNegative) throw new AmountError('sign', 'amount must not be negative');
  const int = (m[2] ?? '').replace(/^0+/, '');
  const frac = m[3] ?? m[4] ?? '';
  if (frac.length > digits) throw new AmountError('too_many_decimals', `${currency} amounts have at most ${digits} decimal places`);
  if (int.length > 15) throw new AmountError('too_large', 'amount is too large');
  const minor = BigInt(int || '0') * 10n ** BigInt(digits) + BigInt(frac.padEnd(digits, '0') || '0');
  return m[1] ? -minor : minor;
}

/** Minor units to the currency's fixed form: 200n USD → "2.00", -5n → "-0.05", 1500n JPY → "1500". */
export function formatFiatMinor(minor: bigint, currency: string): string {
  const digits = currencyMinorDigits(currency);
  const neg = minor < 0n;
  const abs = (neg ? -minor : minor).toString().padStart(digits + 1, '0');
  const body = digits === 0 ? abs : `${abs.slice(0, -digits)}.${abs.slice(-digits)}`;
  return (neg ? '-' : '') + body;
}
