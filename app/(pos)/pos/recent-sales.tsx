'use client';
// Today's sales by this user, newest first, each with its receipt; a sale still waiting for
// the customer can be reopened (its QR code again). The list is kept live by the cashier's poll.
import type { RecentSale } from '@/lib/pos/catalog';
import { canReopen, STATE_LABEL } from '@/lib/pos/sales';
import { dogeText } from '@/lib/pos/cart';
import s from './pos.module.css';

// Offline, a sale's state is unknown: the list may be the kept copy of the till (the service
// worker's), so it shows no state at all rather than a stale paid or unpaid.
export function RecentSales({ sales, onReopen, offline = false }: { sales: RecentSale[]; onReopen: (id: string) => void; offline?: boolean }) {
  return (
    <section className={s.recent} aria-label="Recent sales">
      <h2>Today&apos;s sales <span className={s.count}>{sales.length}</span></h2>
      {sales.length === 0 ? <p className={s.empty}>No sales yet today.</p> : (
        <ul>
          {sales.map((x) => (
            <li key={x.id} data-testid="recent-sale" data-id={x.id} data-state={offline ? 'unknown' : x.state}>
              <time dateTime={x.createdAt}>{x.timeText}</time>
              <span className={s.recentRef}>{x.orderReference || x.id.slice(0, 8)}</span>
              <span className={s.recentAmt}>{dogeText(x.total)}</span>
              {offline
                ? <span className={`${s.badge} ${s.st_unknownBadge}`}>Unknown</span>
                : <span className={`${s.badge} ${s['st_' + x.state] ?? ''}`}>{STATE_LABEL[x.state] ?? x.state}</span>}
              {offline ? <span /> : canReopen(x)
                ? <button type="button" className={s.link} onClick={() => onReopen(x.id)} aria-label={`Reopen ${x.orderReference || x.id.slice(0, 8)}`}>Reopen</button>
                : <a className={s.link} href={`/pos/receipt/${x.id}`} target="_blank" rel="noreferrer">Receipt</a>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
