// The printable end-of-day report (docs/using-counter.md#reports-and-receipts): one local day in the store's zone (today by
// default), its totals, by cashier, by product and by category (docs/catalog.md#reports), and the payments still waiting. Owner and
// manager; the figures are those of GET /api/v1/reports/sales for the same day.
import Link from 'next/link';
import type { ReactNode } from 'react';
import { getLocale, getTranslations } from 'next-intl/server';
import { dogeAmount, localeNumber } from '@/lib/i18n';
import { exceptionLabel, statusLabel, type AnyT } from '../_components/labels';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { localDate, resolveRange, salesReport, storeTimezone, ymd, type SalesReport } from '@/lib/reports';
import { InvalidRequestError } from '@/lib/errors';
import { PrintReport } from './print-report';
import { TenderTables } from './tender-tables';

export const dynamic = 'force-dynamic';
export async function generateMetadata() {
  return { title: `${(await getTranslations('adminReports'))('title')} — Counter` };
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

function nextDay(day: string): string {
  const t = new Date(`${day}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + 1);
  return t.toISOString().slice(0, 10);
}

export default async function ReportsPage({ searchParams }: { searchParams: Promise<{ day?: string }> }) {
  const user = await requirePageUser('manager', '/admin/reports');
  const { db } = await appContext();
  const tz = await storeTimezone(db, user.storeId);
  const sp = await searchParams;
  const today = ymd(localDate(new Date(), tz));
  const day = typeof sp.day === 'string' && DAY_RE.test(sp.day) ? sp.day : today;
  let report: SalesReport | null = null;
  let error = '';
  try {
    report = await salesReport(db, user.storeId, resolveRange({ from: day, to: nextDay(day), tz }));
  } catch (e) {
    if (!(e instanceof InvalidRequestError)) throw e;
    error = e.message.replace(/^from: /, '');
  }
  const [t, ta, locale] = await Promise.all([getTranslations('adminReports'), getTranslations('admin'), getLocale()]);
  const csv = `/api/v1/reports/sales?${new URLSearchParams({ from: day, to: nextDay(day), tz, format: 'csv' })}`;
  return (
    <>
      <div className="bo-head">
        <h1>{t('title')}</h1>
        <div className="bo-actions">
          <PrintReport label={t('print')} />
          <a className="btn" href={csv} download>
            {ta('exportCsv')}
          </a>
        </div>
      </div>
      <form className="bo-filters" method="get" action="/admin/reports">
        <label className="field">
          <span>{t('day')}</span>
          <input type="date" name="day" defaultValue={day} required />
        </label>
        <div className="bo-filter-buttons">
          <button className="btn btn-primary" type="submit">
            {t('show')}
          </button>
          {day !== today ? (
            <Link className="btn" href="/admin/reports">
              {t('today')}
            </Link>
          ) : null}
        </div>
      </form>
      {error ? (
        <p role="alert" className="form-error">
          {error}
        </p>
      ) : null}
      {report ? <ReportBody r={report} day={day} t={t} ta={ta} locale={locale} /> : null}
    </>
  );
}

function ReportBody({ r, day, t: m, ta, locale }: { r: SalesReport; day: string; t: AnyT; ta: AnyT; locale: string }) {
  const t = r.totals;
  const doge = (v: string) => dogeAmount(v, locale);
  const accepted = r.by_status.accepted;
  return (
    <div className="bo-report" data-testid="eod-report">
      <p className="muted bo-report-period">
        {day} · {r.tz} · {r.from} – {r.to}
      </p>
      <section className="bo-stats" aria-label={m('totals')}>
        <div className="bo-stat">
          <span>{m('sales')}</span>
          <b data-testid="eod-gross">{doge(t.gross)}</b>
          <small>{m('confirmedSales', { n: t.count })}</small>
        </div>
        <div className="bo-stat">
          <span>{m('net')}</span>
          <b>{doge(t.net)}</b>
          <small>{m('afterRefunds', { amount: doge(t.refunds) })}</small>
        </div>
        {t.fiat ? (
          <div className="bo-stat">
            <span>{m('fiat')}</span>
            <b>
              {localeNumber(t.fiat.gross, locale)} {t.fiat.currency}
            </b>
            <small>{m('pricedSales', { n: t.fiat.count })}</small>
          </div>
        ) : null}
        <div className="bo-stat">
          <span>{m('waiting')}</span>
          <b>{doge(accepted.amount)}</b>
          <small>{m('acceptedNotConfirmed', { n: accepted.count })}</small>
        </div>
      </section>
      <section className="bo-card">
        <h2>{m('totals')}</h2>
        <table className="bo-table">
          <tbody>
            <tr>
              <th scope="row">{m('gross')}</th>
              <td className="num bo-amount">{doge(t.gross)}</td>
            </tr>
            <tr>
              <th scope="row">{m('taxes')}</th>
              <td className="num">{doge(t.taxes)}</td>
            </tr>
            <tr>
              <th scope="row">{m('fees')}</th>
              <td className="num">{doge(t.fees)}</td>
            </tr>
            <tr>
              <th scope="row">{m('tips')}</th>
              <td className="num">{doge(t.tips)}</td>
            </tr>
            <tr>
              <th scope="row">{m('discounts')}</th>
              <td className="num">{doge(t.discounts)}</td>
            </tr>
            <tr>
              <th scope="row">{m('refunds')}</th>
              <td className="num">{doge(t.refunds)}</td>
            </tr>
            <tr>
              <th scope="row">{m('net')}</th>
              <td className="num bo-amount">{doge(t.net)}</td>
            </tr>
            {t.fiat_by_currency.map((f) => (
              <tr key={f.currency}>
                <th scope="row">{m('fiatIn', { currency: f.currency })}</th>
                <td className="num">
                  {localeNumber(f.gross, locale)} {f.currency}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="bo-card bo-table-wrap">
        <h2>{m('byCashier')}</h2>
        <table className="bo-table" data-testid="eod-cashiers">
          <thead>
            <tr>
              <th>{m('cashier')}</th>
              <th className="num">{m('sales')}</th>
              <th className="num">{m('gross')}</th>
              <th className="num">{m('tips')}</th>
            </tr>
          </thead>
          <tbody>
            {r.by_cashier.length === 0 ? (
              <tr>
                <td colSpan={4} className="muted bo-empty">
                  {m('noSalesDay')}
                </td>
              </tr>
            ) : (
              r.by_cashier.map((c) => (
                <tr key={`${c.kind}:${c.id}`}>
                  <td>{c.name}</td>
                  <td className="num">{c.count}</td>
                  <td className="num bo-amount">{doge(c.gross)}</td>
                  <td className="num">{doge(c.tips)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </section>
      <TenderTables r={r} m={m} doge={doge} locale={locale} />
      <ItemsTable
        heading={m('byProduct')}
        first={m('product')}
        testId="eod-products"
        m={m}
        doge={doge}
        rows={r.by_product.map((p) => ({
          key: `${p.id}\u0000${p.name}`,
          label: (
            <>
              {p.name} <small className="muted bo-mono">{p.id}</small>
            </>
          ),
          ...p,
        }))}
      />
      <ItemsTable
        heading={m('byCategory')}
        first={m('category')}
        testId="eod-categories"
        m={m}
        doge={doge}
        rows={r.by_category.map((c) => ({
          key: c.category,
          label: c.category || <span className="muted">{m('uncategorised')}</span>,
          ...c,
        }))}
      />
      <section className="bo-card">
        <h2>{m('byStatus')}</h2>
        <table className="bo-table">
          <thead>
            <tr>
              <th>{m('status')}</th>
              <th className="num">{m('payments')}</th>
              <th className="num">{m('amount')}</th>
              <th>{m('exceptions')}</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(r.by_status).map(([s, v]) => (
              <tr key={s}>
                <td>{statusLabel(ta, s)}</td>
                <td className="num">{v.count}</td>
                <td className="num">{doge(v.amount)}</td>
                <td className="muted">
                  {Object.entries(v.exceptions)
                    .map(([e, n]) => `${locale === 'en' ? e : exceptionLabel(ta, e)} ${n}`)
                    .join(', ') || '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

/** Item lines grouped by product or by category (docs/catalog.md#reports): count, gross before tax, tax. */
function ItemsTable({
  heading,
  first,
  testId,
  rows,
  m,
  doge,
}: {
  heading: string;
  first: string;
  testId: string;
  m: AnyT;
  doge: (v: string) => string;
  rows: { key: string; label: ReactNode; count: number; gross: string; tax: string }[];
}) {
  return (
    <section className="bo-card bo-table-wrap">
      <h2>{heading}</h2>
      <table className="bo-table" data-testid={testId}>
        <thead>
          <tr>
            <th>{first}</th>
            <th className="num">{m('count')}</th>
            <th className="num">{m('gross')}</th>
            <th className="num">{m('tax')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={4} className="muted bo-empty">
                {m('noItemsDay')}
              </td>
            </tr>
          ) : (
            rows.map((x) => (
              <tr key={x.key}>
                <td>{x.label}</td>
                <td className="num">{x.count}</td>
                <td className="num bo-amount">{doge(x.gross)}</td>
                <td className="num">{doge(x.tax)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </section>
  );
}
