import Link from 'next/link';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { salesPerDay } from '@/lib/backoffice/sales';
import { searchInvoices } from '@/lib/backoffice/invoices';
import { readNodeStatus } from '@/lib/backoffice/node-status';
import { formatKoinu } from '@/lib/money';
import { readReadiness } from '@/lib/health';
import { storeZone } from '@/lib/receipts/receipt';
import { formatStoreTime } from '@/lib/time/zone';
import { SalesChart } from './_components/sales-chart';
import { StatusBadge } from './_components/status-badge';
import { ReadinessChecklist } from './_components/readiness-checklist';

export const dynamic = 'force-dynamic';

export default async function Overview({ searchParams }: { searchParams: Promise<{ denied?: string }> }) {
  const { denied } = await searchParams;
  await requirePageUser('manager', '/admin');
  const { db, cfg, network } = await appContext();
  // Until the store can take money, the back office opens on the first-run checklist (§16).
  const readiness = await readReadiness(cfg, db, network);
  if (!readiness.ready) {
    return (
      <>
        <div className="bo-head"><h1>Get your store ready</h1></div>
        {denied ? <p role="alert" className="form-error">That page needs the owner role.</p> : null}
        <ReadinessChecklist problems={readiness.problems} network={cfg.network} />
      </>
    );
  }
  const tz = await storeZone(db);
  const [days, recent, node] = await Promise.all([salesPerDay(db, 30, new Date(), tz), searchInvoices(db, { limit: 8 }), readNodeStatus(db)]);
  const today = days[days.length - 1];
  const week = days.slice(-7).reduce((s, d) => s + d.totalKoinu, 0n);
  return (
    <>
      <div className="bo-head"><h1>Overview</h1></div>
      {denied ? <p role="alert" className="form-error">That page needs the owner role.</p> : null}
      <section className="bo-stats">
        <div className="bo-stat"><span>Today</span><b>{today.total} DOGE</b><small>{today.count} sale{today.count === 1 ? '' : 's'}</small></div>
        <div className="bo-stat"><span>Last 7 days</span><b>{formatKoinu(week)} DOGE</b></div>
        <div className="bo-stat"><span>Chain tip</span><b>{node.tip_height}</b><small>{node.synced ? 'synced' : 'syncing'} · {node.peers} peer{node.peers === 1 ? '' : 's'}</small></div>
      </section>
      <section className="bo-card"><SalesChart days={days} /></section>
      <section className="bo-card">
        <div className="bo-card-head"><h2>Recent invoices</h2><Link href="/admin/invoices" className="btn bo-btn-sm">All invoices</Link></div>
        {recent.invoices.length === 0 ? <p className="muted">No invoices yet. Sales rung up on the cashier screen appear here.</p> : (
          <ul className="bo-list">
            {recent.invoices.map((i) => (
              <li key={i.id}>
                <Link href={`/admin/invoices/${i.id}`} className="bo-list-row">
                  <span className="bo-mono">{i.vendor_order_id || i.id.slice(0, 10)}</span>
                  <StatusBadge status={i.status} exception={i.exception} expired={i.expired} />
                  <span className="bo-amount">{i.total} DOGE</span>
                  <time className="muted" dateTime={i.created_at}>{formatStoreTime(i.created_at, tz)}</time>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
