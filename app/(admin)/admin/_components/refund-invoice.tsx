'use client';
import { useEffect, useRef, useState } from 'react';
import { useRouter } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';
import { dogeAmount } from '@/lib/i18n/display';
import { usePoll, readJson } from '@/app/_lib/swr';
import { useAdminCall } from './api';
import { RefundCashSale } from './refund-cash';

// The Refund button on a paid invoice (docs/api.md#refunds): a small form (DOGE or fiat amount, rate
// then/now, address, reason, "Return to stock") posted to POST /api/v1/payments/<id>/refunds. The new refund then
// shows in the invoice's Refunds list with its QR code for the merchant's wallet.
export function RefundInvoice({ id, refundable, currency, customerAddress, cash = false }: { id: string; refundable: string; currency: string; customerAddress: string; cash?: boolean }) {
  if (cash) return <RefundCashSale id={id} refundable={refundable} currency={currency} />;
  return <RefundDogeSale id={id} refundable={refundable} currency={currency} customerAddress={customerAddress} />;
}

function RefundDogeSale({ id, refundable, currency, customerAddress }: { id: string; refundable: string; currency: string; customerAddress: string }) {
  const router = useRouter();
  const t = useTranslations('adminInvoice');
  const tc = useTranslations('admin');
  const locale = useLocale();
  const adminCall = useAdminCall();
  const [open, setOpen] = useState(false);
  const [unit, setUnit] = useState<'doge' | 'fiat'>('doge');
  const [amount, setAmount] = useState('');
  const [rate, setRate] = useState<'then' | 'now'>('then');
  const [address, setAddress] = useState('');
  const [reason, setReason] = useState('');
  const [restock, setRestock] = useState(false);
  const [err, setErr] = useState('');
  const [busy, setBusy] = useState(false);
  if (!open) return <button type="button" className="btn" data-testid="refund-open" onClick={() => setOpen(true)}>{t('refundBtn')}</button>;
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setErr('');
    setBusy(true);
    const a = amount.trim();
    const body: Record<string, unknown> = { reason, address: address.trim() || null, ...(restock ? { return_to_stock: true } : {}) };
    if (a && unit === 'doge') body.amount = a;
    if (a && unit === 'fiat') Object.assign(body, { fiat_amount: a, rate });
    const r = await adminCall('POST', `/api/v1/payments/${encodeURIComponent(id)}/refunds`, body);
    setBusy(false);
    if (!r.ok) return setErr(r.message);
    setOpen(false);
    setAmount('');
    router.refresh();
  };
  return (
    <form className="bo-refund-form" data-testid="refund-form" onSubmit={submit}>
      <p className="muted">{t('refundUpTo', { amount: dogeAmount(refundable, locale) })}</p>
      <label>{t('amount')} <input type="text" inputMode="decimal" value={amount} maxLength={40} onChange={(e) => setAmount(e.target.value)} placeholder={refundable} /></label>
      <label>{t('refundIn')} <select value={unit} onChange={(e) => setUnit(e.target.value as 'doge' | 'fiat')}>
        <option value="doge">DOGE</option>
        <option value="fiat">{currency}</option>
      </select></label>
      {unit === 'fiat' ? (
        <label>{t('refundRate')} <select value={rate} onChange={(e) => setRate(e.target.value as 'then' | 'now')}>
          <option value="then">{t('rateThen')}</option>
          <option value="now">{t('rateNow')}</option>
        </select></label>
      ) : null}
      <label>{t('address')} <input type="text" value={address} maxLength={100} onChange={(e) => setAddress(e.target.value)} placeholder={customerAddress || t('customerAddress')} /></label>
      <label>{t('reason')} <input type="text" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} placeholder={t('refundReasonPlaceholder')} /></label>
      <label className="bo-check"><input type="checkbox" checked={restock} onChange={(e) => setRestock(e.target.checked)} /> {t('returnToStock')}</label>
      <span className="bo-inline">
        <button type="submit" className="btn" disabled={busy}>{t('createRefund')}</button>
        <button type="button" className="btn" onClick={() => setOpen(false)}>{tc('cancel')}</button>
      </span>
      {err ? <span role="alert" className="form-error">{err}</span> : null}
    </form>
  );
}

/** A refund's live status: polls /relay/status (the refund id is its capability) until confirmed or declined. */
export function RefundStatus({ id, status, labels }: { id: string; status: string; labels: Record<string, string> }) {
  const router = useRouter();
  const final = (s: string) => s === 'confirmed' || s === 'declined';
  const { data } = usePoll<{ status: string }>(`/relay/status#${id}`, { status }, {
    read: () => readJson<{ status: string }>('/relay/status', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id }) }),
    refreshInterval: (cur) => (final(cur?.status ?? status) ? 0 : 3000),
  });
  const now = data?.status ?? status;
  const shown = useRef(status);
  useEffect(() => {
    if (now === shown.current) return;
    shown.current = now;
    router.refresh();
  }, [now, router]);
  return <span className={`bo-badge bo-badge-${now}`} data-testid="refund-status" data-status={now}>{labels[now] ?? now}</span>;
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
      <button type="button" className="btn" data-testid="refund-cancel" disabled={busy} onClick={async () => {
        if (!confirm(t('cancelRefundConfirm'))) return;
        setBusy(true);
        const r = await adminCall('POST', `/api/v1/payments/${encodeURIComponent(id)}/cancel`);
        setBusy(false);
        if (!r.ok) return setErr(r.message);
        router.refresh();
      }}>{t('cancelRefund')}</button>
      {err ? <span role="alert" className="form-error">{err}</span> : null}
    </span>
  );
}
