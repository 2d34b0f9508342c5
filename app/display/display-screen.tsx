'use client';
// The paired display (docs/counter.md#the-customers-display): follows its till through
// /api/display/events. It shows the cart as the cashier builds it; while the till charges, the
// payment's QR code (the till's rule: lib/connect/qr-form.ts, drawn large by lib/checkout/qr.ts)
// and amount; then "Paid, thank you", or what is missing, or expired. Nothing else: no other
// sale, no staff name, no control that changes anything but the customer's own tip while the till
// asks for one (tip-screen.tsx). Unpaired (back office, a new pairing
// elsewhere, the till revoked), it returns to the pairing form.
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { dogeText, moneyText } from '@/lib/pos/client';
import { asksForMoney, checkoutShown, qrImage } from '@/lib/checkout/client';
import type { DisplayState, DisplayPayment } from '@/lib/display';
import { PairForm } from './pair-form';
import { TipScreen } from './tip-screen';
import s from './display.module.css';

type Store = { name: string; icon: string };

export function DisplayScreen({ store }: { store: Store }) {
  const [state, setState] = useState<DisplayState | null>(null);
  const [paired, setPaired] = useState(true);
  const [live, setLive] = useState(true);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let done = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const es = new EventSource('/api/display/events');
    es.addEventListener('display', (e) => {
      setLive(true);
      setState(JSON.parse((e as MessageEvent).data) as DisplayState);
    });
    es.addEventListener('unpaired', () => {
      done = true;
      es.close();
      setPaired(false);
    });
    es.onopen = () => setLive(true);
    es.onerror = () => {
      if (done) return;
      setLive(false);
      if (es.readyState !== EventSource.CLOSED) return; // EventSource retries by itself
      // Refused: unpaired while away (401), or the server is busy. Ask which.
      void fetch('/api/display', { cache: 'no-store' }).then(
        (r) => {
          if (r.status === 401) setPaired(false);
          else retry = setTimeout(() => setAttempt((a) => a + 1), 3000);
        },
        () => {
          retry = setTimeout(() => setAttempt((a) => a + 1), 3000);
        },
      );
    };
    return () => {
      done = true;
      clearTimeout(retry);
      es.close();
    };
  }, [attempt]);

  if (!paired) return <PairForm storeName={store.name} initialCode="" unpaired />;
  return (
    <>
      <header className={s.top}>
        {store.icon ? (
          // eslint-disable-next-line @next/next/no-img-element -- the store's own icon (a data: URL or another origin's), at its fixed size: next/image would fetch it through this server
          <img className={s.storeIcon} src={store.icon} alt="" width={56} height={56} referrerPolicy="no-referrer" />
        ) : (
          <span className={s.storeMark} aria-hidden="true">
            {(store.name.trim()[0] ?? 'Ð').toUpperCase()}
          </span>
        )}
        <h1 className={s.storeName}>{store.name}</h1>
      </header>
      {!live ? <Reconnecting /> : null}
      {state?.payment ? <PaymentView p={state.payment} /> : state?.tip ? <TipScreen tip={state.tip} /> : <CartView state={state} />}
    </>
  );
}

function Reconnecting() {
  const t = useTranslations('display');
  return (
    <p className={s.reconnecting} role="status">
      {t('reconnecting')}
    </p>
  );
}

function CartView({ state }: { state: DisplayState | null }) {
  const t = useTranslations('display');
  const locale = useLocale();
  const cart = state?.cart;
  if (!cart || cart.lines.length === 0) {
    return (
      <main className={s.welcome}>
        <p className={s.welcomeText} data-testid="display-welcome">
          {t('welcome')}
        </p>
      </main>
    );
  }
  const money = (v: string) => moneyText(BigInt(v), cart.currency, locale);
  return (
    <main className={s.cartMain}>
      <section className={s.order} aria-labelledby="display-order">
        <h2 id="display-order" className={s.sectionHeading}>
          {t('yourOrder')}
        </h2>
        <ul className={s.lines} data-testid="display-lines">
          {cart.lines.map((l, i) => (
            <li key={i} className={s.line} data-testid="display-line">
              <span className={s.lineName}>
                {l.count > 1 ? <span className={s.count}>{l.count} × </span> : null}
                {l.name}
              </span>
              <span className={s.lineTotal}>{money(l.total)}</span>
            </li>
          ))}
        </ul>
      </section>
      <section className={s.totalsBox} aria-label={t('total')}>
        <dl className={s.totals}>
          {cart.adjustments.map((a) => (
            <div key={a.kind}>
              <dt>{t(a.kind)}</dt>
              <dd>{money(a.amount)}</dd>
            </div>
          ))}
          <div className={s.grand}>
            <dt>{t('total')}</dt>
            <dd data-testid="display-total">{money(cart.total)}</dd>
          </div>
        </dl>
      </section>
    </main>
  );
}

/** Width the QR code aims at on this screen: large, within the viewport. */
const qrTargetPx = () => Math.max(240, Math.min(640, Math.floor(Math.min(window.innerWidth * 0.8, window.innerHeight * 0.55))));

function followResize(changed: () => void) {
  window.addEventListener('resize', changed);
  return () => window.removeEventListener('resize', changed);
}

function useQrTarget(): number {
  return useSyncExternalStore(followResize, qrTargetPx, () => 360);
}

/** The code to scan, drawn once per URI and screen size. */
function DisplayQr({ uri, alt }: { uri: string; alt: string }) {
  const t = useTranslations('display');
  const target = useQrTarget();
  const qr = useMemo(() => qrImage(uri, target), [uri, target]);
  return (
    <section className={s.qrSide} aria-label={t('scanToPay')}>
      {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL QR code drawn here: next/image has nothing to fetch or resize */}
      <img
        className={s.qr}
        src={qr.src}
        width={qr.px}
        height={qr.px}
        alt={alt}
        data-uri={uri}
        data-modules={qr.modules}
        data-testid="display-qr"
      />
    </section>
  );
}

function PaymentView({ p }: { p: DisplayPayment }) {
  const t = useTranslations('display');
  const locale = useLocale();
  const [now, setNow] = useState(() => Date.now());
  const expiresAt = Date.parse(p.expires_at);
  const { state, rest } = checkoutShown(p.live, p.total, p.uri, expiresAt, now);
  const asking = asksForMoney(state);
  // Expiry is a matter of time: re-judged every second while money is asked for.
  useEffect(() => {
    if (!asking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [asking]);
  const qrUri = rest ? rest.restUri : p.form === 'dogeconnect' ? p.connect_uri : p.uri;
  const doge = (v: string | bigint) => dogeText(v, locale);
  const [headline, detail] =
    state === 'paid'
      ? [t('paid'), '']
      : state === 'underpaid' && rest
        ? [t('underpaid'), t('underpaidDetail', { missing: doge(rest.due), paid: doge(rest.paid) })]
        : state === 'expired'
          ? [t('expired'), t('expiredDetail')]
          : state === 'cancelled'
            ? [t('cancelled'), t('cancelledDetail')]
            : state === 'declined'
              ? [t('declined'), t('cancelledDetail')]
              : state === 'accepted'
                ? [t('accepted'), t('acceptedDetail')]
                : state === 'data_missing'
                  ? [t('accepted'), t('dataMissingDetail')]
                  : [t('scanToPay'), p.form === 'dogeconnect' ? t('connectNeeded') : ''];
  return (
    <main className={s.payMain}>
      {asking && qrUri ? <DisplayQr uri={qrUri} alt={rest ? t('restQrAlt', { missing: doge(rest.due) }) : t('qrAlt')} /> : null}
      <section className={s.payInfo} aria-label={t('amountDue')}>
        <div
          className={`${s.status} ${s['st_' + state] ?? ''}`}
          role="status"
          aria-live="polite"
          data-testid="display-status"
          data-state={state}
        >
          <strong>{headline}</strong>
          {detail ? <span>{detail}</span> : null}
        </div>
        <div className={s.amount}>
          <span className={s.amountLabel}>{state === 'paid' || state === 'accepted' ? t('amountPaid') : t('amountDue')}</span>
          <strong data-testid="display-amount">{doge(p.total)}</strong>
          {p.fiat_total && p.fiat_currency ? (
            <span className={s.fiat}>
              ≈ {p.fiat_total} {p.fiat_currency}
            </span>
          ) : null}
        </div>
        <ul className={s.payLines}>
          {p.items
            .filter((it) => it.name)
            .map((it, i) => (
              <li key={i}>
                <span>
                  {it.count > 1 ? `${it.count} × ` : ''}
                  {it.name}
                  {it.desc ? <small className={s.itemDesc}> · {it.desc}</small> : null}
                </span>
                <span>{it.total ? doge(it.total) : ''}</span>
              </li>
            ))}
        </ul>
      </section>
    </main>
  );
}
