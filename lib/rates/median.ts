// The rate in force (docs/api.md#exchange-rates): the median of the sources whose last good value was fetched
// within RATE_MAX_AGE_SEC. With an even count it is the exact mean of the two middle values (a
// decimal, no rounding), so two sources that disagree give their midpoint, never one of them
// chosen arbitrarily. One source at 10× (or at 0.1×) never moves the median of three beyond the
// range of the other two. With an even count, though, there is no majority: when the two middle
// values are more than MAX_SPLIT apart (two fresh sources, one of them wildly off) no side can
// be trusted, and the rate is unavailable rather than a midpoint that prices a sale absurdly.
// No fresh source: unavailable (the caller answers rate_unavailable).
import { addDecimal, compareDecimal, halveDecimal, type Decimal } from '../money';

export interface RateSample {
  name: string;
  /** The last good value, or null when the source never answered well. */
  value: Decimal | null;
  /** When that value was fetched. */
  at: Date | null;
}

export interface MedianRate {
  value: Decimal;
  /** The oldest fetch time among the samples used: every one of them is at least this fresh. */
  at: Date;
  /** The names of the sources used, in the configured order. */
  used: string[];
}

/** Samples fresh at `now`: fetched no earlier than now − maxAgeMs (and not in the future beyond a small skew). */
export function freshSamples(samples: RateSample[], now: Date, maxAgeMs: number): (RateSample & { value: Decimal; at: Date })[] {
  const t = now.getTime();
  return samples.filter(
    (s): s is RateSample & { value: Decimal; at: Date } =>
      s.value !== null && s.at !== null && t - s.at.getTime() <= maxAgeMs && s.at.getTime() - t <= 60_000,
  );
}

export function medianOf(values: Decimal[]): Decimal {
  if (values.length === 0) throw new Error('median of no values');
  const v = [...values].sort(compareDecimal);
  const mid = v.length >> 1;
  return v.length % 2 === 1 ? v[mid] : halveDecimal(addDecimal(v[mid - 1], v[mid]));
}

/** The largest relative gap between the two middle values of an even count: 10 %. */
export const MAX_SPLIT_PERCENT = 10n;

/** True when b (the larger) exceeds a by more than MAX_SPLIT_PERCENT percent of a. */
function split(a: Decimal, b: Decimal): boolean {
  const s = Math.max(a.s, b.s);
  const x = a.m * 10n ** BigInt(s - a.s);
  const y = b.m * 10n ** BigInt(s - b.s);
  return (y - x) * 100n > x * MAX_SPLIT_PERCENT;
}

export type MedianOutcome = ({ ok: true } & MedianRate) | { ok: false; reason: string };

export function medianRate(samples: RateSample[], now: Date, maxAgeMs: number): MedianOutcome {
  const fresh = freshSamples(samples, now, maxAgeMs);
  if (fresh.length === 0) return { ok: false, reason: `no rate source answered within the last ${Math.round(maxAgeMs / 1000)} s` };
  if (fresh.length % 2 === 0) {
    const v = fresh.map((s) => s.value).sort(compareDecimal);
    const mid = v.length >> 1;
    if (split(v[mid - 1], v[mid])) {
      return { ok: false, reason: `the rate sources disagree by more than ${MAX_SPLIT_PERCENT}% (${fresh.map((s) => s.name).join(', ')})` };
    }
  }
  return {
    ok: true,
    value: medianOf(fresh.map((s) => s.value)),
    at: new Date(Math.min(...fresh.map((s) => s.at.getTime()))),
    used: fresh.map((s) => s.name),
  };
}
