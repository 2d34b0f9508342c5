// "My shift" on the till (docs/using-counter.md#reports-and-receipts): the signed-in user's own confirmed sales today, in the
// store's time zone: count, gross and tips, and what is still waiting. Whatever the role, only
// that user's own sales: the same figures GET /api/v1/reports/sales gives a cashier.
import Link from 'next/link';
import { getLocale, getTranslations } from 'next-intl/server';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { resolveRange, salesReport, storeTimezone } from '@/lib/reports';
import { dogeText, moneyText } from '@/lib/pos';
import { PrintButton } from '../receipt/[id]/print-button';
import { drawer } from '@/lib/cash';
import { parseFiatMinor } from '@/lib/money';
import { CloseShift } from './close-shift';
import { MyPin } from './my-pin';
import s from '../pos.module.css';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'My shift — Counter' };

export default async function ShiftPage() {
  const user = await requirePageUser('cashier', '/pos/shift');
  const { db } = await appContext();
  const tz = await storeTimezone(db, user.storeId);
  const range = resolveRange({ tz });
  const r = await salesReport(db, user.storeId, range, user.id);
  const t = r.totals;
  const locale = await getLocale();
  const [m, tc, tcash] = await Promise.all([getTranslations('shift'), getTranslations('common'), getTranslations('cash')]);
  // The cash drawer (docs/counter.md#close-shift): the cash expected since the last Close shift.
  const cash = await drawer(db, user.storeId, user.id);
  const doge = (v: string | bigint) => dogeText(v, locale);
  return (
    <main className={s.receiptPage}>
      <article className={s.receipt} aria-label={m('title')} data-testid="my-shift">
        <header>
          <h1>{m('title')}</h1>
          <p>{user.name || user.email}</p>
          <p>
            {range.days[0].date} ({tz})
          </p>
        </header>
        <table className={s.rTable}>
          <tbody>
            <tr>
              <td>{m('confirmedSales')}</td>
              <td data-testid="shift-count">{t.count}</td>
            </tr>
            <tr className={s.rTotal}>
              <td>{m('gross')}</td>
              <td data-testid="shift-gross">{doge(t.gross)}</td>
            </tr>
            <tr>
              <td>{m('ofTips')}</td>
              <td data-testid="shift-tips">{doge(t.tips)}</td>
            </tr>
            <tr>
              <td>{m('ofTax')}</td>
              <td>{doge(t.taxes)}</td>
            </tr>
            {t.fiat ? (
              <tr>
                <td>≈ {t.fiat.currency}</td>
                <td>{t.fiat.gross}</td>
              </tr>
            ) : null}
            <tr>
              <td>{m('waitingConfirmations')}</td>
              <td>
                {r.by_status.accepted.count} · {doge(r.by_status.accepted.amount)}
              </td>
            </tr>
            {cash.currency && cash.expected !== null ? (
              <tr className={s.rTotal}>
                <td>{tcash('expectedInDrawer')}</td>
                <td data-testid="shift-cash-expected">{moneyText(parseFiatMinor(cash.expected, cash.currency), cash.currency, locale)}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
        {r.by_product.length ? (
          <table className={s.rTable} aria-label={m('itemsSold')}>
            <tbody>
              {r.by_product.map((p) => (
                <tr key={`${p.id}\u0000${p.name}`}>
                  <td>
                    {p.count} × {p.name}
                  </td>
                  <td>{doge(p.gross)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className={s.rSmall}>{m('noneYet')}</p>
        )}
      </article>
      {cash.currency ? (
        <div className={s.noPrint}>
          <CloseShift currency={cash.currency} />
        </div>
      ) : null}
      {user.tillOnly ? null : (
        <div className={s.noPrint}>
          <MyPin userId={user.id} />
        </div>
      )}
      <div className={s.noPrint}>
        <PrintButton />
        <Link className={s.secondary} href="/pos">
          {tc('backToTill')}
        </Link>
      </div>
    </main>
  );
}
