'use client';
// The payment panel of the customer's checkout page (docs/using-counter.md, "The customer's
// checkout page"): the live status, the countdown, the QR code under the till's rule, the URI
// with Copy and an "Open in wallet" link whose href is the URI the code shows. The server renders
// it first (the order, the code and the link work without JavaScript); in the browser it follows
// the payment through the public stream /api/checkout/<id>/events and, when the payment becomes
// final, asks the server for the page again (router.refresh) so the receipt appears.
import { useEffect, useRef, useState } from 'react';
import { useRouter } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';
import { dogeText, countdown } from '@/lib/pos/client';
import {
  asksForMoney,
  checkoutLive,
  checkoutShown,
  isFinalCheckout,
  type CheckoutLive as Live,
  type CheckoutState,
} from '@/lib/checkout/client';
import type { QrImage } from '@/lib/checkout';
import { PaymentCode } from '@/app/_lib/payment-code';
import { followPaymentEvents } from '@/app/_lib/payment-events';
import { useClock } from '@/app/_lib/use-clock';
import { useHydrated } from '@/app/_lib/use-hydrated';
import s from './checkout.module.css';

export interface CheckoutLiveProps {
  id: string;
  /** The DOGE total, 8-DP string. */
  total: string;
  /** The fiat total as written for the customer ('' when none). */
  fiatText: string;
  /** The payment's `dogecoin:` URI, and the URI its QR code shows (this or `dogeconnect:`). */
  uri: string;
  qrUri: string;
  /** The QR code shows the `dogeconnect:` form: the payment needs a DogeConnect wallet. */
  needsConnect: boolean;
  expiresAt: string;
  /** The server's clock at render, so the first countdown matches the server's HTML. */
  serverNow: number;
  initial: Live;
  /** "Back to the shop" (the vendor's order page), '' when none: shown once paid or final. */
  shopUrl: string;
  /** The code the server drew for the first state (null when it asked for no money). */
  initialQr: { uri: string; image: QrImage } | null;
}

const STATUS: Record<CheckoutState, 'waiting' | 'underpaid' | 'dataMissing' | 'accepted' | 'paid' | 'expired' | 'cancelled' | 'declined'> =
  {
    waiting: 'waiting',
    underpaid: 'underpaid',
    data_missing: 'dataMissing',
    accepted: 'accepted',
    paid: 'paid',
    expired: 'expired',
    cancelled: 'cancelled',
    declined: 'declined',
  };

/** The payment's live state from the public stream: the current state at once, then every change, until the payment is final; `streamUp` false while it reconnects. */
function useCheckoutStream(id: string, initial: Live): { live: Live; streamUp: boolean } {
  const [live, setLive] = useState<Live>(initial);
  const [streamUp, setStreamUp] = useState(true);
  useEffect(
    () =>
      followPaymentEvents<Parameters<typeof checkoutLive>[0]>(`/api/checkout/${encodeURIComponent(id)}/events`, {
        payment: (v) => {
          setStreamUp(true);
          setLive(checkoutLive(v));
        },
        open: () => setStreamUp(true),
        down: () => setStreamUp(false),
      }),
    [id],
  );
  return { live, streamUp };
}

/** The status line's second part: what is missing when short, the confirmations while accepted, else the state's own text. */
function statusDetail(
  t: ReturnType<typeof useTranslations<'checkout'>>,
  state: CheckoutState,
  rest: ReturnType<typeof checkoutShown>['rest'],
  live: Live,
  doge: (v: string | bigint) => string,
  total: string,
): string {
  if (state === 'underpaid' && rest) return t('underpaidDetail', { paid: doge(rest.paid), total: doge(total), missing: doge(rest.due) });
  if (state === 'accepted') {
    return live.confirmed >= live.required
      ? t('acceptedDone', { n: live.confirmed })
      : t('acceptedProgress', { n: live.confirmed, m: live.required });
  }
  return t(`${STATUS[state]}Detail` as 'waitingDetail');
}

export function CheckoutLive(p: CheckoutLiveProps) {
  const t = useTranslations('checkout');
  const locale = useLocale();
  const router = useRouter();
  const doge = (v: string | bigint) => dogeText(v, locale);
  const { live, streamUp } = useCheckoutStream(p.id, p.initial);
  const hydrated = useHydrated();
  const expiresAtMs = Date.parse(p.expiresAt);
  const shownAt = (at: number) => checkoutShown(live, p.total, p.uri, expiresAtMs, at);
  // The countdown, while the payment can still be paid.
  const now = useClock(p.serverNow, (at) => !isFinalCheckout(shownAt(at).state));
  const { state, rest } = shownAt(now);
  const final = isFinalCheckout(state);
  const asks = asksForMoney(state);
  const shownUri = rest ? rest.restUri : p.qrUri;
  const firstState = useRef(state);

  // Final on this screen: the server draws the rest (the receipt, "Back to the shop").
  useEffect(() => {
    if (final && firstState.current !== state) {
      firstState.current = state;
      router.refresh();
    }
  }, [final, state, router]);

  const key = STATUS[state];
  const detail = statusDetail(t, state, rest, live, doge, p.total);
  const paidAmount = state === 'paid' || state === 'accepted';

  return (
    <section
      className={s.pay}
      aria-labelledby="checkout-pay-heading"
      data-testid="checkout-payment"
      data-hydrated={hydrated ? '' : undefined}
    >
      <h2 id="checkout-pay-heading" className={s.payHeading}>
        {asks ? (rest ? t('scanRest') : t('scanToPay')) : t('payment')}
      </h2>
      <div className={`${s.amount} ${s.noPrint}`}>
        <span className={s.amountLabel}>{paidAmount ? t('amountPaid') : t('toPay')}</span>
        <strong data-testid="checkout-total">{doge(p.total)}</strong>
        {p.fiatText ? (
          <span className={s.fiat} data-testid="checkout-fiat">
            {p.fiatText}
          </span>
        ) : null}
      </div>
      <div
        className={`${s.status} ${s['st_' + state]} ${s.noPrint}`}
        role="status"
        aria-live="polite"
        aria-atomic="true"
        data-testid="checkout-status"
        data-state={state}
      >
        <span className={s.dot} aria-hidden="true" />
        <div>
          <strong>{t(key)}</strong>
          <span>{detail}</span>
        </div>
      </div>
      {!final && !streamUp ? (
        <p className={s.notice} role="status">
          {t('reconnecting')}
        </p>
      ) : null}
      {asks ? (
        <div className={s.qrBlock}>
          <p className={s.countdown}>
            {t('timeLeft')} <span data-testid="checkout-countdown">{countdown(expiresAtMs - now)}</span>
          </p>
          <PaymentCode
            uri={p.qrUri}
            rest={rest}
            drawn={p.initialQr}
            sized
            canCopy={hydrated}
            alt={t('qrAlt', { amount: doge(p.total) })}
            restAlt={(due) => t('restQrAlt', { amount: doge(due) })}
            copyLabels={{ copy: t('copy'), copied: t('copied') }}
            look={{ qr: s.qr, uriRow: s.uriRow, uri: s.uri, copy: s.secondary }}
            testIds={{ qr: 'checkout-qr', uri: 'checkout-uri' }}
          >
            {p.needsConnect ? (
              <p className={s.needsConnect} data-testid="needs-connect">
                {t('needsConnect')}
              </p>
            ) : null}
          </PaymentCode>
          <a className={s.primary} href={shownUri} data-testid="open-in-wallet">
            {t('openInWallet')}
          </a>
        </div>
      ) : null}
      {p.shopUrl && (final || state === 'accepted') ? (
        <a className={`${s.primary} ${s.noPrint}`} href={p.shopUrl} data-testid="back-to-shop">
          {t('backToShop')}
        </a>
      ) : null}
    </section>
  );
}
