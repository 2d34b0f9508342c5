'use client';
import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useAdminCall } from './api';

// The Refund button on a cash sale (docs/counter.md#cash-refunds): the cash handed back, the reason
// and "Return to stock"; no address and no QR code, since the refund is paid at the counter.
export function RefundCashSale({ id, refundable, currency }: { id: string; refundable: string; currency: string }) {
  const router = useRouter();
  const t = useTranslations('adminInvoice');
  const tc = useTranslations('admin');
  const adminCall = useAdminCall();
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState('');
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
    const body: Record<string, unknown> = { reason, ...(a ? { fiat_amount: a } : {}), ...(restock ? { return_to_stock: true } : {}) };
    const r = await adminCall('POST', `/api/v1/payments/${encodeURIComponent(id)}/refunds`, body);
    setBusy(false);
    if (!r.ok) return setErr(r.message);
    setOpen(false);
    setAmount('');
    router.refresh();
  };
  return (
    <form className="bo-refund-form" data-testid="refund-form" onSubmit={submit}>
      <p className="muted">{t('refundCashUpTo', { amount: `${refundable} ${currency}` })}</p>
      <label>{t('cashAmount', { currency })} <input type="text" inputMode="decimal" value={amount} maxLength={40} onChange={(e) => setAmount(e.target.value)} placeholder={refundable} /></label>
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
