import Link from 'next/link';
import { getLocale, getTranslations } from 'next-intl/server';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { parseInvoiceFilter, searchInvoices, STATUSES, type InvoiceFilter } from '@/lib/backoffice/invoices';
import { BackofficeError } from '@/lib/backoffice/errors';
import { storeZone } from '@/lib/receipts/receipt';
import { dogeAmount, localeNumber, storeTime } from '@/lib/i18n/display';
import { StatusBadge } from '../_components/status-badge';
import { statusLabel } from '../_components/labels';

export const dynamic = 'force-dynamic';

type SP = Record<string, string | string[] | undefined>;

function toParams(sp: SP): URLSearchParams {
  const p = new URLSearchParams();
  for (const k of ['status', 'from', 'to', 'q', 'terminal', 'tender', 'cursor']) {
    const v = sp[k];
    if (typeof v === 'string' && v.trim() !== '') p.set(k, v);
  }
  return p;
}

export default async function InvoicesPage({ searchParams }: { searchParams: Promise<SP> }) {
  await requirePageUser('manager', '/admin/invoices');
  const params = toParams(await searchParams);
  const { db } = await appContext();
  let filter: InvoiceFilter = {};
  let error = '';
  try {
    filter = parseInvoiceFilter(params);
  } catch (e) {
    if (!(e instanceof BackofficeError)) throw e;
    error = e.message;
  }
  const tz = await storeZone(db);
  const [t, ta, locale] = await Promise.all([getTranslations('adminInvoices'), getTranslations('admin'), getLocale()]);
  const [result, terminals] = await Promise.all([
    error ? { invoices: [], next_cursor: null } : searchInvoices(db, filter),
    // The till filter (docs/counter.md#terminals): every terminal, revoked ones too (their sales stay).
    db.prisma.terminal.findMany({ orderBy: { name: 'asc' }, select: { id: true, name: true, revokedAt: true } }),
  ]);
  const base = new URLSearchParams(params);
  base.delete('cursor');
  const exportQs = (format: string) => {
    const q = new URLSearchParams(base);
    q.set('format', format);
    return `/api/admin/invoices/export?${q}`;
  };
  const nextHref = result.next_cursor ? `/admin/invoices?${new URLSearchParams({ ...Object.fromEntries(base), cursor: result.next_cursor })}` : null;
  return (
    <>
      <div className="bo-head">
        <h1>{t('title')}</h1>
        <div className="bo-actions">
          <a className="btn" href={exportQs('csv')} download>{ta('exportCsv')}</a>
          <a className="btn" href={exportQs('json')} download>{ta('exportJson')}</a>
        </div>
      </div>
      <form className="bo-filters" method="get" action="/admin/invoices">
        <label className="field"><span>{t('status')}</span>
          <select name="status" defaultValue={filter.status ?? ''}>
            <option value="">{t('any')}</option>
            {STATUSES.map((s) => <option key={s} value={s}>{statusLabel(ta, s)}</option>)}
          </select>
        </label>
 {terminals.length ? (
          <label className="field"><span>{t('terminal')}</span>
            <select name="terminal" defaultValue={filter.terminal ?? ''}>
              <option value="">{t('any')}</option>
              {terminals.map((x) => <option key={x.id} value={x.id}>{x.name}{x.revokedAt ? ` (${t('revoked')})` : ''}</option>)}
            </select>
          </label>
        ) : null}
        <label className="field"><span>{t('tender')}</span>
          <select name="tender" defaultValue={filter.tender ?? ''}>
            <option value="">{t('any')}</option>
            <option value="doge">{t('tenderDoge')}</option>
            <option value="cash">{t('tenderCash')}</option>
          </select>
        </label>
        <label className="field"><span>{t('from')}</span><input type="date" name="from" defaultValue={params.get('from') ?? ''} /></label>
        <label className="field"><span>{t('to')}</span><input type="date" name="to" defaultValue={params.get('to') ?? ''} /></label>
        <label className="field bo-grow"><span>{t('search')}</span><input type="search" name="q" placeholder={t('searchPlaceholder')} defaultValue={filter.q ?? ''} /></label>
        <div className="bo-filter-buttons">
          <button className="btn btn-primary" type="submit">{t('filter')}</button>
          <Link className="btn" href="/admin/invoices">{t('clear')}</Link>
        </div>
      </form>
      {error ? <p role="alert" className="form-error">{error}</p> : null}
      <section className="bo-card bo-table-wrap">
        <table className="bo-table">
          <thead>
            <tr><th>{t('created')}</th><th>{t('order')}</th><th>{t('status')}</th><th className="num">{t('total')}</th><th className="num bo-hide-sm">{t('conf')}</th><th className="bo-hide-sm">{t('transaction')}</th></tr>
          </thead>
          <tbody>
            {result.invoices.length === 0 ? (
              <tr><td colSpan={6} className="muted bo-empty">{t('none')}</td></tr>
            ) : result.invoices.map((i) => (
              <tr key={i.id} data-id={i.id}>
                <td><time dateTime={i.created_at}>{storeTime(i.created_at, tz, locale)}</time></td>
                <td><Link href={`/admin/invoices/${i.id}`} className="bo-link">{i.vendor_order_id || i.order_reference || i.id.slice(0, 12)}</Link></td>
                <td><StatusBadge status={i.status} exception={i.exception} expired={i.expired} /></td>
                <td className="num bo-amount">{dogeAmount(i.total, locale)}{i.fiat_total ? <small className="muted bo-hide-sm"> · {localeNumber(i.fiat_total, locale)} {i.fiat_currency}</small> : null}</td>
                <td className="num bo-hide-sm">{i.status === 'accepted' || i.status === 'confirmed' ? `${i.confirmed}/${i.required}` : '—'}</td>
                <td className="bo-mono bo-ellipsis bo-hide-sm">{i.tender === 'cash' ? t('tenderCash') : i.txid ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <div className="bo-pager">
        {params.get('cursor') ? <Link className="btn" href={`/admin/invoices?${base}`}>{t('newest')}</Link> : null}
        {nextHref ? <Link className="btn" href={nextHref}>{t('older')}</Link> : null}
      </div>
    </>
  );
}
