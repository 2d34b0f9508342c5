// The invoice page's sections (docs/using-counter.md): the payment's facts, its lines, its
// refunds and its webhook events. Server components, like the page that composes them.
import { getTranslations } from 'next-intl/server';
import type { invoiceDetail } from '@/lib/backoffice';
import { dogeAmount, localeNumber, storeTime } from '@/lib/i18n';
import { deliveryLabel, statusLabel } from '../../_components/labels';
import { RedeliverButton } from '../../_components/redeliver';
import { CancelRefundButton, RefundStatus } from '../../_components/refund-invoice';
import { refundQrSvgs } from '@/lib/refunds';

type Detail = Awaited<ReturnType<typeof invoiceDetail>>;

/** Times in the store's zone, DOGE amounts and plain numbers, in the reader's locale. */
export function formatters(tz: string, locale: string) {
  return {
    when: (at: string | null | undefined) => storeTime(at, tz, locale) || '—',
    doge: (a: string) => dogeAmount(a, locale),
    num: (a: string | null | undefined) => (a ? localeNumber(a, locale) : ''),
  };
}
type Fmt = ReturnType<typeof formatters>;

export async function PaymentCard({ v, f: { when, doge } }: { v: Detail; f: Fmt }) {
  const t = await getTranslations('adminInvoice');
  return (
    <section className="bo-card">
      <h2>{t('payment')}</h2>
      <dl className="bo-dl">
        <dt>{t('created')}</dt>
        <dd>{when(v.created_at)}</dd>
        <dt>{t('expires')}</dt>
        <dd>{when(v.expires_at)}</dd>
        <dt>{t('confirmations')}</dt>
        <dd>
          {v.confirmed >= v.required && v.required > 0 ? t('confirmedN', { n: v.confirmed }) : t('nOfM', { n: v.confirmed, m: v.required })}
          {v.confirmed_at ? ` · ${t('confirmedAt', { at: when(v.confirmed_at) })}` : ''}
        </dd>
        <dt>{t('paid')}</dt>
        <dd>
          {doge(v.amount_paid)}
          {v.amount_due !== '0' ? ` · ${t('due', { amount: doge(v.amount_due) })}` : ''}
        </dd>
        <dt>{(v.txids ?? []).length > 1 ? t('transactions') : t('transaction')}</dt>
        <dd className="bo-mono bo-break">
          {(v.txids ?? []).length > 1 ? (v.txids as string[]).map((t) => <div key={t}>{t}</div>) : (v.txid ?? '—')}
        </dd>
        <dt>{t('block')}</dt>
        <dd>{v.block_height ?? '—'}</dd>
        <dt>{t('buyer')}</dt>
        <dd className="bo-mono bo-break">{v.buyer_address || '—'}</dd>
        <dt>{t('refund')}</dt>
        <dd className="bo-mono bo-break">{v.refund_address ?? '—'}</dd>
        {v.reason ? (
          <>
            <dt>{t('reason')}</dt>
            <dd>{v.reason}</dd>
          </>
        ) : null}
        {v.decision ? (
          <>
            <dt>{t('decision')}</dt>
            <dd data-testid="decision">{`${t('decisionText', { as: v.decision.as, by: v.decision.by ?? '—', at: when(v.decision.at) })}${v.decision.note ? ` · “${v.decision.note}”` : ''}`}</dd>
          </>
        ) : null}
        {v.order_reference ? (
          <>
            <dt>{t('reference')}</dt>
            <dd>{v.order_reference}</dd>
          </>
        ) : null}
        {v.note ? (
          <>
            <dt>{t('note')}</dt>
            <dd>{v.note}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

export async function LinesCard({ d, total, f: { num } }: { d: Detail; total: string; f: Fmt }) {
  const t = await getTranslations('adminInvoice');
  return (
    <section className="bo-card bo-table-wrap">
      <h2>{t('lines')}</h2>
      <table className="bo-table">
        <thead>
          <tr>
            <th>{t('type')}</th>
            <th>{t('item')}</th>
            <th className="num">{t('count')}</th>
            <th className="num">{t('unit')}</th>
            <th className="num">{t('tax')}</th>
            <th className="num">{t('total')}</th>
          </tr>
        </thead>
        <tbody>
          {d.lines.map((l, i) => (
            <tr key={i}>
              <td>{t('lineType', { type: l.type })}</td>
              <td>
                {l.icon && !l.icon.startsWith('data:') ? `${l.icon} ` : ''}
                {l.name}
              </td>
              <td className="num">{l.count ?? ''}</td>
              <td className="num">{num(l.unit)}</td>
              <td className="num">{num(l.tax)}</td>
              <td className="num">{num(l.total)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={4}>{t('taxesFees', { taxes: num(d.taxes), fees: num(d.fees) })}</td>
            <td></td>
            <td className="num">
              <b>{num(total)}</b>
            </td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}

export async function RefundsCard({ d, amountRefunded, f: { when, doge, num } }: { d: Detail; amountRefunded: string; f: Fmt }) {
  const [t, ta] = await Promise.all([getTranslations('adminInvoice'), getTranslations('admin')]);
  // Refunds (docs/api.md#refunds): each with the QR code the merchant's wallet scans to pay it.
  const qrs = await refundQrSvgs(d.refunds);
  return (
    <section className="bo-card bo-table-wrap" data-testid="refunds">
      <h2>
        {t('refunds')} <small className="muted">{t('refunded', { amount: doge(amountRefunded) })}</small>
      </h2>
      <table className="bo-table">
        <thead>
          <tr>
            <th>{t('refund')}</th>
            <th>{t('created')}</th>
            <th>{t('address')}</th>
            <th className="num">{t('amount')}</th>
            <th>{ta('statusHeading')}</th>
            <th>{t('payWith')}</th>
          </tr>
        </thead>
        <tbody>
          {d.refunds.map((r) => (
            <tr key={r.id} data-refund={r.id}>
              <td className="bo-mono">
                {r.id}
                {r.reason ? <div className="muted">{r.reason}</div> : null}
              </td>
              <td>{when(r.created_at)}</td>
              <td className="bo-mono bo-break">{r.address}</td>
              <td className="num">
                {doge(r.amount)}
                {r.fiat_amount ? (
                  <div className="muted">
                    {num(r.fiat_amount)} {r.fiat_currency}
                  </div>
                ) : null}
                <div className="muted" data-testid="refund-amount-paid">
                  {t('refundAmountPaid', { amount: doge(r.amount_paid) })}
                </div>
              </td>
              <td>
                <RefundStatus
                  id={r.id}
                  status={r.status}
                  labels={{
                    unpaid: statusLabel(ta, 'unpaid'),
                    accepted: statusLabel(ta, 'accepted'),
                    confirmed: statusLabel(ta, 'confirmed'),
                    declined: statusLabel(ta, 'declined'),
                  }}
                />
                {r.txids.map((x) => (
                  <div key={x} className="bo-mono bo-break muted" data-testid="refund-txid">
                    {x}
                  </div>
                ))}
              </td>
              <td>
                {r.status === 'unpaid' && qrs.get(r.id) ? (
                  // eslint-disable-next-line @next/next/no-img-element -- a QR code rendered on the server as an inline SVG data: URL, which next/image cannot optimise
                  <img
                    className="bo-refund-qr"
                    width={160}
                    height={160}
                    alt={t('refundQr', { id: r.id })}
                    data-uri={r.uri ?? ''}
                    src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrs.get(r.id)!)}`}
                  />
                ) : null}
                {r.uri ? (
                  <div className="bo-mono bo-break">
                    <a className="bo-link" href={r.uri}>
                      {r.status === 'unpaid' ? t('openInWallet') : t('paymentLink')}
                    </a>
                  </div>
                ) : (
                  <span className="muted" data-testid="refund-cash">
                    {t('refundInCash')}
                  </span>
                )}
                {r.status === 'unpaid' ? <CancelRefundButton id={r.id} /> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export async function EventsCard({ d, webhook, f: { when } }: { d: Detail; webhook: boolean; f: Fmt }) {
  const [t, ta] = await Promise.all([getTranslations('adminInvoice'), getTranslations('admin')]);
  return (
    <section className="bo-card">
      <h2>{t('events')}</h2>
      {d.deliveries.length === 0 ? (
        <p className="muted">{t('noEvents')}</p>
      ) : (
        <ul className="bo-events">
          {d.deliveries.map((e) => (
            <li key={e.seq} className="bo-event" data-event={e.type}>
              <div className="bo-event-head">
                <b>{e.type}</b>
                {!webhook && e.attempts === 0 ? (
                  <span className="muted">{t('noWebhook', { at: when(e.created_at) })}</span>
                ) : (
                  <>
                    <span className={`bo-badge bo-badge-${e.state}`}>{deliveryLabel(ta, e.state)}</span>
                    <span className="muted">{t('attempts', { n: e.attempts, at: when(e.created_at) })}</span>
                  </>
                )}
                <RedeliverButton seq={e.seq} />
              </div>
              {e.log.length ? (
                <ol className="bo-attempts">
                  {e.log.map((a) => (
                    <li key={a.attempt}>
                      #{a.attempt} {when(a.at)} → {a.status_code ?? ta('noAnswer')}{' '}
                      {a.error ? <span className="muted">{a.error}</span> : null} <span className="muted">({a.duration_ms} ms)</span>
                    </li>
                  ))}
                </ol>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
