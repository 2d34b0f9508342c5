'use client';
import { useEffect, useRef, useState } from 'react';
import { useRouter } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';
import { dogeAmount } from '@/lib/i18n';
import { usePoll, readJson } from '@/app/_lib/swr';
import { useAdminCall } from './api';
import { RefundCashSale } from './refund-cash';
import { RefundFormEnd, RefundOpenButton, useRefundForm } from './use-refund-form';
import { ActionButton } from '@/app/_lib/action-button';

// The Refund button on a paid invoice (docs/api.md#refunds): a small form (DOGE or fiat amount, rate
// then/now, address, reason, "Return to stock") posted to POST /api/v1/payments/<id>/refunds. The new refund then
// shows in the invoice's Refunds list with its QR code for the merchant's wallet.
export function RefundInvoice({
  id,
  refundable,
  currency,
  customerAddress,
  cash = false,
}: {
  id: string;
  refundable: string;
  currency: string;
  customerAddress: string;
  cash?: boolean;
}) {
  if (cash) return <RefundCashSale id={id} refundable={refundable} currency={currency} />;
  return <RefundDogeSale id={id} refundable={refundable} currency={currency} customerAddress={customerAddress} />;
}

function RefundDogeSale({
  id,
  refundable,
  currency,
  customerAddress,
}: {
  id: string;
  refundable: string;
  currency: string;
  customerAddress: string;
}) {
  const t = useTranslations('adminInvoice');
  const locale = useLocale();
  const form = useRefundForm(id);
  const [unit, setUnit] = useState<'doge' | 'fiat'>('doge');
  const [rate, setRate] = useState<'then' | 'now'>('then');
  const [address, setAddress] = useState('');
  if (!form.open) return <RefundOpenButton form={form} />;
  const submit = form.submitWith((a) => ({
    address: address.trim() || null,
    ...(a && unit === 'doge' ? { amount: a } : {}),
    ...(a && unit === 'fiat' ? { fiat_amount: a, rate } : {}),
  }));
  return (
    <form className="bo-refund-form" data-testid="refund-form" onSubmit={submit}>
      <p className="muted">{t('refundUpTo', { amount: dogeAmount(refundable, locale) })}</p>
      <label>
        {t('amount')}{' '}
        <input
          type="text"
          inputMode="decimal"
          value={form.amount}
          maxLength={40}
          onChange={(e) => form.setAmount(e.target.value)}
          placeholder={refundable}
        />
      </label>
      <label>
        {t('refundIn')}{' '}
        <select value={unit} onChange={(e) => setUnit(e.target.value as 'doge' | 'fiat')}>
          <option value="doge">DOGE</option>
          <option value="fiat">{currency}</option>
        </select>
      </label>
      {unit === 'fiat' ? (
        <label>
          {t('refundRate')}{' '}
          <select value={rate} onChange={(e) => setRate(e.target.value as 'then' | 'now')}>
            <option value="then">{t('rateThen')}</option>
            <option value="now">{t('rateNow')}</option>
          </select>
        </label>
      ) : null}
      <label>
        {t('address')}{' '}
        <input
          type="text"
          value={address}
          maxLength={100}
          onChange={(e) => setAddress(e.target.value)}
          placeholder={customerAddress || t('customerAddress')}
        />
      </label>
      <RefundFormEnd form={form} />
    </form>
  );
}

/** A refund's live status: polls /relay/status (the refund id is its capability) until confirmed or declined. */
export function RefundStatus({ id, status, labels }: { id: string; status: string; labels: Record<string, string> }) {
  const router = useRouter();
  const final = (s: string) => s === 'confirmed' || s === 'declined';
  const { data } = usePoll<{ status: string }>(
    `/relay/status#${id}`,
    { status },
    {
      read: () =>
        readJson<{ status: string }>('/relay/status', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ id }),
        }),
      refreshInterval: (cur) => (final(cur?.status ?? status) ? 0 : 3000),
    },
  );
  const now = data?.status ?? status;
  const shown = useRef(status);
  useEffect(() => {
    if (now === shown.current) return;
    shown.current = now;
    router.refresh();
  }, [now, router]);
  return (
    <span className={`bo-badge bo-badge-${now}`} data-testid="refund-status" data-status={now}>
      {labels[now] ?? now}
    </span>
  );
}

/** Cancels an unpaid refund created by mistake (POST /api/v1/payments/<rf_id>/cancel): its amount may be refunded again. */
export function CancelRefundButton({ id }: { id: string }) {
  const router = useRouter();
  const t = useTranslations('adminInvoice');
  const adminCall = useAdminCall();
  const [err, setErr] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <span className="bo-inline">
      <ActionButton
        className="btn"
        data-testid="refund-cancel"
        disabled={busy}
        onClick={async () => {
          if (!confirm(t('cancelRefundConfirm'))) return;
          setBusy(true);
          const r = await adminCall('POST', `/api/v1/payments/${encodeURIComponent(id)}/cancel`);
          setBusy(false);
          if (!r.ok) return setErr(r.message);
          router.refresh();
        }}
      >
        {t('cancelRefund')}
      </ActionButton>
      {err ? (
        <span role="alert" className="form-error">
          {err}
        </span>
      ) : null}
    </span>
  );
}
