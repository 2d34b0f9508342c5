import Link from 'next/link';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { parseInvoiceFilter, searchInvoices, STATUSES, type InvoiceFilter } from '@/lib/backoffice/invoices';
import { BackofficeError } from '@/lib/backoffice/errors';
import { storeZone } from '@/lib/receipts/receipt';
import { formatStoreTime } from '@/lib/time/zone';
import { StatusBadge } from '../_components/status-badge';

export const dynamic = 'force-dynamic';

type SP = Record<string, string | string[] | undefined>;

function toParams(sp: SP): URLSearchParams {
  const p = new URLSearchParams();
  for (const k of ['status', 'from', 'to', 'q', 'cursor']) {
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
  const result = error ? { invoices: [], next_cursor: null } : await searchInvoices(db, filter);
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
        <h1>Invoices</h1>
        <div className="bo-actions">
          <a className="btn" href={exportQs('csv')} download>Export CSV</a>
          <a className="btn" href={exportQs('json')} download>Export JSON</a>
        </div>
      </div>
      <form className="bo-filters" method="get" action="/admin/invoices">
        <label className="field"><span>Status</span>
          <select name="status" defaultValue={filter.status ?? ''}>
            <option value="">Any</option>
            {STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </label>
        <label className="field"><span>From</span><input type="date" name="from" defaultValue={params.get('from') ?? ''} /></label>
        <label className="field"><span>To</span><input type="date" name="to" defaultValue={params.get('to') ?? ''} /></label>
        <label className="field bo-grow"><span>Search</span><input type="search" name="q" placeholder="Order, reference, note, id, txid or address" defaultValue={filter.q ?? ''} /></label>
        <div className="bo-filter-buttons">
          <button className="btn btn-primary" type="submit">Filter</button>
          <Link className="btn" href="/admin/invoices">Clear</Link>
        </div>
      </form>
      {error ? <p role="alert" className="form-error">{error}</p> : null}
      <section className="bo-card bo-table-wrap">
        <table className="bo-table">
          <thead>
            <tr><th>Created</th><th>Order</th><th>Status</th><th className="num">Total</th><th className="num bo-hide-sm">Conf.</th><th className="bo-hide-sm">Transaction</th></tr>
          </thead>
          <tbody>
            {result.invoices.length === 0 ? (
              <tr><td colSpan={6} className="muted bo-empty">No invoices match.</td></tr>
            ) : result.invoices.map((i) => (
              <tr key={i.id} data-id={i.id}>
                <td><time dateTime={i.created_at}>{formatStoreTime(i.created_at, tz)}</time></td>
                <td><Link href={`/admin/invoices/${i.id}`} className="bo-link">{i.vendor_order_id || i.order_reference || i.id.slice(0, 12)}</Link></td>
                <td><StatusBadge status={i.status} exception={i.exception} expired={i.expired} /></td>
                <td className="num bo-amount">{i.total} DOGE{i.fiat_total ? <small className="muted bo-hide-sm"> · {i.fiat_total} {i.fiat_currency}</small> : null}</td>
                <td className="num bo-hide-sm">{i.status === 'accepted' || i.status === 'confirmed' ? `${i.confirmed}/${i.required}` : '—'}</td>
                <td className="bo-mono bo-ellipsis bo-hide-sm">{i.txid ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <div className="bo-pager">
        {params.get('cursor') ? <Link className="btn" href={`/admin/invoices?${base}`}>Newest</Link> : null}
        {nextHref ? <Link className="btn" href={nextHref}>Older</Link> : null}
      </div>
    </>
  );
}
