// Amounts, counts and times as the back office shows them in a language (docs/using-counter.md#languages). English
// keeps the exact text the pages always showed ("1234.5 DOGE", "24 Nov 2026, 14:05 UTC"); the
// other languages get their own separators and date words ("1.234,50 DOGE", "24. Nov. 2026,
// 14:05 UTC"), always in the store's time zone. Digits come from the exact decimal strings
// (lib/money), never from a float. Pure.
import { formatKoinu, parseKoinu } from '../money';
import { formatStoreTime, type TimeStyle } from '../time';
import { INTL_TAG, isLocale } from './locales';
import { localeDecimal, separators } from './numbers';

/** A decimal string ("1234.5", "-0.12") in a language's separators, its digits untouched: de "1.234,5". */
export function localeNumber(s: string, locale: string): string {
  if (locale === 'en' || !/^-?\d+(\.\d+)?$/.test(s)) return s;
  const { decimal, group } = separators(locale);
  const neg = s.startsWith('-');
  const [whole, frac] = (neg ? s.slice(1) : s).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${neg ? '-' : ''}${grouped}${frac === undefined ? '' : decimal + frac}`;
}

/** A DOGE amount (8-DP string or koinu): en "1234.5 DOGE" (as always), de "1.234,50 DOGE". */
export function dogeAmount(v: string | bigint, locale: string): string {
  if (locale === 'en') return `${typeof v === 'bigint' ? formatKoinu(v) : v} DOGE`;
  let k: bigint;
  try {
    k = typeof v === 'bigint' ? v : parseKoinu(v, { allowNegative: true });
  } catch {
    return `${v} DOGE`;
  }
  return `${k < 0n ? '-' : ''}${localeDecimal(k < 0n ? -k : k, locale)} DOGE`;
}

/** A time in the store's zone, in a language's words: en keeps the store's own format. */
export function storeTime(at: Date | string | null | undefined, tz: string, locale: string, style: TimeStyle = 'datetime'): string {
  return formatStoreTime(at, tz, { style, locale: locale !== 'en' && isLocale(locale) ? INTL_TAG[locale] : undefined });
}
