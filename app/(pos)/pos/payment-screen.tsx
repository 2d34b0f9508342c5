'use client';
// The payment screen after Charge: a large QR code, the amount and lines, a countdown, and live
// status from the SSE feed (/api/v1/payments/<id>/events). The QR code opens on the dogecoin:
// form every wallet reads, or on dogeconnect: when only a DogeConnect wallet can pay (data
// outputs, signing items), saying so (preferredQrForm, docs/relay.md). It is drawn with error
// correction M, a 4-module quiet zone and modules of at least 4 CSS px (QR_MIN_MODULE_PX).
// A tx the network refuses leaves the payment unpaid: the screen keeps waiting (with its QR
// code and Cancel) and shows no txid until a tx is accepted.
// The till never loses a sale (docs/using-counter.md#the-till-pos): while live updates are down a payment that is not
// final shows "Status unknown" (no countdown), and re-syncs by fetching the payment when they
// are back; leaving a waiting sale asks first; an expired sale can be charged again; "OK to
// hand over" only on confirmed, with a sound (which the cashier can turn off).
import { useEffect, useRef, useState } from 'react';
import QRCode from 'qrcode';
import { needsConnectWallet, preferredQrForm, type QrForm } from '@/lib/connect/client';
import { useLocale, useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { EmailReceipt } from './receipt/email-receipt';
import { dogeText } from '@/lib/pos/cart';
import { countdown, isFinalPosState, okToHandOver, posPaymentState, posShownState, posStatusMessage, saleInProgress, shownTxid, underpaidRest, type PosPaymentView } from '@/lib/pos/payment-state';
import { playPaidSound } from './till-ui';
import { LockedRate, type LockedRateView } from './pricing';
import s from './pos.module.css';

export interface CreatedPayment {
  id: string;
  status: string;
  total: string;
  uri: string;
  connect_uri: string;
  envelope_url: string;
  issued: string;
  expires_at: string;
  /** The rate a fiat-priced payment was converted at (docs/api.md#exchange-rates); null when priced in DOGE. */
  rate?: LockedRateView | null;
  payment: {
    items: { type: string; id: string; name: string; count?: number; unit?: string; total?: string; tax?: string }[];
    outputs?: { type?: string }[];
    fiat_total: string;
    fiat_tax: string;
    fiat_currency: string;
    order_reference?: string;
  };
}

type View = PosPaymentView & { txid?: string | null };

/** Quiet zone, in modules, on each side of the QR code (ISO/IEC 18004 asks for 4). */
const QR_MARGIN = 4;
/** Smallest module size in CSS px, so a phone reads the code from 30 cm. */
const QR_MIN_MODULE_PX = 4;


export function PaymentScreen({ payment, fiatCurrency, onNewSale, onChargeAgain, demoWallet = false, connected, onLiveChange, sound, ask }: {
  payment: CreatedPayment & Partial<View>;
  fiatCurrency: string;
  onNewSale: () => void;
  /** An expired sale: charge the same lines again. */
  onChargeAgain: () => void;
  demoWallet?: boolean;
  /** The till's own connection check (poll, browser online): false = live updates are down. */
  connected: boolean;
  /** Reports whether this screen's live feed (SSE) is up. */
  onLiveChange: (live: boolean) => void;
  sound: boolean;
  ask: (title: string, body: string, yes: string, no?: string) => Promise<boolean>;
}) {
  const t = useTranslations('payment');
  const tc = useTranslations('common');
  const locale = useLocale();
  const doge = (v: string | bigint) => dogeText(v, locale);
  const [view, setView] = useState<View>({ ...payment, status: payment.status });
  const [form, setForm] = useState<QrForm>(() => preferredQrForm(payment));
  const connectOnly = needsConnectWallet(payment);
  const [svg, setSvg] = useState('');
  const [qrModules, setQrModules] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState('');
  const expiresAt = Date.parse(payment.expires_at);
  const uri = form === 'dogeconnect' ? payment.connect_uri : payment.uri;
  const state = posPaymentState(view, expiresAt, now);
  const final = isFinalPosState(state);
  const [sse, setSse] = useState(true);
  const [attempt, setAttempt] = useState(0);
  const live = sse && connected;
  const shown = posShownState(state, live);
  // Short (docs/api.md#payments-from-any-wallet): what is missing, and a plain dogecoin: QR code for the rest.
  const rest = underpaidRest(state, view, payment.total, payment.uri);
  const qrUri = rest ? rest.restUri : uri;
  const heading = useRef<HTMLHeadingElement>(null);
  const wasPaid = useRef(state === 'confirmed');

  // Opens at the top with the whole QR code in view, focus on its heading.
  useEffect(() => {
    window.scrollTo(0, 0);
    heading.current?.focus({ preventScroll: true });
  }, [payment.id]);

  useEffect(() => onLiveChange(sse), [sse, onLiveChange]);
  useEffect(() => () => onLiveChange(true), [onLiveChange]);

  useEffect(() => {
    let done = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const id = encodeURIComponent(payment.id);
    const resync = () =>
      fetch(`/api/v1/payments/${id}`, { cache: 'no-store' })
        .then((r) => (r.ok ? r.json() : null))
        .then((b) => { if (b && !done) setView(b); })
        .catch(() => null);
    const es = new EventSource(`/api/v1/payments/${id}/events`);
    es.addEventListener('payment', (e) => {
      setSse(true);
      setView(JSON.parse((e as MessageEvent).data));
    });
    es.addEventListener('end', (e) => {
      // final: nothing more will change. Otherwise (connection lifetime, database trouble) the
      // server closes and EventSource reconnects by itself.
      const reason = (JSON.parse((e as MessageEvent).data) as { reason?: string }).reason;
      if (reason === 'final' || reason === 'not_found') {
        done = true;
        es.close();
      }
    });
    es.onopen = () => {
      setSse(true);
      void resync(); // whatever happened while we were away
    };
    es.onerror = () => {
      if (done) return;
      setSse(false);
      // Refused for good (429, 5xx): try a fresh stream in a while; otherwise EventSource retries.
      if (es.readyState === EventSource.CLOSED) retry = setTimeout(() => setAttempt((a) => a + 1), 3000);
    };
    const online = () => setAttempt((a) => a + 1);
    window.addEventListener('online', online);
    return () => {
      done = true;
      clearTimeout(retry);
      window.removeEventListener('online', online);
      es.close();
    };
  }, [payment.id, attempt]);

  // Paid: the sound, once, when it happens on this screen.
  useEffect(() => {
    if (state === 'confirmed' && !wasPaid.current) {
      wasPaid.current = true;
      if (sound) playPaidSound();
    }
  }, [state, sound]);

  useEffect(() => {
    if (final) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [final]);

  useEffect(() => {
    let live = true;
    try {
      setQrModules(QRCode.create(qrUri, { errorCorrectionLevel: 'M' }).modules.size + 2 * QR_MARGIN);
    } catch {
      setQrModules(0);
    }
    QRCode.toString(qrUri, { type: 'svg', margin: QR_MARGIN, errorCorrectionLevel: 'M', color: { dark: '#1d1b16', light: '#ffffff' } })
      .then((x) => live && setSvg(x))
      .catch(() => live && setSvg(''));
    return () => {
      live = false;
    };
  }, [qrUri]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(qrUri);
    } catch {
      const ta = document.createElement('textarea');
      ta.value = qrUri;
      document.body.appendChild(ta);
      ta.select();
      document.execCommand('copy');
      ta.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  }

  async function cancel() {
    setError('');
    if (!(await ask(t('cancelTitle'), t('cancelBody'), t('cancelYes'), t('keepWaiting')))) return;
    const r = await csrfFetch(`/api/v1/payments/${encodeURIComponent(payment.id)}/cancel`, { method: 'POST', body: '{}' }).catch(() => null);
    if (!r) return setError(tc('networkRetry'));
    const b = await r.json().catch(() => ({}));
    if (r.ok) setView(b);
    else setError(b.message ?? t('cancelFailed', { status: r.status }));
  }

  async function newSale() {
    if (saleInProgress(shown) && !(await ask(t('leaveTitle'), shown === 'accepted' ? t('leaveAccepted') : t('leaveWaiting'),
      t('leaveYes'), t('stay')))) return;
    onNewSale();
  }

  const p = payment.payment;
  const msg = posStatusMessage(state, view);
  const [headline, detail] = shown === 'unknown'
    ? [t('unknown'), t('unknownDetail')]
    : rest ? [t('underpaid'), t('underpaidDetail', { paid: doge(rest.paid), total: doge(payment.total), missing: doge(rest.due) })]
    : [t(msg.title as 'waiting'), msg.reason ?? t(msg.detail as 'waiting', msg.values)];
  const txid = shownTxid(state, view.txid);

  return (
    <main className={s.pay}>
      <section className={s.qrPanel} aria-label={t('code')}>
        <h2 className={s.payHeading} ref={heading} tabIndex={-1}>{rest ? t('payRest') : state === 'waiting' ? t('scanToPay') : t('heading')}</h2>
        <div className={`${s.qrBox} ${final && state !== 'confirmed' ? s.qrDim : ''}`} style={qrModules ? { minWidth: qrModules * QR_MIN_MODULE_PX } : undefined}>
          {svg ? (
            // eslint-disable-next-line @next/next/no-img-element
            <img className={s.qr} src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} alt={rest ? t('restQrAlt', { missing: doge(rest.due) }) : t('qrAlt')} data-uri={qrUri} data-modules={qrModules || undefined} />
          ) : <div className={s.qr} aria-hidden="true" />}
          {state === 'confirmed' ? <div className={s.qrDone} aria-hidden="true">✓</div> : null}
        </div>
        {connectOnly && !rest ? <p className={s.notice} data-testid="connect-needed">{t('connectNeeded')}</p> : null}
        {rest ? null : <div className={s.formToggle} role="radiogroup" aria-label={t('qrForm')}>
          <button type="button" role="radio" aria-checked={form === 'dogecoin'} className={form === 'dogecoin' ? s.modeOn : s.mode} onClick={() => setForm('dogecoin')}>dogecoin: URI</button>
          <button type="button" role="radio" aria-checked={form === 'dogeconnect'} className={form === 'dogeconnect' ? s.modeOn : s.mode} onClick={() => setForm('dogeconnect')}>DogeConnect</button>
        </div>}
        <div className={s.uriRow}>
          <code className={s.uri} data-testid="payment-uri">{qrUri}</code>
          <button type="button" className={s.secondary} onClick={copy}>{copied ? t('copied') : t('copy')}</button>
        </div>
        {demoWallet && state === 'waiting' ? (
          <a className={s.link} href={`/demo/wallet?uri=${encodeURIComponent(uri)}`} target="_blank" rel="noreferrer">{t('demoWallet')}</a>
        ) : null}
      </section>

      <section className={s.payInfo} aria-label={t('heading')}>
        <div className={s.amount}>
          <span className={s.amountLabel}>{state === 'confirmed' || state === 'accepted' ? t('amountPaid') : t('amountDue')}</span>
          <strong data-testid="payment-total">{doge(payment.total)}</strong>
          {payment.rate ? <LockedRate rate={payment.rate} fiatTotal={p.fiat_total} fiatCurrency={p.fiat_currency} />
            : p.fiat_total ? <span className={s.fiatBig}>≈ {p.fiat_total} {p.fiat_currency || fiatCurrency}</span> : null}
        </div>
        {rest && shown !== 'unknown' ? <p className={s.notice} data-testid="underpaid">{t('underpaidDetail', { paid: doge(rest.paid), total: doge(payment.total), missing: doge(rest.due) })}</p> : null}
        {okToHandOver(shown) ? <p className={s.handOver} data-testid="hand-over">{t('handOver')}</p> : null}
        <div className={`${s.status} ${s['st_' + shown]}`} role="status" aria-live="polite" data-testid="payment-status" data-state={shown} data-exception={view.exception ?? undefined}>
          <span className={s.statusDot} aria-hidden="true" />
          <div>
            <strong>{headline}</strong>
            <span>{detail}</span>
          </div>
          {shown === 'waiting' ? <span className={s.countdown} aria-label={t('timeLeft')}>{countdown(expiresAt - now)}</span> : null}
        </div>
        {txid ? <p className={s.txid}>tx <code>{txid}</code></p> : null}
        <ul className={s.payLines}>
          {p.items.map((it, i) => (
            <li key={i}>
              <span>{(it.count ?? 1) > 1 ? `${it.count} × ` : ''}{it.name}{it.tax && it.tax !== '0' ? <small> {t('plusTax', { amount: doge(it.tax) })}</small> : null}</span>
              {/* a signing item (data committed on chain) has no count, unit or total */}
              <span>{it.total ? doge(it.total) : ''}</span>
            </li>
          ))}
        </ul>
        {error ? <p className={s.error} role="alert">{error}</p> : null}
        <div className={s.payActions}>
          {state === 'waiting' ? <button type="button" className={s.danger} onClick={cancel}>{t('cancel')}</button> : null}
          {state === 'expired' ? <button type="button" className={s.primary} onClick={onChargeAgain}>{t('chargeAgain')}</button> : null}
          <a className={s.secondary} href={`/pos/receipt/${payment.id}`} target="_blank" rel="noreferrer">{tc('receipt')}</a>
          <button type="button" className={final && state !== 'expired' ? s.primary : s.secondary} onClick={newSale}>{t('newSale')}</button>
        </div>
        {state === 'confirmed' || state === 'accepted' ? <EmailReceipt paymentId={payment.id} /> : null}
      </section>
    </main>
  );
}
