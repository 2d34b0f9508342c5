// Numbers as each language writes them, for amounts: the decimal and grouping separators come
// from Intl (formatToParts of a sample number), the digits from the exact koinu string
// (lib/money), so no amount ever passes through a float. Pure.
import { formatKoinu, parseKoinu, AmountError } from '../money';
import { INTL_TAG, isLocale, type Locale } from './locales';

export interface Separators {
  decimal: string;
  group: string;
}

const cache = new Map<string, Separators>();

/** The decimal and grouping separators of a language ("de": "," and "."). */
export function separators(locale: string): Separators {
  const tag = isLocale(locale) ? INTL_TAG[locale] : locale;
  let s = cache.get(tag);
  if (!s) {
    const parts = new Intl.NumberFormat(tag, { useGrouping: true }).formatToParts(12345.6);
    s = {
      decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
      // a narrow no-break space (some locales) is kept as it is
      group: parts.find((p) => p.type === 'group')?.value ?? ',',
    };
    cache.set(tag, s);
  }
  return s;
}

/** Koinu with at least 2 decimals, thousands grouped, in a language: en "1,234.50", de "1.234,50". */
export function localeDecimal(k: bigint, locale: Locale | string = 'en'): string {
  const { decimal, group } = separators(locale);
  const s = formatKoinu(k < 0n ? -k : k);
  const [whole, frac = ''] = s.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${k < 0n ? '-' : ''}${grouped}${decimal}${frac.padEnd(2, '0')}`;
}

/** A plain decimal string ("12.5", "0.12") written with the language's decimal separator ("12,5"). */
export function localizeDecimalString(s: string, locale: Locale | string = 'en'): string {
  return s.replace('.', separators(locale).decimal);
}

/**
 * An amount a person typed, read the way their language writes it: de/es/pt "1.234,5" and
 * "12,5", en "1,234.5" and "12.5". Grouping separators are accepted only in whole groups of
 * three digits, so "1.234" is 1234 in German and 1.234 in English, and a grouping that does not
 * fit ("12.5" in German, "1,23" in English… when a decimal is also present) is an AmountError,
 * never a guess. A lone "other" separator with no grouping shape ("12,5" in English, "12.5" in
 * German) is the decimal point people type from habit or a numpad. Exact: lib/money parses it.
 */
export function parseLocaleAmount(input: string, locale: Locale | string = 'en', opts: { allowNegative?: boolean } = {}): bigint {
  const { decimal, group } = separators(locale);
  let t = input.trim();
  let sign = '';
  if (t.startsWith('-')) {
    sign = '-';
    t = t.slice(1);
  }
  const groups = [group, group === '\u202f' || group === '\u00a0' ? ' ' : group];
  const esc = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const g = `(?:${[...new Set(groups)].map(esc).join('|')})`;
  const d = esc(decimal);
  const grouped = new RegExp(`^\\d{1,3}(?:${g}\\d{3})+(?:${d}\\d*)?$`);
  const plain = new RegExp(`^\\d*(?:${d}\\d*)?$`);
  let canonical: string;
  if (grouped.test(t)) canonical = t.replace(new RegExp(g, 'g'), '').replace(decimal, '.');
  else if (plain.test(t)) canonical = t.replace(decimal, '.');
  else {
    // The other separator alone, once, with no digits grouped by three behind it: a decimal point.
    const other = decimal === ',' ? '.' : ',';
    const m = new RegExp(`^\\d*${esc(other)}\\d*$`).exec(t);
    if (!m || t.split(other)[1]?.length === 3)
      throw new AmountError('malformed', `amount is not a number in this language: ${JSON.stringify(input.slice(0, 40))}`);
    canonical = t.replace(other, '.');
  }
  return parseKoinu(sign + canonical, opts);
}
