// Exact decimals for exchange rates (docs/api.md#exchange-rates): a bigint mantissa and a decimal scale,
// value = mantissa / 10^scale. Never a float. Parsed from a JSON number's or a string's source
// text, so "0.12340000", 0.1234 and 1.234e-1 all become exactly 0.1234.
import { AmountError } from './errors';

export interface Decimal {
  /** Signed mantissa. */
  readonly m: bigint;
  /** Decimal places, 0 or more. */
  readonly s: number;
}

/** Limits on what `parseDecimal` accepts: nothing a rate needs comes near them. */
export const DECIMAL_MAX_DIGITS = 40; // significant digits in the source text
export const DECIMAL_MAX_EXPONENT = 40; // |exponent| of 1e±40

// JSON number grammar (RFC 8259 §6), optionally without the leading '-'; plus the plain
// decimal forms "1." and ".5" that price APIs never send but people type.
const DECIMAL_RE = /^(-)?(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/;

/**
 * Parses a decimal string exactly. Accepts an exponent ("1.5e-7"), rejects whitespace, '+',
 * NaN, Infinity, hex, more than DECIMAL_MAX_DIGITS digits, and exponents beyond ±DECIMAL_MAX_EXPONENT
 * (so "1e400", which a float would read as Infinity, is an error, never a number).
 */
export function parseDecimal(text: string): Decimal {
  if (typeof text !== 'string') throw new AmountError('type', 'decimal must be a string');
  if (text === '') throw new AmountError('empty', 'decimal is empty');
  if (text.length > DECIMAL_MAX_DIGITS + 10) throw new AmountError('too_large', 'decimal has too many digits');
  const m = DECIMAL_RE.exec(text);
  if (!m) throw new AmountError('malformed', `not a decimal number: ${JSON.stringify(text.slice(0, 40))}`);
  const int = m[2] ?? '';
  const frac = m[3] ?? m[4] ?? '';
  const digits = (int + frac).replace(/^0+/, '');
  if (digits.length > DECIMAL_MAX_DIGITS) throw new AmountError('too_large', 'decimal has too many digits');
  const exp = m[5] === undefined ? 0 : Number(m[5]);
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > DECIMAL_MAX_EXPONENT) {
    throw new AmountError('exponent', 'decimal exponent is out of range');
  }
  let mant = digits === '' ? 0n : BigInt(digits);
  let scale = frac.length - exp;
  if (scale < 0) {
    mant *= 10n ** BigInt(-scale);
    scale = 0;
  }
  if (m[1] === '-') mant = -mant;
  return normalize({ m: mant, s: scale });
}

/** Drops trailing zeros of the fraction: the canonical form (0 is {0n, 0}). */
export function normalize(d: Decimal): Decimal {
  let { m, s } = d;
  if (m === 0n) return { m: 0n, s: 0 };
  while (s > 0 && m % 10n === 0n) {
    m /= 10n;
    s -= 1;
  }
  return { m, s };
}

/** Canonical plain string: "0.1234", "12", "-0.5" (no exponent, no trailing zeros). */
export function formatDecimal(d: Decimal): string {
  const { m, s } = normalize(d);
  const neg = m < 0n;
  const digits = (neg ? -m : m).toString();
  if (s === 0) return (neg ? '-' : '') + digits;
  const padded = digits.padStart(s + 1, '0');
  return `${neg ? '-' : ''}${padded.slice(0, -s)}.${padded.slice(-s)}`;
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const s = Math.max(a.s, b.s);
  return [a.m * 10n ** BigInt(s - a.s), b.m * 10n ** BigInt(s - b.s), s];
}

export function compareDecimal(a: Decimal, b: Decimal): number {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function addDecimal(a: Decimal, b: Decimal): Decimal {
  const [x, y, s] = align(a, b);
  return normalize({ m: x + y, s });
}

/** Exactly half: x/2 = 5x/10. */
export function halveDecimal(a: Decimal): Decimal {
  return normalize({ m: a.m * 5n, s: a.s + 1 });
}

/** Decimal from an integer count of 10^-scale units (e.g. 1234n cents, 2 → 12.34). */
export function decimalFromUnits(units: bigint, scale: number): Decimal {
  return normalize({ m: units, s: scale });
}
