// One fresh source out of several (docs/api.md, "Exchange rates"): a median of one absorbs
// nothing, so a lone source that is 10× off would price every sale 10× off. It is used only while
// it lies within ±LONE_SOURCE_BAND_PERCENT of the last median that two or more sources agreed on,
// and that median is at most AGREED_MAX_AGE_FACTOR × RATE_MAX_AGE_SEC old; otherwise the rate is
// unavailable. (A store that configured a single source is not asked about: it chose to trust it.)
import { formatDecimal, type Decimal } from '../money';
import type { MedianOutcome } from './median';

/** The last rate two or more fresh sources agreed on, and the oldest fetch it was taken of. */
export interface AgreedMedian {
  value: Decimal;
  at: Date;
}

export const LONE_SOURCE_BAND_PERCENT = 20n;
export const AGREED_MAX_AGE_FACTOR = 6;

/** |v − m| ≤ band% of m, exactly (decimals scaled to one exponent, no floats). */
export function withinBand(v: Decimal, m: Decimal, percent: bigint): boolean {
  const s = Math.max(v.s, m.s);
  const x = v.m * 10n ** BigInt(s - v.s);
  const y = m.m * 10n ** BigInt(s - m.s);
  const diff = x > y ? x - y : y - x;
  return diff * 100n <= y * percent;
}

/**
 * Checks a rate taken from a single fresh source against `agreed`. Any other outcome (two or
 * more sources, or already unavailable) is returned as it is.
 */
export function checkLoneSource(rate: MedianOutcome, agreed: AgreedMedian | null, now: Date, maxAgeMs: number): MedianOutcome {
  if (!rate.ok || rate.used.length !== 1) return rate;
  const sec = Math.round(maxAgeMs / 1000);
  const lone = `only ${rate.used[0]} answered within the last ${sec} s`;
  const horizonMs = maxAgeMs * AGREED_MAX_AGE_FACTOR;
  if (!agreed || now.getTime() - agreed.at.getTime() > horizonMs) {
    return {
      ok: false,
      reason: `${lone}, and no rate that two or more sources agreed on in the last ${Math.round(horizonMs / 1000)} s can vouch for it`,
    };
  }
  if (!withinBand(rate.value, agreed.value, LONE_SOURCE_BAND_PERCENT)) {
    return {
      ok: false,
      reason: `${lone}, and its ${formatDecimal(rate.value)} is more than ${LONE_SOURCE_BAND_PERCENT}% from ${formatDecimal(agreed.value)}, the last rate two or more sources agreed on`,
    };
  }
  return rate;
}
