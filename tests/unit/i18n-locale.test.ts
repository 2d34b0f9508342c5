// Languages (docs/using-counter.md#languages): which language a request gets, amounts in each language's own
// separators (exact, never through a float), and typed amounts read the way each language
// writes them, without mistaking a thousands separator for a decimal point.
import { describe, expect, it } from 'vitest';
import { negotiateLocale, pickLocale, isLocale } from '@/lib/i18n/locales';
import { localeDecimal, localizeDecimalString, parseLocaleAmount, separators } from '@/lib/i18n/numbers';
import { dogeText, keypadKoinu, keypadPress, keyboardKeypadKey } from '@/lib/pos/cart';
import { AmountError } from '@/lib/money';
import { formatStoreTime } from '@/lib/time/zone';
import { cashierExplanation, cashierReasonKeys } from '@/lib/readiness';
import { posStatusMessage } from '@/lib/pos/payment-state';

describe('which language', () => {
  it('Accept-Language: by q, then order; regions match their language; unknown gives null', () => {
    expect(negotiateLocale('de-CH,de;q=0.9,en;q=0.8')).toBe('de');
    expect(negotiateLocale('fr-FR,fr;q=0.9,pt-BR;q=0.8,en;q=0.7')).toBe('pt');
    expect(negotiateLocale('en;q=0.5,es;q=0.9')).toBe('es');
    expect(negotiateLocale('fr,it')).toBeNull();
    expect(negotiateLocale('*')).toBeNull();
    expect(negotiateLocale('de;q=0,es')).toBe('es');
    expect(negotiateLocale(';;,q=,de;q=abc')).toBeNull();
    expect(negotiateLocale(undefined)).toBeNull();
  });
  it("the user's choice, else the cookie, else the browser, else English", () => {
    expect(pickLocale({ user: 'de', cookie: 'es', acceptLanguage: 'pt' })).toBe('de');
    expect(pickLocale({ user: '', cookie: 'es', acceptLanguage: 'pt' })).toBe('es');
    expect(pickLocale({ user: '', cookie: 'xx', acceptLanguage: 'pt-PT' })).toBe('pt');
    expect(pickLocale({})).toBe('en');
    expect(isLocale('fr')).toBe(false);
  });
});

describe('amounts in each language', () => {
  it('uses the language separators, exactly', () => {
    expect(separators('de')).toEqual({ decimal: ',', group: '.' });
    expect(separators('en')).toEqual({ decimal: '.', group: ',' });
    expect(localeDecimal(1_234_50_000_000n, 'en')).toBe('1,234.50');
    expect(localeDecimal(1_234_50_000_000n, 'de')).toBe('1.234,50');
    expect(localeDecimal(1_234_50_000_000n, 'es')).toBe('1.234,50');
    expect(localeDecimal(1_234_50_000_000n, 'pt')).toBe('1.234,50');
    // 8 decimals and 11 digits survive: no float on the way
    expect(localeDecimal(9_999_999_999_12345678n, 'de')).toBe('9.999.999.999,12345678');
    expect(dogeText('12.5', 'de')).toBe('Ð 12,50');
    expect(dogeText(-100_000_000n, 'pt')).toBe('−Ð 1,00');
    expect(dogeText('12.5')).toBe('Ð 12.50'); // English stays as it was
    expect(localizeDecimalString('2.5', 'de')).toBe('2,5');
  });
  it('dates in the language, times in the store zone', () => {
    const at = '2026-11-24T13:05:00Z';
    expect(formatStoreTime(at, 'Europe/Berlin', { locale: 'de-DE' })).toMatch(/^24\. Nov\.? 2026, 14:05 GMT\+1$/);
    expect(formatStoreTime(at, 'Europe/Berlin', { locale: 'es-ES' })).toMatch(/^24 nov 2026, 14:05 GMT\+1$/);
  });
});

describe('typed amounts', () => {
  const k = (s: string) => BigInt(Math.round(Number(s) * 1e4)) * 10_000n; // test helper only: short literals
  it('German, Spanish, Portuguese: "12,5" and "1.234,5"; English: "12.5" and "1,234.5"', () => {
    for (const l of ['de', 'es', 'pt']) {
      expect(parseLocaleAmount('12,5', l)).toBe(k('12.5'));
      expect(parseLocaleAmount('1.234,5', l)).toBe(k('1234.5'));
      expect(parseLocaleAmount('1.234', l)).toBe(k('1234')); // a thousands separator, not 1.234
    }
    expect(parseLocaleAmount('12.5', 'en')).toBe(k('12.5'));
    expect(parseLocaleAmount('1,234.5', 'en')).toBe(k('1234.5'));
    expect(parseLocaleAmount('1,234', 'en')).toBe(k('1234'));
  });
  it('a decimal point from habit is understood; a grouping that does not fit is refused', () => {
    expect(parseLocaleAmount('12.5', 'de')).toBe(k('12.5'));
    expect(parseLocaleAmount('15,50', 'en')).toBe(k('15.5'));
    expect(() => parseLocaleAmount('1,23,4', 'en')).toThrow(AmountError);
    expect(() => parseLocaleAmount('1.234.5', 'de')).toThrow(AmountError);
    expect(() => parseLocaleAmount('1234,567', 'en')).toThrow(AmountError); // 1,234,567 or 1234.567? never guessed
    expect(() => parseLocaleAmount('12,5', 'de', {})).not.toThrow();
    expect(() => parseLocaleAmount('-1,5', 'de')).toThrow(AmountError);
    expect(parseLocaleAmount('-1,5', 'de', { allowNegative: true })).toBe(-k('1.5'));
  });
  it('the keypad: "12,5" and "12.5" are 12.5; a thousands separator followed by a decimal is dropped', () => {
    const type = (keys: string) => [...keys].map(keyboardKeypadKey).reduce<string>((e, x) => keypadPress(e, x!), '');
    expect(keypadKoinu(type('12,5'))).toBe(k('12.5'));
    expect(keypadKoinu(type('12.5'))).toBe(k('12.5'));
    expect(type('1,234.50')).toBe('1234.50');
    expect(type('1.234,50')).toBe('1234.50');
    expect(keypadKoinu(type('1.234,50'))).toBe(k('1234.5'));
    expect(type('1.5.')).toBe('1.5');
  });
});

describe('message keys for the translated till', () => {
  it('readiness reasons as keys, the English sentence unchanged', () => {
    expect(cashierReasonKeys(['not_synced'])).toEqual({ reasons: ['not_synced'], onlyWaiting: true });
    expect(cashierReasonKeys(['public_url_localhost', 'public_url_not_https', 'no_wallet'])).toEqual({
      reasons: ['public_url', 'no_wallet'],
      onlyWaiting: false,
    });
    expect(cashierReasonKeys(['bogus'])).toEqual({ reasons: [], onlyWaiting: false });
    expect(cashierExplanation(['no_wallet'])).toBe("Counter can't take payments yet: no receiving wallet is set up. Ask the owner.");
  });
  it('status keys; a server reason is shown as given', () => {
    expect(posStatusMessage('accepted', { status: 'accepted', required: 3, confirmed: 1 })).toEqual({
      title: 'accepted',
      detail: 'acceptedProgress',
      values: { n: 1, m: 3 },
    });
    expect(posStatusMessage('accepted', { status: 'accepted', required: 1, confirmed: 4 })).toEqual({
      title: 'accepted',
      detail: 'acceptedDone',
      values: { n: 4 },
    });
    expect(
      posStatusMessage('declined', { status: 'declined', exception: 'marked_invalid', reason: 'marked invalid by merchant' }).reason,
    ).toBeUndefined();
    expect(posStatusMessage('declined', { status: 'declined', reason: 'fraud' }).reason).toBe('fraud');
  });
});
