// The till's pricing currency (docs/using-counter.md#pricing-in-dollars-euros-fiat-pricing): amounts shown in it, the keypad's digits, the
// plain words for a missing exchange rate, and the rate a fiat-priced payment was locked at.
// Kept apart from the sale screen so the sale screen only swaps its DOGE pieces for these.
import { useLocale } from 'next-intl';
import { DOGE_CURRENCY, currencyDigits, moneyText } from '@/lib/pos/client';
import { localizeDecimalString } from '@/lib/i18n';
import s from './pos.module.css';

/** An amount of the pricing currency (koinu for DOGE, minor units otherwise): "Ð 1.50", "$2.50". */
export function Money({ k, currency }: { k: bigint; currency: string }) {
  const locale = useLocale();
  return <span className={s.doge}>{moneyText(k, currency, locale)}</span>;
}

/** The keypad's display: what has been typed, with the currency's symbol. */
export function keypadDisplay(entry: string, currency: string, locale = 'en'): string {
  if (currency === DOGE_CURRENCY) return entry ? `Ð ${localizeDecimalString(entry, locale)}` : 'Ð 0';
  return `${currency} ${entry ? localizeDecimalString(entry, locale) : '0'}`;
}

/** Decimals the keypad accepts in the pricing currency. */
export const keypadDigits = currencyDigits;

/** What the cashier reads when a charge is refused for want of a rate (503 rate_unavailable). */

export interface LockedRateView {
  pair: string;
  value: string;
  source: string;
  at: string;
}

/** The rate a fiat-priced payment was converted at, under its amount on the payment screen. */
export function LockedRate({ rate, fiatTotal, fiatCurrency }: { rate?: LockedRateView | null; fiatTotal?: string; fiatCurrency?: string }) {
  if (!rate) return null;
  const [, code] = rate.pair.split('/');
  return (
    <span className={s.fiatBig} data-testid="locked-rate">
      {fiatTotal ? (
        <>
          Priced {fiatTotal} {fiatCurrency};{' '}
        </>
      ) : null}
      rate 1 DOGE = {rate.value} {code}
      <small title={`sources: ${rate.source}, as of ${rate.at}`}> (locked)</small>
    </span>
  );
}
