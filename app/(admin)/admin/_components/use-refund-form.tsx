'use client';
// What the cash and the DOGE refund forms share (docs/api.md#refunds): opening and closing, the
// amount, the reason and "Return to stock", the busy flag and the error, and the POST to
// /api/v1/payments/<id>/refunds. A refund made closes the form and refreshes the invoice, where it
// shows in the Refunds list.
import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useAdminCall } from './api';
import { ActionButton, SubmitButton } from '@/app/_lib/action-button';

export type RefundForm = ReturnType<typeof useRefundForm>;

export function useRefundForm(id: string) {
  const router = useRouter();
  const adminCall = useAdminCall();
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [restock, setRestock] = useState(false);
  const [err, setErr] = useState('');
  const [busy, setBusy] = useState(false);

  /** The form's submit handler; `fields` adds the form's own fields, given the amount typed (trimmed). */
  const submitWith = (fields: (amount: string) => Record<string, unknown>) => async (e: React.FormEvent) => {
    e.preventDefault();
    setErr('');
    setBusy(true);
    const body = { reason, ...fields(amount.trim()), ...(restock ? { return_to_stock: true } : {}) };
    const r = await adminCall('POST', `/api/v1/payments/${encodeURIComponent(id)}/refunds`, body);
    setBusy(false);
    if (!r.ok) return setErr(r.message);
    setOpen(false);
    setAmount('');
    router.refresh();
  };

  return { open, setOpen, amount, setAmount, reason, setReason, restock, setRestock, err, busy, submitWith };
}

/**
 * The Refund button that opens a form. As an ActionButton it waits for hydration: a click on the
 * server's HTML before the page's script runs would open nothing, and the owner would be left
 * waiting on a form that never comes.
 */
export function RefundOpenButton({ form }: { form: RefundForm }) {
  const t = useTranslations('adminInvoice');
  return (
    <ActionButton className="btn" data-testid="refund-open" onClick={() => form.setOpen(true)}>
      {t('refundBtn')}
    </ActionButton>
  );
}

/** Both forms' last fields: the reason, "Return to stock", Create refund and Cancel, and the error. */
export function RefundFormEnd({ form }: { form: RefundForm }) {
  const t = useTranslations('adminInvoice');
  const tc = useTranslations('admin');
  return (
    <>
      <label>
        {t('reason')}{' '}
        <input
          type="text"
          value={form.reason}
          maxLength={500}
          onChange={(e) => form.setReason(e.target.value)}
          placeholder={t('refundReasonPlaceholder')}
        />
      </label>
      <label className="bo-check">
        <input type="checkbox" checked={form.restock} onChange={(e) => form.setRestock(e.target.checked)} /> {t('returnToStock')}
      </label>
      <span className="bo-inline">
        <SubmitButton className="btn" disabled={form.busy}>
          {t('createRefund')}
        </SubmitButton>
        <ActionButton className="btn" onClick={() => form.setOpen(false)}>
          {tc('cancel')}
        </ActionButton>
      </span>
      {form.err ? (
        <span role="alert" className="form-error">
          {form.err}
        </span>
      ) : null}
    </>
  );
}
