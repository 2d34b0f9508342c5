// A printable receipt for one payment (print-styled; the Print button calls window.print()).
import { notFound } from 'next/navigation';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { seesOnlyOwnSales } from '@/lib/auth';
import { canSeePayment } from '@/lib/relay/sales-scope';
import { receipt } from '@/lib/pos/catalog';
import { dogeText } from '@/lib/pos/cart';
import { STATE_LABEL } from '@/lib/pos/sales';
import { PrintButton } from './print-button';
import s from '../../pos.module.css';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Receipt — Counter' };

const doge = (x: string) => (x ? dogeText(x) : '');

export default async function ReceiptPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requirePageUser('cashier', `/pos/receipt/${encodeURIComponent(id)}`);
  const { db } = await appContext();
  // A cashier prints only its own sales; another's is "not found" (DESIGN.md §3).
  const visible = /^[A-Za-z0-9_-]{1,64}$/.test(id) && (!seesOnlyOwnSales(user.role) || (await canSeePayment(db, id, user.id)));
  const r = visible ? await receipt(db, id) : null;
  if (!r) notFound();
  return (
    <main className={s.receiptPage}>
      <article className={s.receipt} aria-label="Receipt">
        <header>
          <h1>{r.storeName}</h1>
          {r.storeAddress ? <p>{r.storeAddress}</p> : null}
          {r.storeUrl ? <p>{r.storeUrl}</p> : null}
        </header>
        <p className={s.rMeta}>
          <span>{new Date(r.createdAt).toLocaleString('en-GB', { timeZone: 'UTC' })} UTC</span>
          <span>{r.orderReference || r.id.slice(0, 10)}</span>
        </p>
        <table className={s.rTable}>
          <tbody>
            {r.lines.map((l, i) => (
              <tr key={i}>
                <td>{l.count && l.count > 1 ? `${l.count} × ` : ''}{l.name}{l.tax && l.tax !== '0' ? <small><br />tax {doge(l.tax)}</small> : null}</td>
                <td>{doge(l.total)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            {r.taxes !== '0' ? <tr><td>of which tax</td><td>{doge(r.taxes)}</td></tr> : null}
            <tr className={s.rTotal}><td>Total</td><td>{doge(r.total)}</td></tr>
            {r.fiatTotal ? <tr><td>≈ {r.fiatCurrency}</td><td>{r.fiatTotal}{r.fiatTax ? ` (tax ${r.fiatTax})` : ''}</td></tr> : null}
          </tfoot>
        </table>
        <p className={s.rStatus} data-testid="receipt-status">
          {STATE_LABEL[r.state] ?? r.state}
          {r.state === 'accepted' ? ` · ${r.confirmations} of ${r.required} confirmations` : ''}
          {r.confirmedAt ? ` · ${new Date(r.confirmedAt).toLocaleString('en-GB', { timeZone: 'UTC' })} UTC` : ''}
        </p>
        {r.txid ? <p className={s.rSmall}>Transaction<br /><code>{r.txid}</code></p> : null}
        <p className={s.rSmall}>Paid in Dogecoin to <code>{r.address}</code></p>
        <p className={s.rThanks}>Thank you!</p>
      </article>
      <div className={s.noPrint}>
        <PrintButton />
        <a className={s.secondary} href="/pos">Back to the till</a>
      </div>
    </main>
  );
}
