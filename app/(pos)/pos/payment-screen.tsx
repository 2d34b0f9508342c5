'use client';
// The payment screen after Charge: a large QR code (payment-qr-panel.tsx), the amount and lines,
// a countdown, and live status from the SSE feed (use-payment-feed.ts).
// A tx the network refuses leaves the payment unpaid: the screen keeps waiting (with its QR
// code and Cancel) and shows no txid until a tx is accepted.
// The till never loses a sale (docs/using-counter.md#the-till-pos): while live updates are down a payment that is not
// final shows "Status unknown" (no countdown), and re-syncs by fetching the payment when they
// are back; leaving a waiting sale asks first; an expired sale can be charged again; "OK to
// hand over" only on confirmed, with a sound (which the cashier can turn off).
import { useEffect, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { useClock } from '@/app/_lib/use-clock';
import { EmailReceipt } from './receipt/email-receipt';
import { isFinalPosState, posPaymentState, posShownState, saleInProgress, shownTxid, underpaidRest } from '@/lib/pos/client';
import { playPaidSound } from './till-ui';
import { PaymentQrPanel } from './payment-qr-panel';
import { PaymentAmount, PaymentLines, PaymentStatus } from './payment-status';
import { usePaymentFeed, type PaymentView } from './use-payment-feed';
import type { CreatedPayment } from './created-payment';
import s from './pos.module.css';

/** Cancel (asked first), Charge again, the receipt and New sale (asked first while the sale is still on), with the error of a failed cancel. */
function PaymentActions({
  paymentId,
  state,
  shown,
  final,
  setView,
  onNewSale,
  onChargeAgain,
  ask,
}: {
  paymentId: string;
  state: ReturnType<typeof posPaymentState>;
  shown: ReturnType<typeof posShownState>;
  final: boolean;
  setView: ReturnType<typeof usePaymentFeed>['setView'];
  onNewSale: () => void;
  onChargeAgain: () => void;
  ask: (title: string, body: string, yes: string, no?: string) => Promise<boolean>;
}) {
  const t = useTranslations('payment');
  const tc = useTranslations('common');
  const [error, setError] = useState('');

  async function cancel() {
    setError('');
    if (!(await ask(t('cancelTitle'), t('cancelBody'), t('cancelYes'), t('keepWaiting')))) return;
    const r = await csrfFetch(`/api/v1/payments/${encodeURIComponent(paymentId)}/cancel`, { method: 'POST', body: '{}' }).catch(() => null);
    if (!r) return setError(tc('networkRetry'));
    const b = await r.json().catch(() => ({}));
    if (r.ok) setView(b);
    else setError(b.message ?? t('cancelFailed', { status: r.status }));
  }

  async function newSale() {
    if (
      saleInProgress(shown) &&
      !(await ask(t('leaveTitle'), shown === 'accepted' ? t('leaveAccepted') : t('leaveWaiting'), t('leaveYes'), t('stay')))
    )
      return;
    onNewSale();
  }

  return (
    <>
      {error ? (
        <p className={s.error} role="alert">
          {error}
        </p>
      ) : null}
      <div className={s.payActions}>
        {state === 'waiting' ? (
          <button type="button" className={s.danger} onClick={cancel}>
            {t('cancel')}
          </button>
        ) : null}
        {state === 'expired' ? (
          <button type="button" className={s.primary} onClick={onChargeAgain}>
            {t('chargeAgain')}
          </button>
        ) : null}
        <a className={s.secondary} href={`/pos/receipt/${paymentId}`} target="_blank" rel="noreferrer">
          {tc('receipt')}
        </a>
        <button type="button" className={final && state !== 'expired' ? s.primary : s.secondary} onClick={newSale}>
          {t('newSale')}
        </button>
      </div>
    </>
  );
}

export function PaymentScreen({
  payment,
  fiatCurrency,
  onNewSale,
  onChargeAgain,
  demoWallet = false,
  connected,
  onLiveChange,
  sound,
  ask,
}: {
  payment: CreatedPayment & Partial<PaymentView>;
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
  const { view, setView, sse } = usePaymentFeed(payment);
  const expiresAt = Date.parse(payment.expires_at);
  const now = useClock(Date.now, (at) => !isFinalPosState(posPaymentState(view, expiresAt, at)));
  const state = posPaymentState(view, expiresAt, now);
  const final = isFinalPosState(state);
  const shown = posShownState(state, sse && connected);
  // Short (docs/api.md#payments-from-any-wallet): what is missing, and a plain dogecoin: QR code for the rest.
  const rest = underpaidRest(state, view, payment.total, payment.uri);
  const heading = useRef<HTMLHeadingElement>(null);
  const wasPaid = useRef(state === 'confirmed');

  // Opens at the top with the whole QR code in view, focus on its heading.
  useEffect(() => {
    window.scrollTo(0, 0);
    heading.current?.focus({ preventScroll: true });
  }, [payment.id]);

  useEffect(() => onLiveChange(sse), [sse, onLiveChange]);
  useEffect(() => () => onLiveChange(true), [onLiveChange]);

  // Paid: the sound, once, when it happens on this screen.
  useEffect(() => {
    if (state === 'confirmed' && !wasPaid.current) {
      wasPaid.current = true;
      if (sound) playPaidSound();
    }
  }, [state, sound]);

  const txid = shownTxid(state, view.txid);
  return (
    <main className={s.pay}>
      <PaymentQrPanel payment={payment} state={state} final={final} rest={rest} demoWallet={demoWallet} headingRef={heading} />
      <section className={s.payInfo} aria-label={t('heading')}>
        <PaymentAmount payment={payment} paid={state === 'confirmed' || state === 'accepted'} fiatCurrency={fiatCurrency} />
        <PaymentStatus state={state} shown={shown} view={view} rest={rest} total={payment.total} expiresAt={expiresAt} now={now} />
        {txid ? (
          <p className={s.txid}>
            tx <code>{txid}</code>
          </p>
        ) : null}
        <PaymentLines items={payment.payment.items} />
        <PaymentActions
          paymentId={payment.id}
          state={state}
          shown={shown}
          final={final}
          setView={setView}
          onNewSale={onNewSale}
          onChargeAgain={onChargeAgain}
          ask={ask}
        />
        {state === 'confirmed' || state === 'accepted' ? <EmailReceipt paymentId={payment.id} /> : null}
      </section>
    </main>
  );
}
