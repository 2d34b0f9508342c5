import { getLocale, getTranslations } from 'next-intl/server';
import { localeNumber } from '@/lib/i18n';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { formatDecimal } from '@/lib/money';
import { loadRateConfig, rateCurrency, ratesSnapshot } from '@/lib/rates';
import { readSettings } from '@/lib/backoffice';
import { PricingCurrencyForm } from './pricing-currency-form';

export const dynamic = 'force-dynamic';

type AgeT = (key: 'ageS' | 'ageMin' | 'ageH', values: { n: number }) => string;

function age(t: AgeT, at: string | null, now: number): string {
  if (!at) return '—';
  const s = Math.max(0, Math.round((now - Date.parse(at)) / 1000));
  if (s < 120) return t('ageS', { n: s });
  if (s < 7200) return t('ageMin', { n: Math.round(s / 60) });
  return t('ageH', { n: Math.round(s / 3600) });
}

// Exchange rates (docs/api.md#exchange-rates): the rate in force and every source's last value, age and error.
export default async function RatesPage() {
  const user = await requirePageUser('manager', '/admin/rates');
  const { db } = await appContext();
  const settings = await readSettings(db, user.storeId);
  const cfg = loadRateConfig();
  const currency = await rateCurrency(db, user.storeId);
  const snap = await ratesSnapshot(db, currency, { config: cfg });
  // A server component renders once per request: the request's time is an input here, not an impurity.
  // eslint-disable-next-line react-hooks/purity
  const now = Date.now();
  const [t, locale] = await Promise.all([getTranslations('adminRates'), getLocale()]);
  const ago = (at: string | null) => age(t, at, now);
  return (
    <>
      <div className="bo-head">
        <h1>{t('title')}</h1>
        <p className="muted">{t('sub', { currency, refresh: cfg.refreshSec, maxAge: cfg.maxAgeSec })}</p>
      </div>
      <section className="bo-stats" aria-label={t('inForce')}>
        <div className="bo-stat">
          <span>{t('inForce')}</span>
          {snap.rate.ok ? (
            <>
              <b data-testid="rate-in-force">
                {localeNumber(formatDecimal(snap.rate.value), locale)} {currency}
              </b>
              <small>{t('perDoge', { sources: snap.rate.used.join(', '), age: ago(snap.rate.at.toISOString()) })}</small>
            </>
          ) : (
            <>
              <b data-testid="rate-in-force" role="alert">
                {t('unavailable')}
              </b>
              <small>{t('refused', { reason: snap.rate.reason })}</small>
            </>
          )}
        </div>
      </section>
      <section className="bo-card" aria-labelledby="pricing-currency">
        <h2 id="pricing-currency">{t('pricing')}</h2>
        <p className="muted">
          {settings.pricing_currency === 'DOGE' ? t('inDoge', { currency }) : t('inFiat', { currency: settings.pricing_currency })}
        </p>
        {user.role === 'owner' ? <PricingCurrencyForm initial={settings.pricing_currency} /> : <p className="muted">{t('ownerOnly')}</p>}
      </section>
      <section className="bo-card">
        <h2 id="rate-sources">{t('sources')}</h2>
        <table className="bo-table" aria-labelledby="rate-sources">
          <thead>
            <tr>
              <th scope="col">{t('source')}</th>
              <th scope="col">{t('lastValue', { currency })}</th>
              <th scope="col">{t('age')}</th>
              <th scope="col">{t('lastAttempt')}</th>
            </tr>
          </thead>
          <tbody>
            {snap.sources.map((s) => (
              <tr key={s.name} data-testid={`rate-source-${s.name}`}>
                <th scope="row">{s.name}</th>
                <td className="bo-mono">{s.value ? localeNumber(s.value, locale) : '—'}</td>
                <td>{s.at ? <time dateTime={s.at}>{ago(s.at)}</time> : '—'}</td>
                <td>
                  {s.ok ? t('ok') : <span className="bo-error">{t('failed', { error: s.error ?? '' })}</span>}
                  {s.checked_at ? <small className="muted"> · {ago(s.checked_at)}</small> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
