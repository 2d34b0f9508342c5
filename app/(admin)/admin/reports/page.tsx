// The printable end-of-day report (DESIGN.md §15): one local day in the store's zone (today by
// default), its totals, by cashier and by product, and the payments still waiting. Owner and
// manager; the figures are those of GET /api/v1/reports/sales for the same day.
import Link from 'next/link';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { localDate, resolveRange, salesReport, storeTimezone, ymd, type SalesReport } from '@/lib/reports';
import { InvalidRequestError } from '@/lib/relay/errors';
import { PrintReport } from './print-report';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'End-of-day report — Counter' };

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

function nextDay(day: string): string {
  const t = new Date(`${day}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + 1);
  return t.toISOString().slice(0, 10);
}

export default async function ReportsPage({ searchParams }: { searchParams: Promise<{ day?: string }> }) {
  await requirePageUser('manager', '/admin/reports');
  const { db } = await appContext();
  const tz = await storeTimezone(db);
  const sp = await searchParams;
  const today = ymd(localDate(new Date(), tz));
  const day = typeof sp.day === 'string' && DAY_RE.test(sp.day) ? sp.day : today;
  let report: SalesReport | null = null;
  let error = '';
  try {
    report = await salesReport(db, resolveRange({ from: day, to: nextDay(day), tz }));
  } catch (e) {
    if (!(e instanceof InvalidRequestError)) throw e;
    error = e.message.replace(/^from: /, '');
  }
  const csv = `/api/v1/reports/sales?${new URLSearchParams({ from: day, to: nextDay(day), tz, format: 'csv' })}`;
  return (
    <>
      <div className="bo-head">
        <h1>End-of-day report</h1>
        <div className="bo-actions">
          <PrintReport />
          <a className="btn" href={csv} download>Export CSV</a>
        </div>
      </div>
      <form className="bo-filters" method="get" action="/admin/reports">
        <label className="field"><span>Day</span><input type="date" name="day" defaultValue={day} required /></label>
        <div className="bo-filter-buttons">
          <button className="btn btn-primary" type="submit">Show</button>
          {day !== today ? <Link className="btn" href="/admin/reports">Today</Link> : null}
        </div>
      </form>
      {error ? <p role="alert" className="form-error">{error}</p> : null}
      {report ? <ReportBody r={report} day={day} /> : null}
    </>
  );
}

function ReportBody({ r, day }: { r: SalesReport; day: string }) {
  const t = r.totals;
  const accepted = r.by_status.accepted;
  return (
    <div className="bo-report" data-testid="eod-report">
      <p className="muted bo-report-period">{day} · {r.tz} · {r.from} – {r.to}</p>
      <section className="bo-stats" aria-label="Totals">
        <div className="bo-stat"><span>Sales</span><b data-testid="eod-gross">{t.gross} DOGE</b><small>{t.count} confirmed sale{t.count === 1 ? '' : 's'}</small></div>
        <div className="bo-stat"><span>Net</span><b>{t.net} DOGE</b><small>after {t.refunds} DOGE refunds</small></div>
        {t.fiat ? <div className="bo-stat"><span>Fiat</span><b>{t.fiat.gross} {t.fiat.currency}</b><small>{t.fiat.count} priced sale{t.fiat.count === 1 ? '' : 's'}</small></div> : null}
        <div className="bo-stat"><span>Waiting</span><b>{accepted.amount} DOGE</b><small>{accepted.count} accepted, not yet confirmed</small></div>
      </section>
      <section className="bo-card">
        <h2>Totals</h2>
        <table className="bo-table">
          <tbody>
            <tr><th scope="row">Gross</th><td className="num bo-amount">{t.gross} DOGE</td></tr>
            <tr><th scope="row">Taxes</th><td className="num">{t.taxes} DOGE</td></tr>
            <tr><th scope="row">Fees</th><td className="num">{t.fees} DOGE</td></tr>
            <tr><th scope="row">Tips</th><td className="num">{t.tips} DOGE</td></tr>
            <tr><th scope="row">Discounts</th><td className="num">{t.discounts} DOGE</td></tr>
            <tr><th scope="row">Refunds</th><td className="num">{t.refunds} DOGE</td></tr>
            <tr><th scope="row">Net</th><td className="num bo-amount">{t.net} DOGE</td></tr>
            {t.fiat_by_currency.map((f) => <tr key={f.currency}><th scope="row">Fiat ({f.currency})</th><td className="num">{f.gross} {f.currency}</td></tr>)}
          </tbody>
        </table>
      </section>
      <section className="bo-card bo-table-wrap">
        <h2>By cashier</h2>
        <table className="bo-table" data-testid="eod-cashiers">
          <thead><tr><th>Cashier</th><th className="num">Sales</th><th className="num">Gross</th><th className="num">Tips</th></tr></thead>
          <tbody>
            {r.by_cashier.length === 0 ? <tr><td colSpan={4} className="muted bo-empty">No confirmed sales this day.</td></tr> : r.by_cashier.map((c) => (
              <tr key={`${c.kind}:${c.id}`}><td>{c.name}</td><td className="num">{c.count}</td><td className="num bo-amount">{c.gross} DOGE</td><td className="num">{c.tips} DOGE</td></tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="bo-card bo-table-wrap">
        <h2>By product</h2>
        <table className="bo-table" data-testid="eod-products">
          <thead><tr><th>Product</th><th className="num">Count</th><th className="num">Gross</th><th className="num">Tax</th></tr></thead>
          <tbody>
            {r.by_product.length === 0 ? <tr><td colSpan={4} className="muted bo-empty">No items sold this day.</td></tr> : r.by_product.map((p) => (
              <tr key={`${p.id}\u0000${p.name}`}><td>{p.name} <small className="muted bo-mono">{p.id}</small></td><td className="num">{p.count}</td><td className="num bo-amount">{p.gross} DOGE</td><td className="num">{p.tax} DOGE</td></tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="bo-card">
        <h2>By status</h2>
        <table className="bo-table">
          <thead><tr><th>Status</th><th className="num">Payments</th><th className="num">Amount</th><th>Exceptions</th></tr></thead>
          <tbody>
            {Object.entries(r.by_status).map(([s, v]) => (
              <tr key={s}><td>{s}</td><td className="num">{v.count}</td><td className="num">{v.amount} DOGE</td><td className="muted">{Object.entries(v.exceptions).map(([e, n]) => `${e} ${n}`).join(', ') || '—'}</td></tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
