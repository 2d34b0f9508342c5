'use client';
// The sale screen: product grid, keypad (custom amounts, fee, shipping, discount, tip), cart
// and Charge. Charging creates the payment through the vendor API and hands over to the
// payment screen. All amounts are koinu bigints (lib/pos/cart, lib/money).
// The till never loses a sale (docs/using-counter.md#the-till-pos): the cart scrolls, not the page, so the total and
// Charge stay on screen; today's sales follow a light poll (which also tells whether the till is
// connected); a waiting sale can be reopened; the physical keyboard types amounts.
// The state lives in useTill (use-till.ts) and its hooks; this file lays out the panes.
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import type { PosProduct, PosStore, RecentSale } from '@/lib/pos';
import { PaymentScreen } from './payment-screen';
import { RecentSales } from './recent-sales';
import type { TillReadiness } from './readiness';
import { LiveBanner, useConfirm, useSoundSetting } from './till-ui';
import { TillHeader, type TillUser } from './till-header';
import type { TillDeviceProps } from './till-device';
import type { TillStore } from './till-menu';
import { SellTabs } from './sell-tabs';
import { ProductPane } from './product-pane';
import { KeypadPane } from './keypad';
import { CartPane } from './cart-pane';
import { ChargeButton, ChargeNotices, TipWaiting } from './charge-button';
import { CashTender } from './cash-charge';
import { useTill } from './use-till';
import { useHydrated } from '@/app/_lib/use-hydrated';
import { usePublishCart } from './use-publish-cart';
import { OptionsDialog } from './options-dialog';
import { TicketBar } from './tickets';
import s from './pos.module.css';

export function Cashier({
  products,
  categories = [],
  store,
  sales,
  user,
  denied,
  demoWallet = false,
  readiness,
  device,
  stores = { list: [], current: 0 },
}: {
  products: PosProduct[];
  /** The category tabs, in the store's order (docs/catalog.md). */
  categories?: string[];
  store: PosStore;
  sales: RecentSale[];
  user: TillUser;
  /** The till's device (till-device.tsx): Lock and Customer display, or registering this browser. */
  device?: TillDeviceProps;
  /** The stores the user belongs to and the one this till acts for, for the Menu's store select. */
  stores?: { list: TillStore[]; current: number };
  denied: boolean;
  /** devnet only: offer the demo wallet (/demo/wallet?uri=…) on the payment screen. */
  demoWallet?: boolean;
  /** Whether the store can take money (docs/operations.md#readiness), as the page saw it; re-checked here. */
  readiness: TillReadiness;
}) {
  const t = useTranslations('till');
  const till = useTill({ products, store, sales, readiness });
  const { currency, cart, charging, offline } = till;
  const payment = charging.payment;
  usePublishCart(cart.lines, cart.extras, currency, payment?.id ?? null); // the customer's display (docs/counter.md)
  const [sseLive, setSseLive] = useState(true);
  const [sound, setSound] = useSoundSetting();
  const { ask, dialog } = useConfirm();
  const hydrated = useHydrated();
  const liveDown = offline || (payment !== null && !sseLive);
  // The customer is asked a percentage of this total: the sale stays as it is until they answer or Skip tip.
  const locked = till.tipWait.waiting;
  const header = (
    <TillHeader
      store={{ id: stores.current, name: store.name, stores: stores.list }}
      user={user}
      device={device}
      sound={sound}
      onSound={setSound}
    />
  );

  if (payment) {
    return (
      <div className={s.app}>
        {header}
        <LiveBanner down={liveDown} />
        {till.error ? (
          <p className={s.notice} role="alert">
            {till.error}
          </p>
        ) : null}
        <PaymentScreen
          key={payment.id}
          payment={payment}
          fiatCurrency={store.fiatCurrency}
          onNewSale={till.newSale}
          onChargeAgain={charging.chargeAgain}
          demoWallet={demoWallet}
          connected={till.reachable}
          onLiveChange={setSseLive}
          sound={sound}
          ask={ask}
        />
        {dialog}
      </div>
    );
  }

  return (
    <div className={`${s.app} ${s.saleApp}`} data-hydrated={hydrated ? '' : undefined}>
      {header}
      <LiveBanner down={liveDown} />
      {denied ? (
        <p className={s.notice} role="status">
          {t('denied')}
        </p>
      ) : null}
      <main className={s.sale}>
        <div className={s.left} inert={locked}>
          <SellTabs tab={till.tab} onTab={till.setTab}>
            {till.tab === 'products' ? (
              <ProductPane
                products={products}
                categories={categories}
                filter={till.filter}
                inCart={cart.inCart}
                onAdd={till.pick}
                currency={currency}
              />
            ) : (
              <KeypadPane keypad={till.keypad} currency={currency} tipsEnabled={store.tipsEnabled} />
            )}
          </SellTabs>
          <RecentSales sales={till.sales} onReopen={charging.reopen} offline={offline} />
        </div>
        <CartPane cart={cart} currency={currency} store={store} onClearSale={till.clearSale} headingRef={till.cartHeading} locked={locked}>
          <TicketBar
            tickets={till.tickets}
            cartEmpty={cart.lines.length === 0 && cart.totals.total === 0n}
            disabled={!hydrated || charging.busy || offline || locked}
            confirmReplace={() => ask(t('replaceCartTitle'), t('replaceCartBody'), t('replaceCartYes'))}
          />
          <ChargeNotices error={till.error} offline={offline} readiness={till.readiness} />
          {till.tipWait.waiting ? (
            <TipWaiting onSkip={till.tipWait.skip} />
          ) : (
            <ChargeButton
              total={cart.totals.total}
              currency={currency}
              busy={charging.busy}
              offline={offline}
              readiness={till.readiness}
              onCharge={() => void till.chargeAskingTip()}
            />
          )}
          <CashTender
            store={store}
            currency={currency}
            cart={cart}
            disabled={!hydrated || charging.busy || cart.totals.total <= 0n || offline || locked}
            ticketId={till.tickets.held?.id ?? null}
          />
        </CartPane>
      </main>
      {till.optionsFor ? (
        <OptionsDialog
          key={till.optionsFor.id}
          product={till.optionsFor}
          currency={currency}
          onCancel={till.closeOptions}
          onAdd={(p, chosen) => {
            cart.add(p, chosen);
            till.closeOptions();
          }}
        />
      ) : null}
      {dialog}
    </div>
  );
}
