// The back office's amounts and times in a language (lib/i18n/display, docs/using-counter.md#languages): English is
// byte for byte what the pages always showed; German and Portuguese get their separators and date
// words, from the exact decimal digits (no float), in the store's time zone.
import { describe, expect, it } from 'vitest';
import { dogeAmount, localeNumber, storeTime } from '@/lib/i18n/display';

describe('dogeAmount', () => {
  it('keeps English as it was: the plain decimal and " DOGE"', () => {
    expect(dogeAmount('1234.5', 'en')).toBe('1234.5 DOGE');
    expect(dogeAmount(123_450_000_000n, 'en')).toBe('1234.5 DOGE');
    expect(dogeAmount(0n, 'en')).toBe('0 DOGE');
  });
  it('writes other languages with their separators and two decimals at least', () => {
    expect(dogeAmount('1234.5', 'de')).toBe('1.234,50 DOGE');
    expect(dogeAmount('1234567.12345678', 'pt')).toBe('1.234.567,12345678 DOGE');
    expect(dogeAmount('-3', 'es')).toBe('-3,00 DOGE');
    expect(dogeAmount(1n, 'de')).toBe('0,00000001 DOGE');
  });
  it('shows what is not an amount as it is', () => {
    expect(dogeAmount('n/a', 'de')).toBe('n/a DOGE');
  });
});

describe('localeNumber', () => {
  it('changes only the separators, never the digits', () => {
    expect(localeNumber('12.5', 'en')).toBe('12.5');
    expect(localeNumber('12.5', 'de')).toBe('12,5');
    expect(localeNumber('1234567.891', 'pt')).toBe('1.234.567,891');
    expect(localeNumber('-0.12', 'es')).toBe('-0,12');
    expect(localeNumber('100', 'de')).toBe('100');
    expect(localeNumber('abc', 'de')).toBe('abc');
  });
});

describe('storeTime', () => {
  const at = '2026-11-24T19:05:00Z';
  it('is the store zone in every language; English keeps its format', () => {
    expect(storeTime(at, 'America/New_York', 'en')).toBe('24 Nov 2026, 14:05 EST');
    expect(storeTime(at, 'America/New_York', 'de')).toMatch(/^24\. Nov\. 2026, 14:05 EST$/);
    expect(storeTime(at, 'Europe/Berlin', 'pt', 'date')).toMatch(/^24 de nov\.? de 2026$/);
    expect(storeTime(null, 'UTC', 'de')).toBe('');
  });
});
