import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { requirePageUser } from '@/app/_lib/session';
import { inStore } from '@/lib/stores';
import { appContext } from '@/lib/app-context';
import { parseInvoiceFilter, searchInvoices, type InvoiceFilter, BackofficeError } from '@/lib/backoffice';
import { storeZone } from '@/lib/receipts';
import { InvoiceFilters, InvoiceTable } from './invoice-list-parts';

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
  const user = await requirePageUser('manager', '/admin/invoices');
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
  const tz = await storeZone(db, user.storeId);
  const [t, ta] = await Promise.all([getTranslations('adminInvoices'), getTranslations('admin')]);
  const [result, terminals] = await Promise.all([
    error ? { invoices: [], next_cursor: null } : searchInvoices(db, user.storeId, filter),
    // The till filter (docs/counter.md#terminals): every terminal, revoked ones too (their sales stay).
    db.prisma.terminal.findMany({
      where: inStore(user.storeId),
      orderBy: { name: 'asc' },
      select: { id: true, name: true, revokedAt: true },
    }),
  ]);
  const base = new URLSearchParams(params);
  base.delete('cursor');
  const exportQs = (format: string) => {
    const q = new URLSearchParams(base);
    q.set('format', format);
    return `/api/admin/invoices/export?${q}`;
  };
  const nextHref = result.next_cursor
    ? `/admin/invoices?${new URLSearchParams({ ...Object.fromEntries(base), cursor: result.next_cursor })}`
    : null;
  return (
    <>
      <div className="bo-head">
        <h1>{t('title')}</h1>
        <div className="bo-actions">
          <a className="btn" href={exportQs('csv')} download>
            {ta('exportCsv')}
          </a>
          <a className="btn" href={exportQs('json')} download>
            {ta('exportJson')}
          </a>
        </div>
      </div>
      <InvoiceFilters filter={filter} params={params} terminals={terminals} />
      {error ? (
        <p role="alert" className="form-error">
          {error}
        </p>
      ) : null}
      <InvoiceTable invoices={result.invoices} tz={tz} />
      <div className="bo-pager">
        {params.get('cursor') ? (
          <Link className="btn" href={`/admin/invoices?${base}`}>
            {t('newest')}
          </Link>
        ) : null}
        {nextHref ? (
          <Link className="btn" href={nextHref}>
            {t('older')}
          </Link>
        ) : null}
      </div>
    </>
  );
}
