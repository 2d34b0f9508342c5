'use client';
// The till's state in one place: the cart, the keypad, the product filter, the charge and its
// payment, today's sales and whether Counter answers, the store's readiness and the screen's one
// error. The sale as it stands is `cart` (lines, totals) and `charging.payment`: whatever follows
// the sale (a customer display) observes them here. The sale screen (cashier.tsx) only draws.
import { useCallback, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { DOGE_CURRENCY, findByCode } from '@/lib/pos/client';
import type { PosProduct, PosStore, RecentSale } from '@/lib/pos';
import { useTillReadiness, type TillReadiness } from './readiness';
import { useBarcodeScanner } from './use-barcode-scanner';
import { useProductFilter } from './product-pane';
import type { SellTab } from './sell-tabs';
import { useCart } from './use-cart';
import { useKeyboardKeypad, useKeypad } from './use-keypad';
import { useCharge } from './use-charge';
import { useSales } from './use-sales';
import { useTickets } from './use-tickets';
import { useTipWait } from './use-tip-wait';

export function useTill({
  products,
  store,
  sales: initialSales,
  readiness: initialReadiness,
}: {
  products: PosProduct[];
  store: PosStore;
  sales: RecentSale[];
  readiness: TillReadiness;
}) {
  const t = useTranslations('till');
  // Prices, keypad and cart are in the store's pricing currency (docs/using-counter.md#pricing-in-dollars-euros-fiat-pricing).
  const currency = store.pricingCurrency || DOGE_CURRENCY;
  const [error, setError] = useState('');
  const [tab, setTab] = useState<SellTab>(products.length ? 'products' : 'keypad');
  const cartHeading = useRef<HTMLHeadingElement>(null);
  const readiness = useTillReadiness(initialReadiness);
  const { sales, reachable, refresh } = useSales(initialSales, store.timeZone);
  const offline = !reachable; // the till refuses to charge
  const cart = useCart(useCallback(() => setError(''), []));
  const keypad = useKeypad(cart, currency, setError);
  const filter = useProductFilter(products);
  // Save sale parks the cart as an open ticket (docs/counter.md#open-tickets), and the till starts afresh.
  const tickets = useTickets(cart, currency, () => {
    cart.clear();
    keypad.reset();
  });
  const charging = useCharge({
    ticketId: tickets.held?.id ?? null,
    lines: cart.lines,
    extras: cart.extras,
    store,
    currency,
    canCharge: readiness.ready && !offline,
    onNotReady: readiness.refused,
    onStarted: () => void refresh(),
    setError,
  });
  const onSaleScreen = !charging.payment;
  const tipWait = useTipWait(setError);

  /**
   * Charge: with tips on, the customer's display asks for the tip first, on the total before any
   * tip (docs/counter.md#tips-on-the-customers-display); without a paired display, at once.
   */
  async function chargeAskingTip() {
    if (!store.tipsEnabled || !readiness.ready || offline || tipWait.waiting) return charging.charge();
    const base = cart.totals.total - cart.totals.tip;
    const outcome = await tipWait.ask(base, currency);
    if (typeof outcome !== 'bigint') return charging.charge();
    cart.setExtra('tip', outcome);
    return charging.charge(outcome);
  }
  // A product with options opens its dialog first (docs/catalog.md#options).
  const [optionsFor, setOptionsFor] = useState<PosProduct | null>(null);
  const pick = useCallback((p: PosProduct) => (p.optionGroups.length ? setOptionsFor(p) : cart.add(p)), [cart]);

  // A scanner adds the product whose barcode or SKU it read, wherever the focus is (docs/catalog.md).
  useBarcodeScanner(onSaleScreen && !tipWait.waiting, (code) => {
    const p = findByCode(products, code);
    if (p) pick(p);
    else setError(t('noProductWithCode', { code }));
  });
  useKeyboardKeypad(onSaleScreen && !tipWait.waiting, keypad, () => setTab('keypad'));

  function clearSale() {
    tickets.release();
    cart.clear();
    keypad.reset();
    setError('');
  }

  function newSale() {
    charging.close();
    clearSale();
    void refresh();
    // Back at the top, focus on the cart (Charge is disabled until something is rung up).
    requestAnimationFrame(() => {
      window.scrollTo(0, 0);
      cartHeading.current?.focus({ preventScroll: true });
    });
  }

  return {
    currency,
    error,
    tab,
    setTab,
    cartHeading,
    readiness,
    sales,
    reachable,
    offline,
    cart,
    keypad,
    filter,
    charging,
    tickets,
    tipWait,
    chargeAskingTip,
    clearSale,
    newSale,
    pick,
    optionsFor,
    closeOptions: () => setOptionsFor(null),
  };
}
