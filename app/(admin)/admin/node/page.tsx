import { getLocale, getTranslations } from 'next-intl/server';
import { localeNumber } from '@/lib/i18n';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { readNodeStatus, NODE_TEXT_ENDPOINTS } from '@/lib/backoffice';
import { WalletHistory } from './wallet-history';

export const dynamic = 'force-dynamic';

export default async function NodePage() {
  const user = await requirePageUser('manager', '/admin/node');
  const { db, cfg } = await appContext();
  const s = await readNodeStatus(db);
  const pct = Math.round(s.progress * 1000) / 10;
  const [t, locale] = await Promise.all([getTranslations('adminNode'), getLocale()]);
  const pctText = (p: number) => localeNumber(String(p), locale);
  return (
    <>
      <div className="bo-head">
        <h1>{t('title')}</h1>
        <p className="muted">{t('sub', { network: cfg.network, backend: cfg.chainBackend })}</p>
      </div>
      <section className="bo-stats">
        <div className="bo-stat">
          <span>{t('chainTip')}</span>
          <b data-testid="tip-height">{s.tip_height}</b>
          <small className="bo-mono bo-ellipsis">{s.tip_hash || '—'}</small>
        </div>
        <div className="bo-stat">
          <span>{t('peers')}</span>
          <b>{s.peers}</b>
        </div>
        <div className="bo-stat">
          <span>{t('state')}</span>
          <b>{s.synced ? t('synced') : t('syncing')}</b>
          <small>{s.updated_at ? t('updated', { time: s.updated_at.slice(11, 19) }) : t('noReport')}</small>
        </div>
      </section>
      <section className="bo-card">
        <h2>{t('syncProgress')}</h2>
        <div
          className="bo-progress"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
          aria-label={t('headerSync')}
        >
          <div className="bo-progress-bar" style={{ width: `${pct}%` }} />
        </div>
        <p className="muted">{t('progress', { pct: pctText(pct), tip: s.tip_height, target: s.target_height || s.tip_height })}</p>
      </section>
      <WalletHistory initial={s.wallet} owner={user.role === 'owner'} />
      <section className="bo-card">
        <h2>{t('textEndpoints')}</h2>
        <p className="muted">{t('textHelp')}</p>
        <ul className="bo-linklist">
          {NODE_TEXT_ENDPOINTS.map((p) => (
            <li key={p}>
              <a className="btn bo-btn-sm" href={p}>
                {p}
              </a>
            </li>
          ))}
          <li>
            {/* A JSON route handler, not a page: the browser loads it as a document. */}
            {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
            <a className="btn bo-btn-sm" href="/api/health">
              /api/health
            </a>
          </li>
        </ul>
      </section>
    </>
  );
}
