// The invoice list's parts (docs/using-counter.md): the filter form and the table. Server
// components, like the page that composes them.
import Link from 'next/link';
import { getLocale, getTranslations } from 'next-intl/server';
import { STATUSES, type InvoiceFilter, type InvoiceRowView } from '@/lib/backoffice';
import { dogeAmount, localeNumber, storeTime } from '@/lib/i18n';
import { StatusBadge } from '../_components/status-badge';
import { statusLabel } from '../_components/labels';

interface TerminalOption {
  id: string;
  name: string;
  revokedAt: Date | null;
}

/** Status, till, tender, dates and search; a GET form, so a filtered list is a link. */
export async function InvoiceFilters({
  filter,
  params,
  terminals,
}: {
  filter: InvoiceFilter;
  params: URLSearchParams;
  terminals: TerminalOption[];
}) {
  const [t, ta] = await Promise.all([getTranslations('adminInvoices'), getTranslations('admin')]);
  return (
    <form className="bo-filters" method="get" action="/admin/invoices">
      <label className="field">
        <span>{t('status')}</span>
        <select name="status" defaultValue={filter.status ?? ''}>
          <option value="">{t('any')}</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusLabel(ta, s)}
            </option>
          ))}
        </select>
      </label>
      {terminals.length ? (
        <label className="field">
          <span>{t('terminal')}</span>
          <select name="terminal" defaultValue={filter.terminal ?? ''}>
            <option value="">{t('any')}</option>
            {terminals.map((x) => (
              <option key={x.id} value={x.id}>
                {x.name}
                {x.revokedAt ? ` (${t('revoked')})` : ''}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="field">
        <span>{t('tender')}</span>
        <select name="tender" defaultValue={filter.tender ?? ''}>
          <option value="">{t('any')}</option>
          <option value="doge">{t('tenderDoge')}</option>
          <option value="cash">{t('tenderCash')}</option>
        </select>
      </label>
      <label className="field">
        <span>{t('from')}</span>
        <input type="date" name="from" defaultValue={params.get('from') ?? ''} />
      </label>
      <label className="field">
        <span>{t('to')}</span>
        <input type="date" name="to" defaultValue={params.get('to') ?? ''} />
      </label>
      <label className="field bo-grow">
        <span>{t('search')}</span>
        <input type="search" name="q" placeholder={t('searchPlaceholder')} defaultValue={filter.q ?? ''} />
      </label>
      <div className="bo-filter-buttons">
        <button className="btn btn-primary" type="submit">
          {t('filter')}
        </button>
        <Link className="btn" href="/admin/invoices">
          {t('clear')}
        </Link>
      </div>
    </form>
  );
}

export async function InvoiceTable({ invoices, tz }: { invoices: InvoiceRowView[]; tz: string }) {
  const [t, locale] = await Promise.all([getTranslations('adminInvoices'), getLocale()]);
  return (
    <section className="bo-card bo-table-wrap">
      <table className="bo-table">
        <thead>
          <tr>
            <th>{t('created')}</th>
            <th>{t('order')}</th>
            <th>{t('status')}</th>
            <th className="num">{t('total')}</th>
            <th className="num bo-hide-sm">{t('conf')}</th>
            <th className="bo-hide-sm">{t('transaction')}</th>
          </tr>
        </thead>
        <tbody>
          {invoices.length === 0 ? (
            <tr>
              <td colSpan={6} className="muted bo-empty">
                {t('none')}
              </td>
            </tr>
          ) : (
            invoices.map((i) => (
              <tr key={i.id} data-id={i.id}>
                <td>
                  <time dateTime={i.created_at}>{storeTime(i.created_at, tz, locale)}</time>
                </td>
                <td>
                  <Link href={`/admin/invoices/${i.id}`} className="bo-link">
                    {i.vendor_order_id || i.order_reference || i.id.slice(0, 12)}
                  </Link>
                </td>
                <td>
                  <StatusBadge status={i.status} exception={i.exception} expired={i.expired} />
                </td>
                <td className="num bo-amount">
                  {dogeAmount(i.total, locale)}
                  {i.fiat_total ? (
                    <small className="muted bo-hide-sm">
                      {' '}
                      · {localeNumber(i.fiat_total, locale)} {i.fiat_currency}
                    </small>
                  ) : null}
                </td>
                <td className="num bo-hide-sm">
                  {i.status === 'accepted' || i.status === 'confirmed' ? `${i.confirmed}/${i.required}` : '—'}
                </td>
                <td className="bo-mono bo-ellipsis bo-hide-sm">{i.tender === 'cash' ? t('tenderCash') : (i.txid ?? '—')}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </section>
  );
}
