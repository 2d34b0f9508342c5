import Link from 'next/link';
import { getLocale, getTranslations } from 'next-intl/server';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { salesPerDay, searchInvoices, readNodeStatus } from '@/lib/backoffice';
import { readReadiness } from '@/lib/health';
import { lowStockCount } from '@/lib/stock';
import { dogeAmount, storeTime } from '@/lib/i18n';
import { storeZone } from '@/lib/receipts';
import { SalesChart } from './_components/sales-chart';
import { StatusBadge } from './_components/status-badge';
import { ReadinessChecklist } from './_components/readiness-checklist';

export const dynamic = 'force-dynamic';

export default async function Overview({ searchParams }: { searchParams: Promise<{ denied?: string }> }) {
  const { denied } = await searchParams;
  const user = await requirePageUser('manager', '/admin');
  const { db, cfg, network } = await appContext();
  const [t, locale] = await Promise.all([getTranslations('admin'), getLocale()]);
  // Until the store can take money, the back office opens on the first-run checklist (docs/using-counter.md#the-back-office-admin-and-the-invoice-listing).
  const readiness = await readReadiness(cfg, db, user.storeId, network);
  if (!readiness.ready) {
    return (
      <>
        <div className="bo-head">
          <h1>{t('getReady')}</h1>
        </div>
        {denied ? (
          <p role="alert" className="form-error">
            {t('deniedOwner')}
          </p>
        ) : null}
        <ReadinessChecklist
          problems={readiness.problems}
          network={cfg.network}
          context={{ publicUrl: cfg.publicUrl, tip: readiness.chain.tip }}
        />
      </>
    );
  }
  const tz = await storeZone(db, user.storeId);
  const [days, recent, node, low] = await Promise.all([
    salesPerDay(db, user.storeId, 30, new Date(), tz),
    searchInvoices(db, user.storeId, { limit: 8 }),
    readNodeStatus(db),
    lowStockCount(db, user.storeId),
  ]);
  const today = days[days.length - 1];
  const week = days.slice(-7).reduce((s, d) => s + d.totalKoinu, 0n);
  return (
    <>
      <div className="bo-head">
        <h1>{t('overview')}</h1>
      </div>
      {denied ? (
        <p role="alert" className="form-error">
          {t('deniedOwner')}
        </p>
      ) : null}
      <section className="bo-stats">
        <div className="bo-stat">
          <span>{t('today')}</span>
          <b>{dogeAmount(today.total, locale)}</b>
          <small>{t('sales', { n: today.count })}</small>
        </div>
        <div className="bo-stat">
          <span>{t('last7')}</span>
          <b>{dogeAmount(week, locale)}</b>
        </div>
        <div className="bo-stat">
          <span>{t('chainTip')}</span>
          <b>{node.tip_height}</b>
          <small>
            {node.synced ? t('synced') : t('syncing')} · {t('peers', { n: node.peers })}
          </small>
        </div>
        {/* Tracked products at or below their low-stock threshold (docs/catalog.md#stock). */}
        <Link href="/admin/stock" className="bo-stat" data-testid="low-stock-stat">
          <span>{t('lowStockStat')}</span>
          <b>{low}</b>
          <small>{t('lowStockProducts', { n: low })}</small>
        </Link>
      </section>
      <section className="bo-card">
        <SalesChart days={days} />
      </section>
      <section className="bo-card">
        <div className="bo-card-head">
          <h2>{t('recentInvoices')}</h2>
          <Link href="/admin/invoices" className="btn bo-btn-sm">
            {t('allInvoices')}
          </Link>
        </div>
        {recent.invoices.length === 0 ? (
          <p className="muted">{t('noInvoices')}</p>
        ) : (
          <ul className="bo-list">
            {recent.invoices.map((i) => (
              <li key={i.id}>
                <Link href={`/admin/invoices/${i.id}`} className="bo-list-row">
                  <span className="bo-mono">{i.vendor_order_id || i.id.slice(0, 10)}</span>
                  <StatusBadge status={i.status} exception={i.exception} expired={i.expired} />
                  <span className="bo-amount">{dogeAmount(i.total, locale)}</span>
                  <time className="muted" dateTime={i.created_at}>
                    {storeTime(i.created_at, tz, locale)}
                  </time>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
