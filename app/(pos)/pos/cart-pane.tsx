'use client';
// The cart pane: the lines with their steppers, the totals (tax, the extras with Remove, the
// grand total and its fiat value), then whatever stops the sale (an error, offline, not ready)
// and the tender buttons the sale screen passes as children (Charge). It scrolls, not the page,
// so the total and Charge stay on screen however long the cart is (docs/using-counter.md#the-till-pos).
import { useTranslations } from 'next-intl';
import { fiatOf, DOGE_CURRENCY, type CartLine } from '@/lib/pos/client';
import type { PosStore } from '@/lib/pos';
import type { Cart, ExtraKind } from './use-cart';
import { Money } from './pricing';
import s from './pos.module.css';

export function CartPane({
  cart,
  currency,
  store,
  onClearSale,
  headingRef,
  locked = false,
  children,
}: {
  cart: Cart;
  currency: string;
  store: Pick<PosStore, 'fiatCurrency' | 'fiatRate'>;
  onClearSale: () => void;
  /** The cart's heading, focused after New sale. */
  headingRef: React.Ref<HTMLHeadingElement>;
  /** While the customer's display asks for the tip, the lines take no change (docs/counter.md#tips-on-the-customers-display). */
  locked?: boolean;
  /** The error, offline or not-ready notice, and the tender buttons. */
  children: React.ReactNode;
}) {
  const t = useTranslations('till');
  const { lines, totals } = cart;
  return (
    <section className={s.cart} aria-label={t('cart')}>
      <div className={s.cartHead}>
        <h2 ref={headingRef} tabIndex={-1}>
          {t('cart')} {totals.count ? <span className={s.count}>{totals.count}</span> : null}
        </h2>
        {(lines.length || totals.total) && !locked ? (
          <button type="button" className={s.link} onClick={onClearSale}>
            {t('clearSale')}
          </button>
        ) : null}
      </div>
      {lines.length === 0 ? <p className={s.empty}>{t('emptyCart')}</p> : null}
      <ul className={s.lines} inert={locked}>
        {lines.map((l) => (
          <CartLineRow key={l.key} line={l} currency={currency} onBump={cart.bump} />
        ))}
      </ul>
      <div className={s.checkout}>
        <CartTotals cart={cart} currency={currency} store={store} />
        {children}
      </div>
    </section>
  );
}

function CartLineRow({ line: l, currency, onBump }: { line: CartLine; currency: string; onBump: (key: string, d: number) => void }) {
  const t = useTranslations('till');
  return (
    <li className={s.line} data-testid="cart-line">
      <div className={s.lineMain}>
        <span className={s.lineName}>{l.name}</span>
        {l.options?.length ? (
          <span className={s.lineOptions} data-testid="cart-line-options">
            {l.options.join(', ')}
          </span>
        ) : null}
        <span className={s.lineSub}>
          {t.rich('each', { price: () => <Money currency={currency} k={l.unit} /> })}
          {l.taxRateBp ? ` · ${t('lineTax', { rate: l.taxRateBp / 100 })}` : ''}
        </span>
      </div>
      <div className={s.stepper}>
        <button type="button" onClick={() => onBump(l.key, -1)} aria-label={t('oneLess', { name: l.name })}>
          −
        </button>
        <span aria-label={t('lineCount', { name: l.name })}>{l.count}</span>
        <button type="button" onClick={() => onBump(l.key, 1)} aria-label={t('oneMore', { name: l.name })}>
          +
        </button>
      </div>
      <span className={s.lineTotal}>
        <Money currency={currency} k={BigInt(l.count) * l.unit} />
      </span>
    </li>
  );
}

function CartTotals({ cart, currency, store }: { cart: Cart; currency: string; store: Pick<PosStore, 'fiatCurrency' | 'fiatRate'> }) {
  const t = useTranslations('till');
  const { totals, extras } = cart;
  const extraRows: [ExtraKind, string, bigint][] = [
    ['fee', t('modeFee'), extras.fee],
    ['shipping', t('modeShipping'), extras.shipping],
    ['discount', t('modeDiscount'), -extras.discount],
    ['tip', t('modeTip'), extras.tip],
  ];
  // A DOGE-priced store may show the fiat value at its set rate; a fiat-priced one already is fiat.
  const fiat = currency === DOGE_CURRENCY && store.fiatCurrency ? fiatOf(totals.total, store.fiatRate) : null;
  return (
    <dl className={s.totals}>
      <div>
        <dt>{t('subtotal')}</dt>
        <dd>
          <Money currency={currency} k={totals.subtotal} />
        </dd>
      </div>
      {totals.tax ? (
        <div>
          <dt>{t('tax')}</dt>
          <dd data-testid="cart-tax">
            <Money currency={currency} k={totals.tax} />
          </dd>
        </div>
      ) : null}
      {extraRows
        .filter(([, , v]) => v !== 0n)
        .map(([k, label, v]) => (
          <div key={k}>
            <dt>
              {label}{' '}
              <button type="button" className={s.link} onClick={() => cart.setExtra(k, 0n)} aria-label={t('removeExtra', { kind: k })}>
                {t('remove')}
              </button>
            </dt>
            <dd>
              <Money currency={currency} k={v} />
            </dd>
          </div>
        ))}
      <div className={s.grand}>
        <dt>{t('total')}</dt>
        <dd data-testid="cart-total">
          <Money currency={currency} k={totals.total} />
        </dd>
      </div>
      {fiat !== null ? (
        <div className={s.fiat}>
          <dt>{t('inFiat', { currency: store.fiatCurrency })}</dt>
          <dd>
            ≈ {fiat} {store.fiatCurrency}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}
