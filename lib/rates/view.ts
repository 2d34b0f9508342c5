// The GET /api/v1/rates answer (docs/api.md#exchange-rates): the currency rates are kept for, the rate in
// force and every configured source's last outcome; 503 rate_unavailable when no source is fresh.
import type { Db } from '../db/client';
import { formatDecimal } from '../money';
import type { RateConfig } from './config';
import { rateCurrency, ratesSnapshot, type SourceView } from './store';

export interface RatesBody {
  currency: string;
  value: string;
  at: string;
  sources: Omit<SourceView, 'checked_at'>[];
}

export type RatesReply = { status: 200; body: RatesBody } | { status: 503; body: { error: 'rate_unavailable'; message: string } };

export async function ratesReply(db: Db, opts: { config?: RateConfig; now?: Date } = {}): Promise<RatesReply> {
  const snap = await ratesSnapshot(db, await rateCurrency(db), opts);
  if (!snap.rate.ok) {
    const failures = snap.sources.filter((s) => s.error).map((s) => `${s.name}: ${s.error}`).join('; ');
    return {
      status: 503,
      body: { error: 'rate_unavailable', message: `no exchange rate for DOGE/${snap.currency}: ${snap.rate.reason}${failures ? ` (${failures})` : ''}` },
    };
  }
  return {
    status: 200,
    body: {
      currency: snap.currency,
      value: formatDecimal(snap.rate.value),
      at: snap.rate.at.toISOString(),
      sources: snap.sources.map(({ name, value, at, ok, error }) => ({ name, value, at, ok, error })),
    },
  };
}
