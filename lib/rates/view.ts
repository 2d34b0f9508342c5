// The GET /api/v1/rates answer (docs/api.md#exchange-rates): the currency rates are kept for, the rate in
// force and every configured source's last outcome; RateUnavailableError when no source is fresh.
import type { Db } from '../db';
import { formatDecimal } from '../money';
import type { RateConfig } from './config';
import { rateCurrency, RateUnavailableError, ratesSnapshot, type SourceView } from './store';

export interface RatesBody {
  currency: string;
  value: string;
  at: string;
  sources: Omit<SourceView, 'checked_at'>[];
}

/** The rate of the caller's store's currency (the rates themselves are the installation's). */
export async function ratesReply(db: Db, storeId: number, opts: { config?: RateConfig; now?: Date } = {}): Promise<RatesBody> {
  const snap = await ratesSnapshot(db, await rateCurrency(db, storeId), opts);
  if (!snap.rate.ok) {
    const failures = snap.sources
      .filter((s) => s.error)
      .map((s) => `${s.name}: ${s.error}`)
      .join('; ');
    throw new RateUnavailableError(`no exchange rate for DOGE/${snap.currency}: ${snap.rate.reason}${failures ? ` (${failures})` : ''}`);
  }
  return {
    currency: snap.currency,
    value: formatDecimal(snap.rate.value),
    at: snap.rate.at.toISOString(),
    sources: snap.sources.map(({ name, value, at, ok, error }) => ({ name, value, at, ok, error })),
  };
}
