'use client';
// Today's sales by this user, newest first, each with its receipt; a sale still waiting for
// the customer can be reopened (its QR code again). The list is kept live by the cashier's poll.
import { useLocale, useTranslations } from 'next-intl';
import type { RecentSale } from '@/lib/pos';
import { canReopen, STATE_LABEL, dogeText } from '@/lib/pos/client';
import { useHydrated } from '@/app/_lib/use-hydrated';
import s from './pos.module.css';

// Offline, a sale's state is unknown: the list may be the kept copy of the till (the service
// worker's), so it shows no state at all rather than a stale paid or unpaid.
export function RecentSales({
  sales,
  onReopen,
  offline = false,
}: {
  sales: RecentSale[];
  onReopen: (id: string) => void;
  offline?: boolean;
}) {
  const t = useTranslations('sales');
  const locale = useLocale();
  const hydrated = useHydrated();
  return (
    <section className={s.recent} aria-label={t('recent')}>
      <h2>
        {t('today')} <span className={s.count}>{sales.length}</span>
      </h2>
      {sales.length === 0 ? (
        <p className={s.empty}>{t('none')}</p>
      ) : (
        <ul>
          {sales.map((x) => (
            <li key={x.id} data-testid="recent-sale" data-id={x.id} data-state={offline ? 'unknown' : x.state}>
              <time dateTime={x.createdAt}>{x.timeText}</time>
              <span className={s.recentRef}>{x.orderReference || x.id.slice(0, 8)}</span>
              <span className={s.recentAmt}>{dogeText(x.total, locale)}</span>
              {offline ? (
                <span className={`${s.badge} ${s.st_unknownBadge}`}>{t('state_unknown')}</span>
              ) : (
                <span className={`${s.badge} ${s['st_' + x.state] ?? ''}`}>
                  {x.state in STATE_LABEL ? t(`state_${x.state}` as 'state_unpaid') : x.state}
                </span>
              )}
              {offline ? (
                <span />
              ) : canReopen(x) ? (
                <button
                  type="button"
                  className={s.link}
                  disabled={!hydrated}
                  onClick={() => onReopen(x.id)}
                  aria-label={t('reopenRef', { ref: x.orderReference || x.id.slice(0, 8) })}
                >
                  {t('reopen')}
                </button>
              ) : (
                <a className={s.link} href={`/pos/receipt/${x.id}`} target="_blank" rel="noreferrer">
                  {t('receipt')}
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
