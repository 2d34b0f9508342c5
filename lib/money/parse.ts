import { DECIMALS, MAX_MONEY, ONE_DOGE } from './constants';
import { AmountError } from './errors';

export type ParseKoinuOptions = {
  /** Accept a leading '-' (e.g. discount lines). '+' is never accepted. Default false. */
  allowNegative?: boolean;
};

// digits with an optional fraction ("1", "1.", "1.5") or a bare fraction (".5").
const DECIMAL_RE = /^(?:(\d+)(?:\.(\d*))?|\.(\d+))$/;
// a single greedy class before [eE] keeps this linear-time on long digit strings
const EXPONENT_RE = /^[+-]?[\d.]+[eE][+-]?\d+$/;
// 10^18 koinu = 10^10 DOGE: an integer part longer than 11 digits (after leading zeros) is too large.
const MAX_INT_DIGITS = 11;

/**
 * Parse an 8-DP decimal string (whole DOGE, at most 8 decimals) into koinu.
 *
 * Accepted, like the DogeConnect reference: leading zeros ("000001"), a trailing dot ("1."),
 * a bare fraction (".5"), and '-' when `allowNegative` is set.
 * Rejected with `AmountError`: empty, any whitespace, '+', exponents, hex/NaN/Infinity or other
 * malformed input, more than 8 decimals (the reference silently truncates them; we reject,
 * even when the extra digits are zeros), and |value| > MAX_MONEY.
 */
export function parseKoinu(s: string, opts: ParseKoinuOptions = {}): bigint {
  if (typeof s !== 'string') throw new AmountError('type', 'amount must be a string');
  if (s === '') throw new AmountError('empty', 'amount is empty');
  if (/\s/.test(s)) throw new AmountError('whitespace', 'amount contains whitespace');
  if (EXPONENT_RE.test(s)) throw new AmountError('exponent', 'amount must not use an exponent');
  let body = s;
  let negative = false;
  if (body[0] === '+') throw new AmountError('sign', "amount must not have a '+' sign");
  if (body[0] === '-') {
    if (!opts.allowNegative) throw new AmountError('sign', 'amount must not be negative');
    negative = true;
    body = body.slice(1);
  }
  const m = DECIMAL_RE.exec(body);
  if (!m) throw new AmountError('malformed', `amount is not a decimal number: ${JSON.stringify(s.slice(0, 40))}`);
  const intDigits = (m[1] ?? '').replace(/^0+/, '');
  const fracDigits = m[2] ?? m[3] ?? '';
  if (fracDigits.length > DECIMALS) {
    throw new AmountError('too_many_decimals', `amount has more than ${DECIMALS} decimal places`);
  }
  if (intDigits.length > MAX_INT_DIGITS) throw new AmountError('too_large', 'amount exceeds 10000000000 DOGE');
  const whole = intDigits === '' ? 0n : BigInt(intDigits);
  const frac = fracDigits === '' ? 0n : BigInt(fracDigits.padEnd(DECIMALS, '0'));
  const abs = whole * ONE_DOGE + frac;
  if (abs > MAX_MONEY) throw new AmountError('too_large', 'amount exceeds 10000000000 DOGE');
  return negative ? -abs : abs;
}

/**
 * An amount typed by a person: like `parseKoinu`, but also with the decimal comma many locales
 * use ("15,50" = 15.5). Only one comma and no dot makes a decimal comma; "1,234.50" or
 * "1,234,5" stay malformed (an ambiguous grouping is refused, never guessed). Surrounding
 * spaces are trimmed. Protocol fields keep `parseKoinu`: this is for forms and the till.
 */
export function parseKoinuInput(s: string, opts: ParseKoinuOptions = {}): bigint {
  const t = s.trim();
  return parseKoinu(/^-?\d*,\d*$/.test(t) ? t.replace(',', '.') : t, opts);
}
