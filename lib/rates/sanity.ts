// What a believable DOGE price is, in any fiat currency: positive and within a wide but finite
// band. A dead or confused provider answers 0, a negative, NaN, 1e400 or a price off by many
// orders of magnitude; those are refused here. A source that is merely wrong by 10× is absorbed
// by the median (median.ts) when others are fresh, and refused by the last agreed median when it
// is the only one left (lone-source.ts).
import { compareDecimal, formatDecimal, parseDecimal, type Decimal } from '../money';

/** 10^-9 fiat per DOGE: below any currency's value of a coin with a market. */
export const MIN_RATE: Decimal = { m: 1n, s: 9 };
/** 10^9 fiat per DOGE: above any currency's value (even 1 DOGE in VND or IRR is far below). */
export const MAX_RATE: Decimal = { m: 1_000_000_000n, s: 0 };

export class RateValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RateValueError';
  }
}

/** Throws RateValueError unless MIN_RATE <= value <= MAX_RATE. */
export function checkRate(value: Decimal): Decimal {
  if (value.m <= 0n) throw new RateValueError(`rate ${formatDecimal(value)} is not positive`);
  if (compareDecimal(value, MIN_RATE) < 0) throw new RateValueError(`rate ${formatDecimal(value)} is implausibly small`);
  if (compareDecimal(value, MAX_RATE) > 0) throw new RateValueError(`rate ${formatDecimal(value)} is implausibly large`);
  return value;
}

/** A price's source text to a checked rate; throws with a short reason (never a float). */
export function parseRate(text: string): Decimal {
  let d: Decimal;
  try {
    d = parseDecimal(text);
  } catch (e) {
    throw new RateValueError(`price ${JSON.stringify(text.slice(0, 30))} is not a decimal number (${(e as Error).message})`);
  }
  return checkRate(d);
}
