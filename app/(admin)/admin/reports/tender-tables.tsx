// The end-of-day report's split by tender (Dogecoin, cash) and by registered till
// (docs/counter.md#reports): the same figures as by_tender and by_terminal in
// GET /api/v1/reports/sales. A cash sale counts at its DOGE total (its locked rate), and each
// row shows its fiat gross per currency, which for cash is the money in the drawer.
import { localeNumber } from '@/lib/i18n';
import type { SalesReport } from '@/lib/reports';
import type { AnyT } from '../_components/labels';

export function TenderTables({ r, m, doge, locale }: { r: SalesReport; m: AnyT; doge: (v: string) => string; locale: string }) {
  const fiat = (rows: { currency: string; gross: string }[]) =>
    rows.map((f) => `${localeNumber(f.gross, locale)} ${f.currency}`).join(', ') || '—';
  return (
    <>
      <section className="bo-card bo-table-wrap">
        <h2>{m('byTender')}</h2>
        <table className="bo-table" data-testid="eod-tenders">
          <thead>
            <tr>
              <th>{m('tender')}</th>
              <th className="num">{m('sales')}</th>
              <th className="num">{m('gross')}</th>
              <th className="num">{m('fiat')}</th>
            </tr>
          </thead>
          <tbody>
            {(['doge', 'cash'] as const).map((k) => (
              <tr key={k} data-tender={k}>
                <td>{m(k === 'cash' ? 'tenderCash' : 'tenderDoge')}</td>
                <td className="num">{r.by_tender[k].count}</td>
                <td className="num bo-amount">{doge(r.by_tender[k].gross)}</td>
                <td className="num">{fiat(r.by_tender[k].fiat)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="bo-card bo-table-wrap">
        <h2>{m('byTerminal')}</h2>
        <table className="bo-table" data-testid="eod-terminals">
          <thead>
            <tr>
              <th>{m('terminal')}</th>
              <th className="num">{m('sales')}</th>
              <th className="num">{m('gross')}</th>
              <th className="num">{m('fiat')}</th>
            </tr>
          </thead>
          <tbody>
            {r.by_terminal.length === 0 ? (
              <tr>
                <td colSpan={4} className="muted bo-empty">
                  {m('noSalesDay')}
                </td>
              </tr>
            ) : (
              r.by_terminal.map((x) => (
                <tr key={x.id ?? '-'}>
                  <td>{x.id ? x.name : m('noTerminal')}</td>
                  <td className="num">{x.count}</td>
                  <td className="num bo-amount">{doge(x.gross)}</td>
                  <td className="num">{fiat(x.fiat)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </section>
    </>
  );
}
