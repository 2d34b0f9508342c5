'use client';
// The sale screen: product grid, keypad (custom amounts, fee, shipping, discount, tip), cart
// and Charge. Charging creates the payment through the vendor API and hands over to the
// payment screen. All amounts are koinu bigints (lib/pos/cart, lib/money).
import { useMemo, useRef, useState } from 'react';
import { useRouter } from 'next/navigation';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { formatKoinu } from '@/lib/money';
import { cartTotals, fiatOf, keypadKoinu, keypadPress, paymentBody, NO_EXTRAS, type CartExtras, type CartLine } from '@/lib/pos/cart';
import type { PosProduct, PosStore, RecentSale } from '@/lib/pos/catalog';
import { PaymentScreen, type CreatedPayment } from './payment-screen';
import { RecentSales } from './recent-sales';
import { NotReadyNotice, NOT_READY_ID, useTillReadiness, type TillReadiness } from './readiness';
import { Icon, Doge } from './bits';
import s from './pos.module.css';

type KeypadMode = 'item' | 'fee' | 'shipping' | 'discount' | 'tip';
const MODE_LABEL: Record<KeypadMode, string> = { item: 'Custom item', fee: 'Fee', shipping: 'Shipping', discount: 'Discount', tip: 'Tip' };
/** A per-charge Idempotency-Key. getRandomValues, unlike randomUUID, also works on plain-http LAN tills. */
function chargeKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return 'pos-' + Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '.', '0', '⌫'];

export function Cashier({ products, store, sales, user, denied, demoWallet = false, readiness: initialReadiness }: {
  products: PosProduct[];
  store: PosStore;
  sales: RecentSale[];
  user: { name: string; role: string };
  denied: boolean;
  /** devnet only: offer the demo wallet (/demo/wallet?uri=…) on the payment screen. */
  demoWallet?: boolean;
  /** Whether the store can take money (DESIGN.md §16), as the page saw it; re-checked here. */
  readiness: TillReadiness;
}) {
  const router = useRouter();
  const [lines, setLines] = useState<CartLine[]>([]);
  const [extras, setExtras] = useState<CartExtras>(NO_EXTRAS);
  const [mode, setMode] = useState<KeypadMode>('item');
  const [entry, setEntry] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [payment, setPayment] = useState<CreatedPayment | null>(null);
  const [tab, setTab] = useState<'products' | 'keypad'>(products.length ? 'products' : 'keypad');
  const customN = useRef(0);
  const pending = useRef<{ key: string; body: string } | null>(null);
  const readiness = useTillReadiness(initialReadiness);

  const totals = useMemo(() => cartTotals(lines, extras), [lines, extras]);
  const inCart = useMemo(() => new Map(lines.map((l) => [l.key, l.count])), [lines]);
  const fiat = (k: bigint) => (store.fiatCurrency ? fiatOf(k, store.fiatRate) : null);
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

  function bump(key: string, d: number) {
    touch();
    setLines((ls) => ls.flatMap((l) => (l.key !== key ? [l] : l.count + d <= 0 ? [] : [{ ...l, count: l.count + d }])));
  }

  function applyKeypad() {
    const k = keypadKoinu(entry);
    if (k === null) return;
    touch();
    if (mode === 'item') {
      if (k <= 0n) return;
      customN.current += 1;
      const n = customN.current;
      setLines((ls) => [...ls, { key: `custom-${n}`, sku: `CUSTOM-${n}`, name: `Custom amount ${n}`, unit: k, count: 1, taxRateBp: 0 }]);
    } else {
      setExtras((e) => ({ ...e, [mode]: k }));
    }
    setEntry('');
  }

  function clearSale() {
    setLines([]);
    setExtras(NO_EXTRAS);
    setEntry('');
    setError('');
    pending.current = null;
  }

  async function charge() {
    setError('');
    if (!readiness.ready) return;
    // One charge = one key and one exact body: a retry after a lost answer replays the same
    // request, so the server returns the payment it already created instead of a second one.
    if (!pending.current) {
      try {
        const body = paymentBody(lines, extras, { rate: store.fiatRate, currency: store.fiatCurrency }, {
          orderReference: 'POS-' + Date.now().toString(36).toUpperCase().slice(-6),
        });
        pending.current = { key: chargeKey(), body: JSON.stringify(body) };
      } catch (e) {
        setError((e as Error).message);
        return;
      }
    }
    const { key, body } = pending.current;
    setBusy(true);
    try {
      const r = await csrfFetch('/api/v1/payments', { method: 'POST', headers: { 'Idempotency-Key': key }, body });
      const b = await r.json().catch(() => ({}));
      if (r.status === 503 && b.error === 'not_ready') {
        readiness.refused(b);
        return;
      }
      if (r.status !== 201 && r.status !== 200) {
        setError(b.message ?? `could not start the payment (${r.status})`);
        return;
      }
      setPayment(b as CreatedPayment);
    } catch {
      setError('network error: check the connection and press Charge again');
    } finally {
      setBusy(false);
    }
  }

  function newSale() {
    setPayment(null);
    clearSale();
    router.refresh(); // reloads today's sales
  }

  async function logout() {
    await csrfFetch('/api/auth/logout', { method: 'POST', body: '{}' }).catch(() => null);
    window.location.assign('/login');
  }

  const header = (
    <header className={s.bar}>
      <div className={s.brand}><span className={s.mark}>Ð</span><span>{store.name}</span></div>
      <div className={s.barRight}>
        {user.role !== 'cashier' ? <a className={s.ghost} href="/admin">Back office</a> : null}
        <a className={s.ghost} href="/pos/shift">My shift</a>
        <span className={s.who} title="Signed in">{user.name}</span>
        <button type="button" className={s.ghost} onClick={logout}>Sign out</button>
      </div>
    </header>
  );

  if (payment) {
    return (
      <div className={s.app}>
        {header}
        <PaymentScreen payment={payment} fiatCurrency={store.fiatCurrency} onNewSale={newSale} demoWallet={demoWallet} />
      </div>
    );
  }

  const extraRows: [keyof CartExtras, string, bigint][] = [
    ['fee', 'Fee', extras.fee], ['shipping', 'Shipping', extras.shipping], ['discount', 'Discount', -extras.discount], ['tip', 'Tip', extras.tip],
  ];

  return (
    <div className={s.app}>
      {header}
      {denied ? <p className={s.notice} role="status">Your role cannot open that page; here is the cashier screen.</p> : null}
      <main className={s.sale}>
        <section className={s.catalog} aria-label="Products and keypad">
          <div className={s.tabs} role="tablist">
            <button type="button" role="tab" aria-selected={tab === 'products'} className={tab === 'products' ? s.tabOn : s.tab} onClick={() => setTab('products')}>Products</button>
            <button type="button" role="tab" aria-selected={tab === 'keypad'} className={tab === 'keypad' ? s.tabOn : s.tab} onClick={() => setTab('keypad')}>Keypad</button>
          </div>
          {tab === 'products' ? (
            products.length ? (
              <div className={s.grid}>
                {products.map((p) => (
                  <button key={p.id} type="button" className={s.product} onClick={() => add(p)} aria-label={`Add ${p.name}`}>
                    {inCart.get(p.id) ? <span className={s.inCart} aria-hidden="true">{inCart.get(p.id)}</span> : null}
                    <Icon icon={p.icon} name={p.name} />
                    <span className={s.pName}>{p.name}</span>
                    <span className={s.pPrice}><Doge k={BigInt(p.priceKoinu)} />{p.taxRateBp ? <small> +{p.taxRateBp / 100}% tax</small> : null}</span>
                  </button>
                ))}
              </div>
            ) : (
              <p className={s.empty}>No products yet. Add them in the back office, or use the keypad.</p>
            )
          ) : (
            <div className={s.keypad}>
              <div className={s.modes} role="radiogroup" aria-label="Keypad enters">
                {modes.map((m) => (
                  <button key={m} type="button" role="radio" aria-checked={mode === m} className={mode === m ? s.modeOn : s.mode} onClick={() => setMode(m)}>{MODE_LABEL[m]}</button>
                ))}
              </div>
              <output className={s.display} aria-label="Keypad amount">{entry || '0'} <small>DOGE</small></output>
              <div className={s.keys}>
                {KEYS.map((k) => (
                  <button key={k} type="button" className={s.key} onClick={() => setEntry((e) => keypadPress(e, k))} aria-label={k === '⌫' ? 'Delete digit' : k}>{k}</button>
                ))}
              </div>
              <div className={s.keyActions}>
                <button type="button" className={s.secondary} onClick={() => setEntry('')}>Clear</button>
                <button type="button" className={s.primary} onClick={applyKeypad} disabled={keypadKoinu(entry) === null}>
                  {mode === 'item' ? 'Add to cart' : `Set ${MODE_LABEL[mode].toLowerCase()}`}
                </button>
              </div>
            </div>
          )}
        </section>

        <section className={s.cart} aria-label="Cart">
          <div className={s.cartHead}>
            <h2>Cart {totals.count ? <span className={s.count}>{totals.count}</span> : null}</h2>
            {lines.length || totals.total ? <button type="button" className={s.link} onClick={clearSale}>Clear sale</button> : null}
          </div>
          {lines.length === 0 ? <p className={s.empty}>Tap a product or use the keypad.</p> : null}
          <ul className={s.lines}>
            {lines.map((l) => (
              <li key={l.key} className={s.line} data-testid="cart-line">
                <div className={s.lineMain}>
                  <span className={s.lineName}>{l.name}</span>
                  <span className={s.lineSub}><Doge k={l.unit} /> each{l.taxRateBp ? ` · tax ${l.taxRateBp / 100}%` : ''}</span>
                </div>
                <div className={s.stepper}>
                  <button type="button" onClick={() => bump(l.key, -1)} aria-label={`One less ${l.name}`}>−</button>
                  <span aria-label={`${l.name} count`}>{l.count}</span>
                  <button type="button" onClick={() => bump(l.key, 1)} aria-label={`One more ${l.name}`}>+</button>
                </div>
                <span className={s.lineTotal}><Doge k={BigInt(l.count) * l.unit} /></span>
              </li>
            ))}
          </ul>
          <dl className={s.totals}>
            <div><dt>Subtotal</dt><dd><Doge k={totals.subtotal} /></dd></div>
            {totals.tax ? <div><dt>Tax</dt><dd data-testid="cart-tax"><Doge k={totals.tax} /></dd></div> : null}
            {extraRows.filter(([, , v]) => v !== 0n).map(([k, label, v]) => (
              <div key={k}>
                <dt>{label} <button type="button" className={s.link} onClick={() => { touch(); setExtras((e) => ({ ...e, [k]: 0n })); }} aria-label={`Remove ${label.toLowerCase()}`}>remove</button></dt>
                <dd><Doge k={v} /></dd>
              </div>
            ))}
            <div className={s.grand}><dt>Total</dt><dd data-testid="cart-total"><Doge k={totals.total} /></dd></div>
            {fiat(totals.total) !== null ? <div className={s.fiat}><dt>In {store.fiatCurrency}</dt><dd>≈ {fiat(totals.total)} {store.fiatCurrency}</dd></div> : null}
          </dl>
          {error ? <p className={s.error} role="alert">{error}</p> : null}
          {readiness.ready ? null : <NotReadyNotice codes={readiness.codes} />}
          <button type="button" className={s.charge} onClick={charge} disabled={busy || totals.total <= 0n || !readiness.ready}
            aria-describedby={readiness.ready ? undefined : NOT_READY_ID}>
            {busy ? 'Starting…' : `Charge Ð ${formatKoinu(totals.total > 0n ? totals.total : 0n)}`}
          </button>
        </section>
      </main>
      <RecentSales sales={sales} />
    </div>
  );
}
