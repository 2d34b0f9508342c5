'use client';
// The payment screen after Charge: a large QR code (dogeconnect: or dogecoin: form), the amount
// and lines, a countdown, and live status from the SSE feed (/api/v1/payments/<id>/events).
// A tx the network refuses leaves the payment unpaid: the screen keeps waiting (with its QR
// code and Cancel) and shows no txid until a tx is accepted.
import { useEffect, useState } from 'react';
import QRCode from 'qrcode';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { EmailReceipt } from './receipt/email-receipt';
import { dogeText } from '@/lib/pos/cart';
import { countdown, isFinalPosState, posPaymentState, posStatusText, shownTxid, type PosPaymentView } from '@/lib/pos/payment-state';
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
  payment: {
    items: { type: string; id: string; name: string; count: number; unit: string; total: string; tax: string }[];
    fiat_total: string;
    fiat_tax: string;
    fiat_currency: string;
    order_reference?: string;
  };
}

type View = PosPaymentView & { txid?: string | null };

const doge = (s8: string) => dogeText(s8);

export function PaymentScreen({ payment, fiatCurrency, onNewSale, demoWallet = false }: {
  payment: CreatedPayment;
  fiatCurrency: string;
  onNewSale: () => void;
  demoWallet?: boolean;
}) {
  const [view, setView] = useState<View>({ status: payment.status });
  const [form, setForm] = useState<'connect' | 'dogecoin'>('connect');
  const [svg, setSvg] = useState('');
  const [now, setNow] = useState(() => Date.now());
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState('');
  const expiresAt = Date.parse(payment.expires_at);
  const uri = form === 'connect' ? payment.connect_uri : payment.uri;
  const state = posPaymentState(view, expiresAt, now);
  const final = isFinalPosState(state);
  const [live, setLive] = useState(true);

  useEffect(() => {
    const es = new EventSource(`/api/v1/payments/${encodeURIComponent(payment.id)}/events`);
    es.addEventListener('payment', (e) => {
      setLive(true);
      setView(JSON.parse((e as MessageEvent).data));
    });
    es.addEventListener('end', (e) => {
      // final: nothing more will change. Otherwise (connection lifetime, database trouble) the
      // server closes and EventSource reconnects by itself.
      const reason = (JSON.parse((e as MessageEvent).data) as { reason?: string }).reason;
      if (reason === 'final' || reason === 'not_found') es.close();
    });
    es.onopen = () => setLive(true);
    es.onerror = () => setLive(es.readyState === EventSource.CLOSED); // reconnecting: show it
    return () => es.close();
  }, [payment.id]);

  useEffect(() => {
    if (final) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [final]);

  useEffect(() => {
    let live = true;
    QRCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M', color: { dark: '#1d1b16', light: '#ffffff' } })
      .then((x) => live && setSvg(x))
      .catch(() => live && setSvg(''));
    return () => {
      live = false;
    };
  }, [uri]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(uri);
    } catch {
      const ta = document.createElement('textarea');
      ta.value = uri;
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
    const r = await csrfFetch(`/api/v1/payments/${encodeURIComponent(payment.id)}/cancel`, { method: 'POST', body: '{}' }).catch(() => null);
    if (!r) return setError('network error: try again');
    const b = await r.json().catch(() => ({}));
    if (r.ok) setView(b);
    else setError(b.message ?? `could not cancel (${r.status})`);
  }

  const p = payment.payment;
  const [headline, detail] = posStatusText(state, view);
  const txid = shownTxid(state, view.txid);

  return (
    <main className={s.pay}>
      <section className={s.qrPanel} aria-label="Payment code">
        <div className={`${s.qrBox} ${final && state !== 'confirmed' ? s.qrDim : ''}`}>
          {svg ? (
            // eslint-disable-next-line @next/next/no-img-element
            <img className={s.qr} src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} alt="Payment QR code" data-uri={uri} />
          ) : <div className={s.qr} aria-hidden="true" />}
          {state === 'confirmed' ? <div className={s.qrDone} aria-hidden="true">✓</div> : null}
        </div>
        <div className={s.formToggle} role="radiogroup" aria-label="QR code form">
          <button type="button" role="radio" aria-checked={form === 'connect'} className={form === 'connect' ? s.modeOn : s.mode} onClick={() => setForm('connect')}>DogeConnect</button>
          <button type="button" role="radio" aria-checked={form === 'dogecoin'} className={form === 'dogecoin' ? s.modeOn : s.mode} onClick={() => setForm('dogecoin')}>dogecoin: URI</button>
        </div>
        <div className={s.uriRow}>
          <code className={s.uri} data-testid="payment-uri">{uri}</code>
          <button type="button" className={s.secondary} onClick={copy}>{copied ? 'Copied' : 'Copy'}</button>
        </div>
        {demoWallet && state === 'waiting' ? (
          <a className={s.link} href={`/demo/wallet?uri=${encodeURIComponent(uri)}`} target="_blank" rel="noreferrer">Pay with the demo wallet</a>
        ) : null}
      </section>

      <section className={s.payInfo} aria-label="Payment">
        <div className={s.amount}>
          <span className={s.amountLabel}>{state === 'confirmed' || state === 'accepted' ? 'Amount paid' : 'Amount due'}</span>
          <strong data-testid="payment-total">{doge(payment.total)}</strong>
          {p.fiat_total ? <span className={s.fiatBig}>≈ {p.fiat_total} {p.fiat_currency || fiatCurrency}</span> : null}
        </div>
        <div className={`${s.status} ${s['st_' + state]}`} role="status" aria-live="polite" data-testid="payment-status" data-state={state}>
          <span className={s.statusDot} aria-hidden="true" />
          <div>
            <strong>{headline}</strong>
            <span>{detail}</span>
          </div>
          {state === 'waiting' ? <span className={s.countdown} aria-label="Time left">{countdown(expiresAt - now)}</span> : null}
        </div>
        {!live && !final ? <p className={s.txid} role="note">Reconnecting to live updates…</p> : null}
        {txid ? <p className={s.txid}>tx <code>{txid}</code></p> : null}
        <ul className={s.payLines}>
          {p.items.map((it, i) => (
            <li key={i}>
              <span>{it.count > 1 ? `${it.count} × ` : ''}{it.name}{it.tax && it.tax !== '0' ? <small> + tax {doge(it.tax)}</small> : null}</span>
              <span>{doge(it.total)}</span>
            </li>
          ))}
        </ul>
        {error ? <p className={s.error} role="alert">{error}</p> : null}
        <div className={s.payActions}>
          {state === 'waiting' ? <button type="button" className={s.danger} onClick={cancel}>Cancel</button> : null}
          <a className={s.secondary} href={`/pos/receipt/${payment.id}`} target="_blank" rel="noreferrer">Receipt</a>
          <button type="button" className={final ? s.primary : s.secondary} onClick={onNewSale}>New sale</button>
        </div>
        {state === 'confirmed' || state === 'accepted' ? <EmailReceipt paymentId={payment.id} /> : null}
      </section>
    </main>
  );
}
