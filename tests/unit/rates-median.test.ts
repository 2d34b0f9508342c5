// The rate in force: the median of the fresh sources (docs/api.md#exchange-rates), and a lone fresh source
// vouched for by the last agreed median (lib/rates/lone-source.ts), with an injected clock.
import { describe, expect, it } from 'vitest';
import { medianOf, medianRate, type RateSample } from '@/lib/rates/median';
import { checkLoneSource, withinBand } from '@/lib/rates/lone-source';
import { formatDecimal, parseDecimal } from '@/lib/money';

const NOW = new Date('2026-11-24T12:00:00Z');
const ago = (sec: number) => new Date(NOW.getTime() - sec * 1000);
const s = (name: string, value: string | null, ageSec: number | null): RateSample => ({
  name,
  value: value === null ? null : parseDecimal(value),
  at: ageSec === null ? null : ago(ageSec),
});
const MAX = 600_000;
const value = (r: ReturnType<typeof medianRate>) => (r.ok ? formatDecimal(r.value) : `unavailable: ${r.reason}`);

describe('medianOf', () => {
  it('odd counts: the middle value; even counts: the exact mean of the two middles', () => {
    expect(formatDecimal(medianOf(['0.3', '0.1', '0.2'].map(parseDecimal)))).toBe('0.2');
    expect(formatDecimal(medianOf(['0.1'].map(parseDecimal)))).toBe('0.1');
    expect(formatDecimal(medianOf(['0.1', '0.2'].map(parseDecimal)))).toBe('0.15');
    expect(formatDecimal(medianOf(['0.12345679', '0.12345678'].map(parseDecimal)))).toBe('0.123456785');
    expect(formatDecimal(medianOf(['1', '4', '2', '3'].map(parseDecimal)))).toBe('2.5');
  });
});

describe('medianRate', () => {
  it('one source at 10× never moves the median of three beyond the others', () => {
    const r = medianRate([s('coingecko', '0.1234', 10), s('kraken', '1.234', 10), s('coinbase', '0.1236', 10)], NOW, MAX);
    expect(value(r)).toBe('0.1236');
    const low = medianRate([s('coingecko', '0.1234', 10), s('kraken', '0.01234', 10), s('coinbase', '0.1236', 10)], NOW, MAX);
    expect(value(low)).toBe('0.1234');
  });

  it('uses only sources fetched within the max age; the boundary itself is still fresh', () => {
    const r = medianRate([s('coingecko', '0.122', 600), s('kraken', '9.9', 601), s('coinbase', '0.120', 30)], NOW, MAX);
    expect(value(r)).toBe('0.121');
    expect(r.ok && r.used).toEqual(['coingecko', 'coinbase']);
    expect(r.ok && r.at.toISOString()).toBe(ago(600).toISOString()); // the oldest sample used
  });

  it('a stale rate is never used: everything older than the max age → unavailable', () => {
    const r = medianRate([s('coingecko', '0.12', 601), s('kraken', '0.12', 3600), s('coinbase', null, null)], NOW, MAX);
    expect(r.ok).toBe(false);
    expect(value(r)).toMatch(/no rate source answered within the last 600 s/);
    // the same samples, read 2 minutes earlier, were fresh
    expect(value(medianRate([s('coingecko', '0.12', 601)], ago(120), MAX))).toBe('0.12');
  });

  it('no sources, or none that ever answered → unavailable', () => {
    expect(medianRate([], NOW, MAX).ok).toBe(false);
    expect(medianRate([s('kraken', null, null)], NOW, MAX).ok).toBe(false);
  });

  it('a value stamped far in the future (clock trouble) is not fresh', () => {
    expect(medianRate([s('kraken', '0.1', -3600)], NOW, MAX).ok).toBe(false);
    expect(medianRate([s('kraken', '0.1', -30)], NOW, MAX).ok).toBe(true);
  });

  it('two fresh sources wildly apart (no majority) → unavailable, never their midpoint', () => {
    const r = medianRate([s('coingecko', '0.12', 10), s('kraken', '1.2', 10), s('coinbase', null, null)], NOW, MAX);
    expect(r.ok).toBe(false);
    expect(value(r)).toMatch(/disagree by more than 10%/);
    // close enough: their exact midpoint
    expect(value(medianRate([s('coingecko', '0.120', 10), s('kraken', '0.132', 10)], NOW, MAX))).toBe('0.126');
    expect(medianRate([s('coingecko', '0.120', 10), s('kraken', '0.13201', 10)], NOW, MAX).ok).toBe(false);
    // four sources: the two middles decide
    expect(value(medianRate([s('a', '0.12', 1), s('b', '0.121', 1), s('c', '0.122', 1), s('d', '5', 1)], NOW, MAX))).toBe('0.1215');
  });

  it('a single fresh source is the rate (nothing to compare it with)', () => {
    expect(value(medianRate([s('fixed:0.1', '0.1', 0)], NOW, MAX))).toBe('0.1');
  });
});

describe('checkLoneSource: one fresh source out of several', () => {
  const agreed = (v: string, ageSec: number) => ({ value: parseDecimal(v), at: ago(ageSec) });
  const lone = (v: string) => medianRate([s('coingecko', v, 10), s('kraken', '0.1', 700), s('coinbase', null, null)], NOW, MAX);

  it('a lone source 10× off the last agreed median is refused, never the rate', () => {
    const r = checkLoneSource(lone('1.0'), agreed('0.1', 700), NOW, MAX);
    expect(value(r)).toMatch(/only coingecko answered within the last 600 s, and its 1 is more than 20% from 0.1/);
    expect(checkLoneSource(lone('0.01'), agreed('0.1', 700), NOW, MAX).ok).toBe(false);
  });

  it('within ±20% (the bounds included) it is the rate', () => {
    for (const v of ['0.1', '0.12', '0.08', '0.119999']) expect(value(checkLoneSource(lone(v), agreed('0.1', 700), NOW, MAX))).toBe(v);
    for (const v of ['0.12000001', '0.07999999']) expect(checkLoneSource(lone(v), agreed('0.1', 700), NOW, MAX).ok, v).toBe(false);
  });

  it('the agreed median vouches for at most 6 × RATE_MAX_AGE_SEC; none at all vouches for nothing', () => {
    expect(value(checkLoneSource(lone('0.1'), agreed('0.1', 3600), NOW, MAX))).toBe('0.1'); // exactly 6 × 600 s
    expect(value(checkLoneSource(lone('0.1'), agreed('0.1', 3601), NOW, MAX))).toMatch(
      /no rate that two or more sources agreed on in the last 3600 s/,
    );
    expect(checkLoneSource(lone('0.1'), null, NOW, MAX).ok).toBe(false);
  });

  it('two or more fresh sources, or no rate at all, pass through unchanged', () => {
    const two = medianRate([s('coingecko', '0.1', 10), s('kraken', '0.101', 10)], NOW, MAX);
    expect(checkLoneSource(two, null, NOW, MAX)).toBe(two);
    const none = medianRate([s('coingecko', '0.1', 700)], NOW, MAX);
    expect(checkLoneSource(none, agreed('0.1', 10), NOW, MAX)).toBe(none);
  });

  it('withinBand is exact across scales', () => {
    expect(withinBand(parseDecimal('120'), parseDecimal('100'), 20n)).toBe(true);
    expect(withinBand(parseDecimal('120.00000001'), parseDecimal('100'), 20n)).toBe(false);
    expect(withinBand(parseDecimal('0.000000008'), parseDecimal('0.00000001'), 20n)).toBe(true);
  });
});
