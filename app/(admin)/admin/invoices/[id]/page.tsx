import Link from 'next/link';
import { notFound } from 'next/navigation';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { invoiceDetail } from '@/lib/backoffice/invoices';
import { storeZone } from '@/lib/receipts/receipt';
import { formatStoreTime } from '@/lib/time/zone';
import { BackofficeError } from '@/lib/backoffice/errors';
import { StatusBadge } from '../../_components/status-badge';
import { RedeliverButton } from '../../_components/redeliver';
import { CancelInvoiceButton } from '../../_components/cancel-invoice';
import { MarkInvoice } from '../../_components/mark-invoice';
import { CancelRefundButton, RefundInvoice, RefundStatus } from '../../_components/refund-invoice';
import { refundQrSvgs, refundableOf } from '@/lib/refunds/backoffice';
import { rateCurrency } from '@/lib/rates';

export const dynamic = 'force-dynamic';


export default async function InvoiceDetail({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requirePageUser('manager', `/admin/invoices/${id}`);
  const { db, cfg } = await appContext();
  let d;
  try {
    d = await invoiceDetail(db, id, cfg.publicUrl);
  } catch (e) {
    if (e instanceof BackofficeError && e.code === 'not_found') notFound();
    throw e;
  }
  const v = d as unknown as Record<string, any>;
  const tz = await storeZone(db);
  const when = (t: string | null | undefined) => formatStoreTime(t, tz) || '—';
  const webhook = !!(await db.prisma.store.findUnique({ where: { id: 1 }, select: { webhookUrl: true } }))?.webhookUrl;
  // Refunds (DESIGN.md §13): each with the QR code the merchant's wallet scans to pay it.
  const refundable = refundableOf(v.amount_paid, d.refunds);
  const qrs = await refundQrSvgs(d.refunds);
  const fiatCurrency = v.fiat_currency || (await rateCurrency(db));
  return (
    <>
      <div className="bo-head">
        <div>
          <Link href="/admin/invoices" className="bo-link">← Invoices</Link>
          <h1>{v.vendor_order_id || 'Invoice'} <StatusBadge status={v.status} exception={v.exception} expired={v.expired} /></h1>
          <p className="muted bo-mono">{v.id}</p>
        </div>
        <div className="bo-total">
          {v.total} DOGE{v.fiat_total ? <small>{v.fiat_total} {v.fiat_currency}</small> : null}
          {v.status === 'unpaid' && !v.expired ? <CancelInvoiceButton id={v.id} /> : null}
          {v.status === 'unpaid' || v.status === 'accepted' ? <MarkInvoice id={v.id} /> : null}
          {refundable !== null ? <RefundInvoice id={v.id} refundable={refundable} currency={fiatCurrency} customerAddress={v.refund_address ?? ''} /> : null}
        </div>
      </div>
      <div className="bo-grid2">
        <section className="bo-card">
          <h2>Payment</h2>
          <dl className="bo-dl">
            <dt>Created</dt><dd>{when(v.created_at)}</dd>
            <dt>Expires</dt><dd>{when(v.expires_at)}</dd>
            <dt>Confirmations</dt><dd>{v.confirmed >= v.required && v.required > 0 ? `Confirmed (${v.confirmed} confirmation${v.confirmed === 1 ? '' : 's'})` : `${v.confirmed} of ${v.required}`}{v.confirmed_at ? ` · confirmed ${when(v.confirmed_at)}` : ''}</dd>
            <dt>Paid</dt><dd>{v.amount_paid} DOGE{v.amount_due !== '0' ? ` · ${v.amount_due} DOGE due` : ''}</dd>
            <dt>Transaction{(v.txids ?? []).length > 1 ? 's' : ''}</dt>
            <dd className="bo-mono bo-break">{(v.txids ?? []).length > 1 ? (v.txids as string[]).map((t) => <div key={t}>{t}</div>) : (v.txid ?? '—')}</dd>
            <dt>Block</dt><dd>{v.block_height ?? '—'}</dd>
            <dt>Buyer</dt><dd className="bo-mono bo-break">{v.buyer_address || '—'}</dd>
            <dt>Refund</dt><dd className="bo-mono bo-break">{v.refund_address ?? '—'}</dd>
            {v.reason ? <><dt>Reason</dt><dd>{v.reason}</dd></> : null}
            {v.decision ? <><dt>Decision</dt><dd data-testid="decision">{`marked ${v.decision.as} by ${v.decision.by ?? '—'} · ${when(v.decision.at)}${v.decision.note ? ` · “${v.decision.note}”` : ''}`}</dd></> : null}
            {v.order_reference ? <><dt>Reference</dt><dd>{v.order_reference}</dd></> : null}
            {v.note ? <><dt>Note</dt><dd>{v.note}</dd></> : null}
          </dl>
        </section>
        <section className="bo-card">
          <h2>Outputs</h2>
          <ul className="bo-plain">
            {d.outputs.map((o, i) => (
              <li key={i}>{o.type === 'p2pkh' ? <><span className="bo-mono bo-break">{o.address}</span> <b>{o.amount} DOGE</b></> : <span className="bo-mono bo-break">data {o.data}</span>}</li>
            ))}
          </ul>
          <h2>Links</h2>
          <p className="bo-mono bo-break"><a href={v.envelope_url} className="bo-link">{v.envelope_url}</a></p>
        </section>
      </div>
      <section className="bo-card bo-table-wrap">
        <h2>Lines</h2>
        <table className="bo-table">
          <thead><tr><th>Type</th><th>Item</th><th className="num">Count</th><th className="num">Unit</th><th className="num">Tax</th><th className="num">Total</th></tr></thead>
          <tbody>
            {d.lines.map((l, i) => (
              <tr key={i}><td>{l.type}</td><td>{l.icon && !l.icon.startsWith('data:') ? `${l.icon} ` : ''}{l.name}</td><td className="num">{l.count ?? ''}</td><td className="num">{l.unit ?? ''}</td><td className="num">{l.tax ?? ''}</td><td className="num">{l.total ?? ''}</td></tr>
            ))}
          </tbody>
          <tfoot><tr><td colSpan={4}>Taxes {d.taxes} · Fees {d.fees}</td><td></td><td className="num"><b>{v.total}</b></td></tr></tfoot>
        </table>
      </section>
      {d.refunds.length ? (
        <section className="bo-card bo-table-wrap" data-testid="refunds">
          <h2>Refunds <small className="muted">{v.amount_refunded} DOGE refunded</small></h2>
          <table className="bo-table">
            <thead><tr><th>Refund</th><th>Created</th><th>Address</th><th className="num">Amount</th><th>Status</th><th>Pay with the store&apos;s wallet</th></tr></thead>
            <tbody>
              {d.refunds.map((r) => (
                <tr key={r.id} data-refund={r.id}>
                  <td className="bo-mono">{r.id}{r.reason ? <div className="muted">{r.reason}</div> : null}</td>
                  <td>{when(r.created_at)}</td>
                  <td className="bo-mono bo-break">{r.address}</td>
                  <td className="num">{r.amount} DOGE{r.fiat_amount ? <div className="muted">{r.fiat_amount} {r.fiat_currency}</div> : null}</td>
                  <td><RefundStatus id={r.id} status={r.status} />{r.txid ? <div className="bo-mono bo-break muted">{r.txid}</div> : null}</td>
                  <td>
                    {r.status === 'unpaid' && qrs.get(r.id) ? (
                      <img className="bo-refund-qr" width={160} height={160} alt={`QR code to pay refund ${r.id}`} data-uri={r.uri}
                        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrs.get(r.id)!)}`} />
                    ) : null}
                    <div className="bo-mono bo-break"><a className="bo-link" href={r.uri}>{r.status === 'unpaid' ? 'Open in wallet' : 'Payment link'}</a></div>
                    {r.status === 'unpaid' ? <CancelRefundButton id={r.id} /> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      <section className="bo-card">
        <h2>Event deliveries</h2>
        {d.deliveries.length === 0 ? <p className="muted">No events yet: they are sent when the payment is accepted, confirmed, declined or expires.</p> : (
          <ul className="bo-events">
            {d.deliveries.map((e) => (
              <li key={e.seq} className="bo-event" data-event={e.type}>
                <div className="bo-event-head">
                  <b>{e.type}</b>
                  {!webhook && e.attempts === 0 ? <span className="muted">No webhook configured · {when(e.created_at)}</span> : <>
                    <span className={`bo-badge bo-badge-${e.state}`}>{e.state}</span>
                    <span className="muted">{e.attempts} attempt{e.attempts === 1 ? '' : 's'} · {when(e.created_at)}</span>
                  </>}
                  <RedeliverButton seq={e.seq} />
                </div>
                {e.log.length ? (
                  <ol className="bo-attempts">
                    {e.log.map((a) => (
                      <li key={a.attempt}>#{a.attempt} {when(a.at)} → {a.status_code ?? 'no answer'} {a.error ? <span className="muted">{a.error}</span> : null} <span className="muted">({a.duration_ms} ms)</span></li>
                    ))}
                  </ol>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
