'use client';
// The payment screen's status: what is still missing when paid in part, "OK to hand over" once
// the store's policy is met, and the live state with its reason and countdown (role="status");
// the amount; and the lines the customer pays for.
import { useLocale, useTranslations } from 'next-intl';
import { dogeText, countdown, okToHandOver, posStatusMessage, type PosPaymentState } from '@/lib/pos/client';
import type { CreatedPayment } from './created-payment';
import { LockedRate } from './pricing';
import type { PaymentView } from './use-payment-feed';
import s from './pos.module.css';

export function PaymentStatus({
  state,
  shown,
  view,
  rest,
  total,
  expiresAt,
  now,
}: {
  state: PosPaymentState;
  /** The state shown: "unknown" while live updates are down. */
  shown: PosPaymentState | 'unknown';
  view: PaymentView;
  rest: { paid: bigint; due: bigint } | null;
  total: string;
  expiresAt: number;
  now: number;
}) {
  const t = useTranslations('payment');
  const locale = useLocale();
  const doge = (v: string | bigint) => dogeText(v, locale);
  const missing = rest ? t('underpaidDetail', { paid: doge(rest.paid), total: doge(total), missing: doge(rest.due) }) : '';
  const msg = posStatusMessage(state, view);
  const [headline, detail] =
    shown === 'unknown'
      ? [t('unknown'), t('unknownDetail')]
      : rest
        ? [t('underpaid'), missing]
        : [t(msg.title as 'waiting'), msg.reason ?? t(msg.detail as 'waiting', msg.values)];
  return (
    <>
      {rest && shown !== 'unknown' ? (
        <p className={s.notice} data-testid="underpaid">
          {missing}
        </p>
      ) : null}
      {okToHandOver(shown) ? (
        <p className={s.handOver} data-testid="hand-over">
          {t('handOver')}
        </p>
      ) : null}
      <div
        className={`${s.status} ${s['st_' + shown]}`}
        role="status"
        aria-live="polite"
        data-testid="payment-status"
        data-state={shown}
        data-exception={view.exception ?? undefined}
      >
        <span className={s.statusDot} aria-hidden="true" />
        <div>
          <strong>{headline}</strong>
          <span>{detail}</span>
        </div>
        {shown === 'waiting' ? (
          <span className={s.countdown} aria-label={t('timeLeft')}>
            {countdown(expiresAt - now)}
          </span>
        ) : null}
      </div>
    </>
  );
}

export function PaymentLines({ items }: { items: CreatedPayment['payment']['items'] }) {
  const t = useTranslations('payment');
  const locale = useLocale();
  return (
    <ul className={s.payLines}>
      {items.map((it, i) => (
        <li key={i}>
          <span>
            {(it.count ?? 1) > 1 ? `${it.count} × ` : ''}
            {it.name}
            {it.tax && it.tax !== '0' ? <small> {t('plusTax', { amount: dogeText(it.tax, locale) })}</small> : null}
          </span>
          {/* a signing item (data committed on chain) has no count, unit or total */}
          <span>{it.total ? dogeText(it.total, locale) : ''}</span>
        </li>
      ))}
    </ul>
  );
}

/** Due or paid, in DOGE, with the fiat it was priced in (and the rate locked for it) or its fiat value. */
export function PaymentAmount({ payment, paid, fiatCurrency }: { payment: CreatedPayment; paid: boolean; fiatCurrency: string }) {
  const t = useTranslations('payment');
  const locale = useLocale();
  const p = payment.payment;
  return (
    <div className={s.amount}>
      <span className={s.amountLabel}>{paid ? t('amountPaid') : t('amountDue')}</span>
      <strong data-testid="payment-total">{dogeText(payment.total, locale)}</strong>
      {payment.rate ? (
        <LockedRate rate={payment.rate} fiatTotal={p.fiat_total} fiatCurrency={p.fiat_currency} />
      ) : p.fiat_total ? (
        <span className={s.fiatBig}>
          ≈ {p.fiat_total} {p.fiat_currency || fiatCurrency}
        </span>
      ) : null}
    </div>
  );
}
