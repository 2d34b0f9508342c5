// The sales report's period (lib/reports/range.ts): dates and instants in an IANA zone, local
// days of 23 and 25 hours at clock changes, and strict 400s for everything malformed.
import { describe, expect, it } from 'vitest';
import { resolveRange, parseBound, startOfLocalDay, splitDays, localIso, checkZone } from '@/lib/reports/range';
import { decimalSub } from '@/lib/reports/sales-report';
import { InvalidRequestError } from '@/lib/errors';

const H = 3_600_000;

function refused(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidRequestError);
    return (e as Error).message;
  }
  throw new Error('was accepted');
}

describe('local days', () => {
  it('a date is local midnight in the zone', () => {
    expect(parseBound('2026-11-24', 'UTC', 'from').toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(parseBound('2026-11-24', 'Europe/Berlin', 'from').toISOString()).toBe('2026-11-23T23:00:00.000Z');
    expect(parseBound('2026-07-01', 'Europe/Berlin', 'from').toISOString()).toBe('2026-06-30T22:00:00.000Z');
    expect(parseBound('2026-11-24', 'America/New_York', 'from').toISOString()).toBe('2026-11-24T05:00:00.000Z');
    expect(parseBound('2026-11-24', 'Asia/Kolkata', 'from').toISOString()).toBe('2026-11-23T18:30:00.000Z');
    expect(parseBound('2026-11-24', 'Pacific/Chatham', 'from').toISOString()).toBe('2026-11-23T10:15:00.000Z');
  });

  it('spring forward: the day has 23 hours; fall back: 25 (Europe/Berlin, America/New_York)', () => {
    const r = resolveRange({ from: '2026-03-28', to: '2026-03-31', tz: 'Europe/Berlin' });
    expect(r.days.map((d) => [d.date, (d.to.getTime() - d.from.getTime()) / H])).toEqual([
      ['2026-03-28', 24],
      ['2026-03-29', 23],
      ['2026-03-30', 24],
    ]);
    const f = resolveRange({ from: '2026-10-24', to: '2026-10-27', tz: 'Europe/Berlin' });
    expect(f.days.map((d) => (d.to.getTime() - d.from.getTime()) / H)).toEqual([24, 25, 24]);
    const ny = resolveRange({ from: '2026-11-01', to: '2026-11-02', tz: 'America/New_York' });
    expect(ny.days).toHaveLength(1);
    expect(ny.days[0].from.toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(ny.days[0].to.toISOString()).toBe('2026-11-02T05:00:00.000Z');
  });

  it('a day whose midnight the clocks skip starts at the change (America/Santiago, 2026-09-06 00:00 → 01:00)', () => {
    const start = startOfLocalDay({ y: 2026, m: 9, d: 6 }, 'America/Santiago');
    expect(start.toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(localIso(start, 'America/Santiago')).toBe('2026-09-06T01:00:00-03:00');
    expect(localIso(new Date(start.getTime() - 1), 'America/Santiago').slice(0, 10)).toBe('2026-09-05');
    const days = splitDays(
      parseBound('2026-09-05', 'America/Santiago', 'from'),
      parseBound('2026-09-07', 'America/Santiago', 'to'),
      'America/Santiago',
    );
    expect(days.map((d) => [d.date, (d.to.getTime() - d.from.getTime()) / H])).toEqual([
      ['2026-09-05', 24],
      ['2026-09-06', 23],
    ]);
  });

  it('a date the zone skipped entirely is an empty day (Pacific/Apia, 2011-12-30)', () => {
    const days = resolveRange({ from: '2011-12-29', to: '2011-12-31', tz: 'Pacific/Apia' }).days;
    expect(days.map((d) => d.date)).toEqual(['2011-12-29']);
    expect(startOfLocalDay({ y: 2011, m: 12, d: 30 }, 'Pacific/Apia').getTime()).toBe(
      startOfLocalDay({ y: 2011, m: 12, d: 31 }, 'Pacific/Apia').getTime(),
    );
  });

  it('instants are kept exactly and clip the first and last day', () => {
    const r = resolveRange({ from: '2026-11-24T10:30:00+01:00', to: '2026-11-26T03:00:00Z', tz: 'Europe/Berlin' });
    expect(r.from.toISOString()).toBe('2026-11-24T09:30:00.000Z');
    expect(r.days.map((d) => [d.date, d.from.toISOString(), d.to.toISOString()])).toEqual([
      ['2026-11-24', '2026-11-24T09:30:00.000Z', '2026-11-24T23:00:00.000Z'],
      ['2026-11-25', '2026-11-24T23:00:00.000Z', '2026-11-25T23:00:00.000Z'],
      ['2026-11-26', '2026-11-25T23:00:00.000Z', '2026-11-26T03:00:00.000Z'],
    ]);
    expect(parseBound('2026-11-24T10:30:00.123456789z', 'UTC', 'from').toISOString()).toBe('2026-11-24T10:30:00.123Z');
  });

  it('no bounds: today in the zone', () => {
    const now = new Date('2026-11-24T23:30:00Z'); // already the 25th in Berlin
    const r = resolveRange({ tz: 'Europe/Berlin' }, now);
    expect(r.days.map((d) => d.date)).toEqual(['2026-11-25']);
    expect(r.from.toISOString()).toBe('2026-11-24T23:00:00.000Z');
    expect(resolveRange({ tz: 'UTC' }, now).days.map((d) => d.date)).toEqual(['2026-11-24']);
  });

  it('a whole leap year is 366 days; one day more is refused', () => {
    expect(resolveRange({ from: '2028-01-01', to: '2029-01-01', tz: 'Europe/Berlin' }).days).toHaveLength(366);
    expect(refused(() => resolveRange({ from: '2028-01-01', to: '2029-01-02', tz: 'UTC' }))).toMatch(
      /^to: the period may be at most 366 days/,
    );
  });

  it('localIso writes the local time with its offset', () => {
    expect(localIso(new Date('2026-03-29T01:30:00Z'), 'Europe/Berlin')).toBe('2026-03-29T03:30:00+02:00');
    expect(localIso(new Date('2026-03-29T00:30:00Z'), 'Europe/Berlin')).toBe('2026-03-29T01:30:00+01:00');
    expect(localIso(new Date('2026-11-24T12:00:00Z'), 'America/St_Johns')).toBe('2026-11-24T08:30:00-03:30');
  });
});

describe('strict validation: 400 naming the field, never a crash', () => {
  it.each([
    ['from', { from: '2026-02-30', to: '2026-03-01', tz: 'UTC' }, /^from: is not a real date/],
    ['to', { from: '2026-02-01', to: '2026-13-01', tz: 'UTC' }, /^to: is not a real date/],
    ['from', { from: '0000-01-01', to: '2026-03-01', tz: 'UTC' }, /^from: year must be 0001/],
    ['from', { from: '2016-12-31T23:59:60Z', to: '2017-01-02', tz: 'UTC' }, /^from: leap seconds/],
    ['from', { from: '2026-11-24T24:00:00Z', to: '2026-11-25', tz: 'UTC' }, /^from: is not a real time/],
    ['from', { from: '2026-11-24T10:00:00+24:00', to: '2026-11-25', tz: 'UTC' }, /^from: has an impossible UTC offset/],
    ['from', { from: '2026-11-24\u0000', to: '2026-11-25', tz: 'UTC' }, /^from: must be a date/],
    ['from', { from: '2026-11-24T10:00:00', to: '2026-11-25', tz: 'UTC' }, /^from: must be a date/],
    ['from', { from: 'yesterday', to: '2026-11-25', tz: 'UTC' }, /^from: must be a date/],
    ['from', { from: '+02026-11-24', to: '2026-11-25', tz: 'UTC' }, /^from: must be a date/],
    ['from', { from: '2026-11-24'.repeat(10), to: '2026-11-25', tz: 'UTC' }, /^from: must be a date/],
    ['to', { from: '2026-11-24', to: '2026-11-24', tz: 'UTC' }, /^to: must be after from/],
    ['to', { from: '2026-11-25', to: '2026-11-24', tz: 'UTC' }, /^to: must be after from/],
    ['to', { from: '2026-11-24', tz: 'UTC' }, /^to: give both/],
    ['from', { to: '2026-11-24', tz: 'UTC' }, /^from: give both/],
    ['tz', { tz: 'Mars/Olympus' }, /^tz: is not a known time zone/],
    ['tz', { tz: 'Europe/Berlin\u0000' }, /^tz: must be an IANA time zone/],
    ['tz', { tz: '+01:00' }, /^tz: must be an IANA time zone/],
    ['tz', { tz: '../../etc/passwd' }, /^tz: must be an IANA time zone/],
    ['tz', { tz: '' }, /^tz: must be an IANA time zone/],
  ])('%s: %j', (_f, p, re) => {
    expect(refused(() => resolveRange(p as never))).toMatch(re);
  });

  it("accepts a canonical zone and gives Intl's spelling", () => {
    expect(checkZone('utc')).toBe('UTC');
    expect(checkZone('Europe/Berlin')).toBe('Europe/Berlin');
  });
});

describe('decimalSub (fiat net)', () => {
  it('is exact', () => {
    expect(decimalSub('12.30', '0')).toBe('12.30');
    expect(decimalSub('0.1', '0.25')).toBe('-0.15');
    expect(decimalSub('100000000000000000000.01', '0.01')).toBe('100000000000000000000.00');
  });
});
