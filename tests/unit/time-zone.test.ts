import { describe, expect, it } from 'vitest';
import {
  defaultTimeZone,
  formatStoreTime,
  isValidTimeZone,
  localDate,
  localDateTime,
  startOfLocalDay,
  storeTimeZone,
} from '@/lib/time/zone';

describe('store time zone helper', () => {
  it('validates IANA names with Intl', () => {
    expect(isValidTimeZone('America/New_York')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
    expect(isValidTimeZone('America/New_York\n')).toBe(false);
  });

  it('defaults to env TZ, then UTC', () => {
    expect(defaultTimeZone({ TZ: 'Europe/Berlin' })).toBe('Europe/Berlin');
    expect(defaultTimeZone({ TZ: 'nonsense/zone' })).toBe('UTC');
    expect(defaultTimeZone({})).toBe('UTC');
    expect(storeTimeZone('', { TZ: 'Asia/Tokyo' })).toBe('Asia/Tokyo');
    expect(storeTimeZone('America/New_York', { TZ: 'Asia/Tokyo' })).toBe('America/New_York');
  });

  it('shows the local time with the zone abbreviation', () => {
    const at = new Date('2026-11-24T19:05:00Z');
    expect(formatStoreTime(at, 'America/New_York', { style: 'time' })).toBe('14:05 EST');
    expect(formatStoreTime(at, 'America/New_York')).toMatch(/24 Nov 2026.*14:05 EST/);
    expect(formatStoreTime('2026-07-01T19:05:00Z', 'America/New_York', { style: 'time' })).toBe('15:05 EDT');
    expect(formatStoreTime(at, 'UTC', { style: 'time' })).toBe('19:05 UTC');
    expect(formatStoreTime('', 'UTC')).toBe('');
  });

  it("today's midnight in the store's zone, across DST", () => {
    // 03:00 UTC on 24 Nov is still 23 Nov in New York (22:00 EST): the day began 23 Nov 05:00Z.
    expect(startOfLocalDay(new Date('2026-11-24T03:00:00Z'), 'America/New_York').toISOString()).toBe('2026-11-23T05:00:00.000Z');
    expect(startOfLocalDay(new Date('2026-07-01T12:00:00Z'), 'America/New_York').toISOString()).toBe('2026-07-01T04:00:00.000Z');
    // the day DST starts (8 Mar 2026 in the US): midnight was still EST
    expect(startOfLocalDay(new Date('2026-03-08T20:00:00Z'), 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(startOfLocalDay(new Date('2026-11-24T03:00:00Z'), 'Asia/Kolkata').toISOString()).toBe('2026-11-23T18:30:00.000Z');
    expect(startOfLocalDay(new Date('2026-11-24T03:00:00Z'), 'UTC').toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(localDate(new Date('2026-11-24T03:00:00Z'), 'America/New_York')).toBe('2026-11-23');
    expect(localDateTime(new Date('2026-11-24T03:00:00Z'), 'America/New_York')).toBe('2026-11-23 22:00:00');
  });
});
