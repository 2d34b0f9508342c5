import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { formatDecimal } from '@/lib/money';
import { loadRateConfig } from '@/lib/rates/config';
import { rateCurrency, ratesSnapshot } from '@/lib/rates/store';
import { readSettings } from '@/lib/backoffice/settings';
import { PricingCurrencyForm } from './pricing-currency-form';

export const dynamic = 'force-dynamic';

function age(at: string | null, now: number): string {
  if (!at) return '—';
  const s = Math.max(0, Math.round((now - Date.parse(at)) / 1000));
  if (s < 120) return `${s} s ago`;
  if (s < 7200) return `${Math.round(s / 60)} min ago`;
  return `${Math.round(s / 3600)} h ago`;
}

// Exchange rates (DESIGN.md §14): the rate in force and every source's last value, age and error.
export default async function RatesPage() {
  const user = await requirePageUser('manager', '/admin/rates');
  const { db } = await appContext();
  const settings = await readSettings(db);
  const cfg = loadRateConfig();
  const currency = await rateCurrency(db);
  const snap = await ratesSnapshot(db, currency, { config: cfg });
  const now = Date.now();
  return (
    <>
      <div className="bo-head">
        <h1>Exchange rates</h1>
        <p className="muted">DOGE/{currency} · refreshed every {cfg.refreshSec} s · a source counts for {cfg.maxAgeSec} s after its last good answer</p>
      </div>
      <section className="bo-stats" aria-label="Rate in force">
        <div className="bo-stat">
          <span>Rate in force</span>
          {snap.rate.ok ? (
            <>
              <b data-testid="rate-in-force">{formatDecimal(snap.rate.value)} {currency}</b>
              <small>per DOGE · median of {snap.rate.used.join(', ')} · {age(snap.rate.at.toISOString(), now)}</small>
            </>
          ) : (
            <>
              <b data-testid="rate-in-force" role="alert">Unavailable</b>
              <small>{snap.rate.reason}. Fiat-priced sales are refused until a source answers.</small>
            </>
          )}
        </div>
      </section>
      <section className="bo-card" aria-labelledby="pricing-currency">
        <h2 id="pricing-currency">Pricing currency</h2>
        <p className="muted">
          {settings.pricing_currency === 'DOGE'
            ? `Prices are set in DOGE; rates are kept for the display currency (${currency}).`
            : `Prices are set in ${settings.pricing_currency} and converted to DOGE at the rate in force, locked into each sale.`}
        </p>
        {user.role === 'owner' ? <PricingCurrencyForm initial={settings.pricing_currency} /> : <p className="muted">Only an owner can change it.</p>}
      </section>
      <section className="bo-card">
        <h2 id="rate-sources">Sources</h2>
        <table className="bo-table" aria-labelledby="rate-sources">
          <thead>
            <tr><th scope="col">Source</th><th scope="col">Last value ({currency} per DOGE)</th><th scope="col">Age</th><th scope="col">Last attempt</th></tr>
          </thead>
          <tbody>
            {snap.sources.map((s) => (
              <tr key={s.name} data-testid={`rate-source-${s.name}`}>
                <th scope="row">{s.name}</th>
                <td className="bo-mono">{s.value ?? '—'}</td>
                <td>{s.at ? <time dateTime={s.at}>{age(s.at, now)}</time> : '—'}</td>
                <td>{s.ok ? 'OK' : <span className="bo-error">Failed: {s.error}</span>}{s.checked_at ? <small className="muted"> · {age(s.checked_at, now)}</small> : null}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
