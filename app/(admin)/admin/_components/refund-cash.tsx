'use client';
import { useTranslations } from 'next-intl';
import { RefundFormEnd, RefundOpenButton, useRefundForm } from './use-refund-form';

// The Refund button on a cash sale (docs/counter.md#cash-refunds): the cash handed back, the reason
// and "Return to stock"; no address and no QR code, since the refund is paid at the counter.
export function RefundCashSale({ id, refundable, currency }: { id: string; refundable: string; currency: string }) {
  const t = useTranslations('adminInvoice');
  const form = useRefundForm(id);
  if (!form.open) return <RefundOpenButton form={form} />;
  const submit = form.submitWith((a) => (a ? { fiat_amount: a } : {}));
  return (
    <form className="bo-refund-form" data-testid="refund-form" onSubmit={submit}>
      <p className="muted">{t('refundCashUpTo', { amount: `${refundable} ${currency}` })}</p>
      <label>
        {t('cashAmount', { currency })}{' '}
        <input
          type="text"
          inputMode="decimal"
          value={form.amount}
          maxLength={40}
          onChange={(e) => form.setAmount(e.target.value)}
          placeholder={refundable}
        />
      </label>
      <RefundFormEnd form={form} />
    </form>
  );
}
