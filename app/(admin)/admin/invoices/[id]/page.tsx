import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getLocale, getTranslations } from 'next-intl/server';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { invoiceDetail, BackofficeError } from '@/lib/backoffice';
import { storeZone } from '@/lib/receipts';
import { StatusBadge } from '../../_components/status-badge';
import { CancelInvoiceButton } from '../../_components/cancel-invoice';
import { MarkInvoice } from '../../_components/mark-invoice';
import { RefundInvoice } from '../../_components/refund-invoice';
import { cashRefundableOf, refundableOf } from '@/lib/refunds';
import { rateCurrency } from '@/lib/rates';
import { EventsCard, formatters, LinesCard, PaymentCard, RefundsCard } from './detail-sections';
import { findStore } from '@/lib/stores';

export const dynamic = 'force-dynamic';

export default async function InvoiceDetail({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requirePageUser('manager', `/admin/invoices/${id}`);
  const { db, cfg } = await appContext();
  let d;
  try {
    d = await invoiceDetail(db, user.storeId, id, cfg.publicUrl);
  } catch (e) {
    if (e instanceof BackofficeError && e.code === 'not_found') notFound();
    throw e;
  }
  const v = d;
  const tz = await storeZone(db, user.storeId);
  const [t, locale] = await Promise.all([getTranslations('adminInvoice'), getLocale()]);
  const f = formatters(tz, locale);
  const { doge, num } = f;
  const webhook = !!(await findStore(db, user.storeId))?.webhookUrl;
  // Refunds (docs/api.md#refunds): what is left to refund, in the currency the form offers.
  // A cash sale is refunded in cash (docs/counter.md#cash-refunds): what is left is the cash it took.
  const cash = v.tender === 'cash';
  const refundable = cash ? cashRefundableOf(v.fiat_total, v.fiat_currency, d.refunds) : refundableOf(v.amount_paid, d.refunds);
  const fiatCurrency = v.fiat_currency || (await rateCurrency(db, user.storeId));
  return (
    <>
      <div className="bo-head">
        <div>
          <Link href="/admin/invoices" className="bo-link">
            {t('back')}
          </Link>
          <h1>
            {v.vendor_order_id || t('invoice')} <StatusBadge status={v.status} exception={v.exception} expired={v.expired} />
          </h1>
          <p className="muted bo-mono">{v.id}</p>
        </div>
        <div className="bo-total">
          {doge(v.total)}
          {v.fiat_total ? (
            <small>
              {num(v.fiat_total)} {v.fiat_currency}
            </small>
          ) : null}
          {v.can.cancel ? <CancelInvoiceButton id={v.id} /> : null}
          {v.can.mark ? <MarkInvoice id={v.id} /> : null}
          {refundable !== null ? (
            <RefundInvoice id={v.id} refundable={refundable} currency={fiatCurrency} customerAddress={v.refund_address ?? ''} cash={cash} />
          ) : null}
        </div>
      </div>
      <div className="bo-grid2">
        <PaymentCard v={v} f={f} />
        <section className="bo-card">
          <h2>{t('outputs')}</h2>
          <ul className="bo-plain">
            {d.outputs.map((o, i) => (
              <li key={i}>
                {o.type === 'p2pkh' ? (
                  <>
                    <span className="bo-mono bo-break">{o.address}</span> <b>{o.amount === null ? '' : doge(o.amount)}</b>
                  </>
                ) : (
                  <span className="bo-mono bo-break">{t('data', { data: o.data ?? '' })}</span>
                )}
              </li>
            ))}
          </ul>
          <h2>{t('links')}</h2>
          <p className="bo-mono bo-break">
            <a href={v.envelope_url ?? undefined} className="bo-link">
              {v.envelope_url}
            </a>
          </p>
        </section>
      </div>
      <LinesCard d={d} total={v.total} f={f} />
      {d.refunds.length ? <RefundsCard d={d} amountRefunded={v.amount_refunded} f={f} /> : null}
      <EventsCard d={d} webhook={webhook} f={f} />
    </>
  );
}
