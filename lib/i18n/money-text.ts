// Amounts for people, in DOGE or a fiat currency, the way the till, the receipts and the
// customer's screens show them: "Ð 1,234.50", "$2.50", "2,50 €" (Intl over a decimal string,
// never a float), in the language's own separators when one is given.
import { formatKoinu, parseKoinu, formatFiatMinor, currencyMinorDigits } from '../money';
import { localeDecimal } from './numbers';

/** The DOGE pricing currency (lib/pos/cart.ts DOGE_CURRENCY): its amounts are koinu. */
const DOGE = 'DOGE';

/** A cart amount for people: "Ð 1,234.50", or "$2.50" / "2,50 €" through Intl (exact: a decimal string, never a float). */
export function moneyText(minor: bigint, currency: string, locale?: string): string {
  if (currency === DOGE) return dogeText(minor, locale);
  const digits = currencyMinorDigits(currency);
  const nf = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
  return nf.format(formatFiatMinor(minor, currency) as unknown as number); // a decimal string: formatted exactly (Intl.NumberFormat v3);
}

/** Koinu for display: at least 2 decimals, thousands grouped ("1,234.50", "-5.00", "0.12345678"). */
export function displayDoge(k: bigint): string {
  const s = formatKoinu(k < 0n ? -k : k);
  const [whole, frac = ''] = s.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${k < 0n ? '-' : ''}${grouped}.${frac.padEnd(2, '0')}`;
}

/**
 * An amount for people: "Ð 1,234.50", "−Ð 1.00"; in a language's own separators when given
 * ("de": "Ð 1.234,50"). Takes koinu or an 8-DP string.
 */
export function dogeText(v: bigint | string, locale?: string): string {
  const k = typeof v === 'bigint' ? v : parseKoinu(v, { allowNegative: true });
  const abs = k < 0n ? -k : k;
  return `${k < 0n ? '−' : ''}Ð ${locale ? localeDecimal(abs, locale) : displayDoge(abs)}`;
}
