'use client';
// The sale screen: product grid, keypad (custom amounts, fee, shipping, discount, tip), cart
// and Charge. Charging creates the payment through the vendor API and hands over to the
// payment screen. All amounts are koinu bigints (lib/pos/cart, lib/money).
// The till never loses a sale (docs/using-counter.md#the-till-pos): the cart scrolls, not the page, so the total and
// Charge stay on screen; today's sales follow a light poll (which also tells whether the till is
// connected); a waiting sale can be reopened; the physical keyboard types amounts.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { forgetKeptTill } from '@/app/_lib/kept-till';
import { LanguageSelect } from '@/app/_lib/language-select';
import { separators } from '@/lib/i18n/numbers';
import { cartTotals, moneyText, fiatOf, keyboardKeypadKey, keypadAmount, keypadPress, paymentBody, DOGE_CURRENCY, taxPercentBp, NO_EXTRAS, type CartExtras, type CartLine } from '@/lib/pos/cart';
import type { PosProduct, PosStore, RecentSale } from '@/lib/pos/catalog';
import { startOfLocalDay } from '@/lib/time/zone';
import { saleFromView, type VendorPaymentView } from '@/lib/pos/sales';
import { PaymentScreen, type CreatedPayment } from './payment-screen';
import { RecentSales } from './recent-sales';
import { NotReadyNotice, NOT_READY_ID, useTillReadiness, type TillReadiness } from './readiness';
import { LiveBanner, useConfirm, useSoundSetting } from './till-ui';
import { BellIcon, Icon } from './bits';
import { Money, keypadDisplay, keypadDigits } from './pricing';
import { OfflineNotice, OFFLINE_ID } from './offline';
import { ThemeSwitch } from '@/app/_lib/theme-switch';
import { ALL, filterProducts, findByCode } from '@/lib/pos/catalog-search';
import { CategoryTabs, CATEGORY_PANEL_ID, categoryTabId } from './category-tabs';
import { ProductSearch } from './product-search';
import { useBarcodeScanner } from './use-barcode-scanner';
import { StockBadge } from './stock-badge';
import s from './pos.module.css';

/** Today's sales are re-read this often; a failed read says the till is offline. */
const SALES_POLL_MS = 4_000;
const orderRef = () => 'POS-' + Date.now().toString(36).toUpperCase().slice(-6);

type KeypadMode = 'item' | 'fee' | 'shipping' | 'discount' | 'tip';
/** Message keys (messages/*.json, namespace "till") of each keypad mode and of its button. */
const MODE_LABEL = { item: 'modeItem', fee: 'modeFee', shipping: 'modeShipping', discount: 'modeDiscount', tip: 'modeTip' } as const;
const MODE_SET = { fee: 'setFee', shipping: 'setShipping', discount: 'setDiscount', tip: 'setTip' } as const;
/** A per-charge Idempotency-Key. getRandomValues, unlike randomUUID, also works on plain-http LAN tills. */
function chargeKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return 'pos-' + Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '.', '0', '⌫'];

export function Cashier({ products, categories = [], store, sales: initialSales, user, denied, demoWallet = false, readiness: initialReadiness, device = null }: {
  products: PosProduct[];
  /** The category tabs, in the store's order (docs/catalog.md). */
  categories?: string[];
  store: PosStore;
  sales: RecentSale[];
  /** tillOnly: signed in with a PIN (docs/counter.md), so no back-office link. */
  user: { name: string; role: string; tillOnly?: boolean };
  /** The till's device controls (till-device.tsx): Lock, or registering this browser. */
  device?: React.ReactNode;
  denied: boolean;
  /** devnet only: offer the demo wallet (/demo/wallet?uri=…) on the payment screen. */
  demoWallet?: boolean;
  /** Whether the store can take money (docs/operations.md#readiness), as the page saw it; re-checked here. */
  readiness: TillReadiness;
}) {
  const t = useTranslations('till');
  const tc = useTranslations('common');
  const locale = useLocale();
  const decimalSep = separators(locale).decimal;
  const [lines, setLines] = useState<CartLine[]>([]);
  const [extras, setExtras] = useState<CartExtras>(NO_EXTRAS);
  const [mode, setMode] = useState<KeypadMode>('item');
  const [entry, setEntry] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [payment, setPayment] = useState<CreatedPayment | null>(null);
  const [tab, setTab] = useState<'products' | 'keypad'>(products.length ? 'products' : 'keypad');
  const [category, setCategory] = useState(ALL);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => filterProducts(products, category, query), [products, category, query]);
  const [itemName, setItemName] = useState('');
  const [itemTax, setItemTax] = useState('');
  const [sales, setSales] = useState<RecentSale[]>(initialSales);
  const [reachable, setReachable] = useState(true);
  const [sseLive, setSseLive] = useState(true);
  const [sound, setSound] = useSoundSetting();
  const { ask, dialog } = useConfirm();
  const customN = useRef(0);
  const pending = useRef<{ key: string; body: string } | null>(null);
  const cartHeading = useRef<HTMLHeadingElement>(null);
  const tabRefs = useRef<Record<'products' | 'keypad', HTMLButtonElement | null>>({ products: null, keypad: null });
  const readiness = useTillReadiness(initialReadiness);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const connected = reachable;
  /** Offline (the browser says so, or Counter does not answer): the till refuses to charge. */
  const offline = !reachable;
  const liveDown = !reachable || (payment !== null && !sseLive);

  // Today's sales, live: a light poll of the vendor API (no stream: those are capped per user).
  const pollSales = useCallback(async () => {
    const midnight = startOfLocalDay(new Date(), store.timeZone); // today in the store's zone
    try {
      const r = await fetch(`/api/v1/payments?limit=20&from=${encodeURIComponent(midnight.toISOString())}`, { cache: 'no-store' });
      if (r.status === 401) {
        // The session is gone (expired, signed out elsewhere, the user disabled): the kept till
        // must not outlive it (app/_lib/kept-till.ts).
        await forgetKeptTill();
        window.location.assign('/login?next=%2Fpos');
        return;
      }
      if (!r.ok) throw new Error(String(r.status));
      const b = (await r.json()) as { payments: VendorPaymentView[] };
      setSales(b.payments.map((v) => saleFromView(v, store.timeZone)));
      setReachable(true);
    } catch {
      setReachable(false);
    }
  }, [store.timeZone]);
  useEffect(() => {
    const t = setInterval(pollSales, SALES_POLL_MS);
    const offline = () => setReachable(false);
    const online = () => void pollSales();
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    if (!navigator.onLine) setReachable(false);
    return () => {
      clearInterval(t);
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
    };
  }, [pollSales]);

  const totals = useMemo(() => cartTotals(lines, extras), [lines, extras]);
  const inCart = useMemo(() => new Map(lines.map((l) => [l.key, l.count])), [lines]);
  // Prices, keypad and cart are in the store's pricing currency (docs/using-counter.md#pricing-in-dollars-euros-fiat-pricing; ./pricing.tsx).
  const cur = store.pricingCurrency || DOGE_CURRENCY;
  const fiat = (k: bigint) => (cur === DOGE_CURRENCY && store.fiatCurrency ? fiatOf(k, store.fiatRate) : null);
  const modes: KeypadMode[] = store.tipsEnabled ? ['item', 'fee', 'shipping', 'discount', 'tip'] : ['item', 'fee', 'shipping', 'discount'];

  const touch = () => {
    pending.current = null; // a changed cart is a new charge
    setError('');
  };

  function add(p: PosProduct) {
    touch();
    setLines((ls) => {
      const i = ls.findIndex((l) => l.key === p.id);
      if (i >= 0) return ls.map((l, j) => (j === i ? { ...l, count: l.count + 1 } : l));
      return [...ls, { key: p.id, sku: p.sku, name: p.name, icon: p.icon, unit: BigInt(p.priceKoinu), count: 1, taxRateBp: p.taxRateBp }];
    });
  }

  // A scanner adds the product whose barcode or SKU it read, wherever the focus is (docs/catalog.md).
  useBarcodeScanner(!payment, (code) => {
    const p = findByCode(products, code);
    if (p) add(p);
    else setError(t('noProductWithCode', { code }));
  });

  function pickFirstMatch() {
    if (!shown.length) return;
    add(shown[0]);
    setQuery('');
  }

  function bump(key: string, d: number) {
    touch();
    setLines((ls) => ls.flatMap((l) => (l.key !== key ? [l] : l.count + d <= 0 ? [] : [{ ...l, count: l.count + d }])));
  }

  function applyKeypad() {
    const k = keypadAmount(entry, cur);
    if (k === null) return;
    touch();
    if (mode === 'item') {
      if (k <= 0n) return;
      const bp = taxPercentBp(itemTax);
      if (bp === null) {
        setError(t('taxRateError'));
        return;
      }
      customN.current += 1;
      const n = customN.current;
      const name = itemName.trim().slice(0, 200) || t('customAmountN', { n });
      setLines((ls) => [...ls, { key: `custom-${n}`, sku: `CUSTOM-${n}`, name, unit: k, count: 1, taxRateBp: bp }]);
    } else {
      setExtras((e) => ({ ...e, [mode]: k }));
    }
    // Back to a plain item after each line: a tip or a fee is never entered twice by accident.
    setEntry('');
    setItemName('');
    setItemTax('');
    setMode('item');
  }

  // The physical keyboard: digits, "." or ",", Backspace and Enter type on the keypad, from
  // anywhere on the sale screen except a text field, a dialog or another button's Enter.
  useEffect(() => {
    if (payment) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      const t = e.target as HTMLElement | null;
      if (t?.closest('input, textarea, select, dialog, [contenteditable="true"]')) return;
      const k = keyboardKeypadKey(e.key);
      if (k === null) return;
      if (k === 'enter') {
        if (!entry || (t && t.closest('button, a') && !t.closest('[data-keypad]'))) return;
        e.preventDefault();
        applyKeypad();
        return;
      }
      e.preventDefault();
      if (tab !== 'keypad') setTab('keypad');
      setEntry((e) => keypadPress(e, k, keypadDigits(cur)));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  function onTabKey(e: ReactKeyboardEvent<HTMLButtonElement>) {
    const order = ['products', 'keypad'] as const;
    const i = order.indexOf(tab);
    const next = e.key === 'ArrowRight' ? order[(i + 1) % 2] : e.key === 'ArrowLeft' ? order[(i + 1) % 2] : e.key === 'Home' ? order[0] : e.key === 'End' ? order[1] : null;
    if (!next) return;
    e.preventDefault();
    setTab(next);
    tabRefs.current[next]?.focus();
  }

  function clearSale() {
    setLines([]);
    setExtras(NO_EXTRAS);
    setEntry('');
    setItemName('');
    setItemTax('');
    setMode('item');
    setError('');
    pending.current = null;
  }

  /**
   * POSTs one charge (key + exact body); a retry of the same charge replays the same request.
   * `url`: POST /api/v1/payments, or the charge-again route of an expired sale.
   */
  async function startPayment(key: string, body: string, url = '/api/v1/payments'): Promise<boolean> {
    setBusy(true);
    try {
      const r = await csrfFetch(url, { method: 'POST', headers: { 'Idempotency-Key': key }, body });
      const b = await r.json().catch(() => ({}));
      if (r.status === 503 && b.error === 'not_ready') {
        readiness.refused(b);
        return false;
      }
      if (r.status === 503 && b.error === 'rate_unavailable') {
        setError(t('rateUnavailable', { currency: cur }));
        return false;
      }
      if (r.status !== 201 && r.status !== 200) {
        setError(b.message ?? t('startFailed', { status: r.status }));
        return false;
      }
      setPayment(b as CreatedPayment);
      void pollSales();
      return true;
    } catch {
      setError(t('networkCharge'));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function charge() {
    setError('');
    if (!readiness.ready || offline) return;
    // One charge = one key and one exact body: a retry after a lost answer replays the same
    // request, so the server returns the payment it already created instead of a second one.
    if (!pending.current) {
      try {
        const body = paymentBody(lines, extras, { rate: store.fiatRate, currency: store.fiatCurrency }, {
          orderReference: orderRef(), currency: cur,
        });
        pending.current = { key: chargeKey(), body: JSON.stringify(body) };
      } catch (e) {
        setError((e as Error).message);
        return;
      }
    }
    const { key, body } = pending.current;
    await startPayment(key, body);
  }

  /**
   * An expired sale: the same lines as a new payment (its cart may be gone: it was reopened). The
   * server builds it from the stored lines (lib/pos/charge-again.ts): a sale priced in fiat is
   * priced again from its fiat lines at the rate in force now; no fresh rate is rate_unavailable.
   */
  async function chargeAgain() {
    if (!payment) return;
    const old = payment;
    setError('');
    setPayment(null);
    const url = `/api/pos/sales/${encodeURIComponent(old.id)}/charge-again`;
    if (!(await startPayment(chargeKey(), JSON.stringify({ order_reference: orderRef() }), url))) setPayment(old);
  }

  async function reopen(id: string) {
    setError('');
    try {
      const r = await fetch(`/api/v1/payments/${encodeURIComponent(id)}`, { cache: 'no-store' });
      const b = await r.json().catch(() => ({}));
      if (!r.ok) return setError(b.message ?? t('reopenFailed', { status: r.status }));
      setPayment(b as CreatedPayment);
    } catch {
      setError(t('networkReopen'));
    }
  }

  function newSale() {
    setPayment(null);
    clearSale();
    void pollSales();
    // Back at the top, focus on the cart (Charge is disabled until something is rung up).
    requestAnimationFrame(() => {
      window.scrollTo(0, 0);
      cartHeading.current?.focus({ preventScroll: true });
    });
  }

  async function logout() {
    await csrfFetch('/api/auth/logout', { method: 'POST', body: '{}' }).catch(() => null);
    await forgetKeptTill();
    window.location.assign('/login');
  }

  const header = (
    <header className={s.bar}>
      <h1 className={s.brand}><span className={s.mark} aria-hidden="true">Ð</span><span>{store.name}</span></h1>
      <div className={s.barRight}>
        {user.role !== 'cashier' && !user.tillOnly ? <a className={s.ghost} href="/admin">{tc('backOffice')}</a> : null}
        <a className={s.ghost} href="/pos/shift">{tc('myShift')}</a>
        <button type="button" className={s.ghost} aria-pressed={sound} aria-label={sound ? t('soundOn') : t('soundOff')} onClick={() => setSound(!sound)} title={t('paymentSound')}>
          <BellIcon off={!sound} /><span className={s.soundText}>{sound ? t('soundOn') : t('soundOff')}</span>
        </button>
        <ThemeSwitch className={s.langTop} />
        <LanguageSelect signedIn className={`${s.ghost} ${s.langTop}`} />
        {device}
        <span className={s.who} title={tc('signedIn')}>{user.name}</span>
        <button type="button" className={s.ghost} onClick={logout}>{tc('signOut')}</button>
      </div>
    </header>
  );

  if (payment) {
    return (
      <div className={s.app}>
        {header}
        <LiveBanner down={liveDown} />
        {error ? <p className={s.notice} role="alert">{error}</p> : null}
        <PaymentScreen key={payment.id} payment={payment} fiatCurrency={store.fiatCurrency} onNewSale={newSale} onChargeAgain={chargeAgain}
          demoWallet={demoWallet} connected={connected} onLiveChange={setSseLive} sound={sound} ask={ask} />
        {dialog}
      </div>
    );
  }

  const extraRows: [keyof CartExtras, string, bigint][] = [
    ['fee', t('modeFee'), extras.fee], ['shipping', t('modeShipping'), extras.shipping], ['discount', t('modeDiscount'), -extras.discount], ['tip', t('modeTip'), extras.tip],
  ];

  return (
    <div className={`${s.app} ${s.saleApp}`} data-hydrated={hydrated ? '' : undefined}>
      {header}
      <LiveBanner down={liveDown} />
      {denied ? <p className={s.notice} role="status">{t('denied')}</p> : null}
      <main className={s.sale}>
        <div className={s.left}>
        <section className={s.catalog} aria-label={t('productsAndKeypad')}>
          <div className={s.tabs} role="tablist" aria-label={t('sellFrom')}>
            {(['products', 'keypad'] as const).map((tb) => (
              <button key={tb} type="button" role="tab" id={`till-tab-${tb}`} aria-controls="till-tabpanel" aria-selected={tab === tb} tabIndex={tab === tb ? 0 : -1}
                ref={(el) => { tabRefs.current[tb] = el; }} className={tab === tb ? s.tabOn : s.tab} onClick={() => setTab(tb)} onKeyDown={onTabKey}>
                {t(tb)}
              </button>
            ))}
          </div>
          <div id="till-tabpanel" role="tabpanel" aria-labelledby={`till-tab-${tab}`} className={s.tabPanel}>
          {tab === 'products' ? (
            products.length ? (
              <>
              <div className={s.browse}>
                <ProductSearch query={query} onQuery={setQuery} onPickFirst={pickFirstMatch} />
                {categories.length ? <CategoryTabs categories={categories} selected={category} onSelect={setCategory} /> : null}
              </div>
              <div className={s.grid} id={CATEGORY_PANEL_ID} role={categories.length ? 'tabpanel' : undefined}
                aria-labelledby={categories.length ? categoryTabId([ALL, ...categories].indexOf(category)) : undefined}>
                {shown.length === 0 ? <p className={s.empty}>{t('noMatches', { query })}</p> : null}
                {shown.map((p) => (
                  <button key={p.id} type="button" className={s.product} onClick={() => add(p)}>
                    {inCart.get(p.id) ? <span className={s.inCart} aria-hidden="true">{inCart.get(p.id)}</span> : null}
                    <Icon icon={p.icon} name={p.name} />
                    {/* named by its visible text, with "Add" for screen readers where the language puts it ("Add Coffee", "Kaffee hinzufügen") */}
                    {t.rich('addName', { sr: (c) => <span className={s.srOnly}>{c}</span>, name: () => <span className={s.pName}>{p.name}</span> })}
                    <span className={s.pPrice}><Money currency={cur} k={BigInt(p.priceKoinu)} />{p.taxRateBp ? <small> {t('productTax', { rate: p.taxRateBp / 100 })}</small> : null}</span>
                    <StockBadge stock={p.stock} lowStock={p.lowStock} />
                  </button>
                ))}
              </div>
              </>
            ) : (
              <p className={s.empty}>{t('noProducts')}</p>
            )
          ) : (
            <div className={s.keypad}>
              <div className={s.modes} role="radiogroup" aria-label={t('keypadEnters')}>
                {modes.map((m) => (
                  <button key={m} type="button" role="radio" aria-checked={mode === m} className={mode === m ? s.modeOn : s.mode} onClick={() => setMode(m)}>{t(MODE_LABEL[m])}</button>
                ))}
              </div>
              <output className={s.display} aria-label={t('keypadAmount')}>{keypadDisplay(entry, cur, locale)}</output>
              {mode === 'item' ? (
                <div className={s.itemFields}>
                  <label><span>{t('itemName')}</span><input value={itemName} onChange={(e) => setItemName(e.target.value)} maxLength={200} placeholder={t('customAmount')}
                    onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); applyKeypad(); } }} /></label>
                  <label><span>{t('taxPercent')}</span><input value={itemTax} onChange={(e) => setItemTax(e.target.value)} inputMode="decimal" maxLength={6} placeholder="0"
                    onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); applyKeypad(); } }} /></label>
                </div>
              ) : null}
              <div className={s.keys} data-keypad>
                {KEYS.map((k) => (
                  <button key={k} type="button" className={s.key} onClick={() => setEntry((e) => keypadPress(e, k, keypadDigits(cur)))} aria-label={k === '⌫' ? t('deleteDigit') : k === '.' ? decimalSep : k}>{k === '.' ? decimalSep : k}</button>
                ))}
              </div>
              <div className={s.keyActions}>
                <button type="button" className={s.secondary} onClick={() => setEntry('')}>{t('clear')}</button>
                <button type="button" className={s.primary} onClick={applyKeypad} disabled={keypadAmount(entry, cur) === null}>
                  {mode === 'item' ? t('addToCart') : t(MODE_SET[mode])}
                </button>
              </div>
            </div>
          )}
          </div>
        </section>
        <RecentSales sales={sales} onReopen={reopen} offline={offline} />
        <div className={s.langBelow}><LanguageSelect signedIn className={s.secondary} /><ThemeSwitch className={s.themeBelow} /></div>
        </div>

        <section className={s.cart} aria-label={t('cart')}>
          <div className={s.cartHead}>
            <h2 ref={cartHeading} tabIndex={-1}>{t('cart')} {totals.count ? <span className={s.count}>{totals.count}</span> : null}</h2>
            {lines.length || totals.total ? <button type="button" className={s.link} onClick={clearSale}>{t('clearSale')}</button> : null}
          </div>
          {lines.length === 0 ? <p className={s.empty}>{t('emptyCart')}</p> : null}
          <ul className={s.lines}>
            {lines.map((l) => (
              <li key={l.key} className={s.line} data-testid="cart-line">
                <div className={s.lineMain}>
                  <span className={s.lineName}>{l.name}</span>
                  <span className={s.lineSub}>{t.rich('each', { price: () => <Money currency={cur} k={l.unit} /> })}{l.taxRateBp ? ` · ${t('lineTax', { rate: l.taxRateBp / 100 })}` : ''}</span>
                </div>
                <div className={s.stepper}>
                  <button type="button" onClick={() => bump(l.key, -1)} aria-label={t('oneLess', { name: l.name })}>−</button>
                  <span aria-label={t('lineCount', { name: l.name })}>{l.count}</span>
                  <button type="button" onClick={() => bump(l.key, 1)} aria-label={t('oneMore', { name: l.name })}>+</button>
                </div>
                <span className={s.lineTotal}><Money currency={cur} k={BigInt(l.count) * l.unit} /></span>
              </li>
            ))}
          </ul>
          <div className={s.checkout}>
          <dl className={s.totals}>
            <div><dt>{t('subtotal')}</dt><dd><Money currency={cur} k={totals.subtotal} /></dd></div>
            {totals.tax ? <div><dt>{t('tax')}</dt><dd data-testid="cart-tax"><Money currency={cur} k={totals.tax} /></dd></div> : null}
            {extraRows.filter(([, , v]) => v !== 0n).map(([k, label, v]) => (
              <div key={k}>
                <dt>{label} <button type="button" className={s.link} onClick={() => { touch(); setExtras((e) => ({ ...e, [k]: 0n })); }} aria-label={t('removeExtra', { kind: k })}>{t('remove')}</button></dt>
                <dd><Money currency={cur} k={v} /></dd>
              </div>
            ))}
            <div className={s.grand}><dt>{t('total')}</dt><dd data-testid="cart-total"><Money currency={cur} k={totals.total} /></dd></div>
            {fiat(totals.total) !== null ? <div className={s.fiat}><dt>{t('inFiat', { currency: store.fiatCurrency })}</dt><dd>≈ {fiat(totals.total)} {store.fiatCurrency}</dd></div> : null}
          </dl>
          {error ? <p className={s.error} role="alert">{error}</p> : null}
          {offline ? <OfflineNotice /> : readiness.ready ? null : <NotReadyNotice codes={readiness.codes} />}
          <button type="button" className={s.charge} onClick={charge} disabled={busy || totals.total <= 0n || !readiness.ready || offline}
            aria-describedby={offline ? OFFLINE_ID : readiness.ready ? undefined : NOT_READY_ID}>
            {busy ? t('starting') : t('charge', { amount: moneyText(totals.total > 0n ? totals.total : 0n, cur, locale) })}
          </button>
          </div>
        </section>
      </main>
      {dialog}
    </div>
  );
}
