// Refreshing the rates (docs/api.md#exchange-rates): every RATE_REFRESH_SEC the active worker asks every
// configured source at once (each bounded by its own timeout) and saves each outcome, so a slow
// or dead source delays nothing and never erases another's value. Then the median, when two or
// more sources made it, is kept as the last agreed one (store.ts saveAgreedMedian).
import type { Db } from '../db';
import { log } from '../log';
import { loadRateConfig, type RateConfig } from './config';
import { fetchSource, type FetchOptions } from './fetch-source';
import { rateCurrencies, saveAgreedMedian, saveOutcome } from './store';

export interface RefreshOptions extends FetchOptions {
  now?: () => Date;
  /** Each source's last logged error: a failure is logged when it starts or changes, not every minute. */
  lastErrors?: Map<string, string>;
}

export async function refreshRates(db: Db, cfg: RateConfig, currency: string, opts: RefreshOptions = {}): Promise<void> {
  const now = opts.now ?? (() => new Date());
  await Promise.all(
    cfg.sources.map(async (spec) => {
      const outcome = await fetchSource(spec, currency, opts);
      if (opts.signal?.aborted) return; // stopping: an aborted request says nothing about the source
      const error = outcome.ok ? '' : outcome.error;
      if (error && opts.lastErrors?.get(spec.name) !== error) log.warn('rate source failed', { source: spec.name, currency, error });
      opts.lastErrors?.set(spec.name, error);
      await saveOutcome(db, currency, spec.name, outcome, now());
    }),
  );
  if (!opts.signal?.aborted) await saveAgreedMedian(db, currency, cfg, now());
}

export interface RateLoop {
  stop(): Promise<void>;
}

/** Refreshes now, then every cfg.refreshSec, until stopped. Errors (a database outage) are logged and retried. */
export function startRateLoop(db: Db, cfg: RateConfig = loadRateConfig(), opts: FetchOptions = {}): RateLoop {
  let stopped = false;
  const abort = new AbortController();
  const lastErrors = new Map<string, string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    try {
      // Each currency some store is priced or shown in, one after another (a source is asked once per currency).
      for (const currency of await rateCurrencies(db)) {
        if (stopped) break;
        await refreshRates(db, cfg, currency, { ...opts, signal: abort.signal, lastErrors });
      }
    } catch (e) {
      log.warn('rate refresh failed', { error: e as Error });
    }
    if (!stopped) timer = setTimeout(() => (running = tick()), cfg.refreshSec * 1000);
  };
  running = tick();
  return {
    stop: async () => {
      stopped = true;
      abort.abort();
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
