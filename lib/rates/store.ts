// Rates in the database (docs/operations.md#several-processes: state through the database): the worker saves each
// source's outcome in `rate_source`, and the last median two or more sources agreed on in
// `rate_median`; any process reads the rate in force with one primary-key range scan of at most
// a handful of rows, and computes the median (median.ts) itself. Only when a single one of
// several sources is fresh does it also read the agreed median, to vouch for it (lone-source.ts).
import type { Db } from '../db';
import { formatDecimal, parseDecimal, type Decimal } from '../money';
import { loadRateConfig, type RateConfig } from './config';
import type { SourceOutcome } from './fetch-source';
import { medianRate, type MedianOutcome, type RateSample } from './median';
import { checkLoneSource, type AgreedMedian } from './lone-source';
import { DomainError } from '../errors';
import { findStore, storeCurrencies, storeIdOf } from '../stores';

/** Saves one attempt: a good value replaces the last one; a failure keeps it and records the error. */
export async function saveOutcome(db: Db, currency: string, name: string, outcome: SourceOutcome, now: Date): Promise<void> {
  const key = { currency_name: { currency, name } };
  if (outcome.ok) {
    const value = formatDecimal(outcome.value);
    await db.prisma.rateSource.upsert({
      where: key,
      update: { value, valueAt: now, ok: true, error: '', checkedAt: now },
      create: { currency, name, value, valueAt: now, ok: true, error: '', checkedAt: now },
    });
  } else {
    const error = outcome.error.slice(0, 300);
    await db.prisma.rateSource.upsert({
      where: key,
      update: { ok: false, error, checkedAt: now },
      create: { currency, name, ok: false, error, checkedAt: now },
    });
  }
}

export interface SourceView {
  name: string;
  /** The last good value (fiat per DOGE), or null if the source never answered well. */
  value: string | null;
  /** When that value was fetched (RFC 3339), or null. */
  at: string | null;
  /** Whether the last attempt succeeded. */
  ok: boolean;
  /** Why the last attempt failed ('' when it succeeded). */
  error: string;
  /** When the source was last asked (RFC 3339), or null if never. */
  checked_at: string | null;
}

interface Row {
  name: string;
  value: string | null;
  valueAt: Date | null;
  ok: boolean;
  error: string;
  checkedAt: Date;
}

async function rows(db: Db, currency: string): Promise<Map<string, Row>> {
  const list = await db.prisma.rateSource.findMany({ where: { currency } });
  return new Map(list.map((r) => [r.name, r]));
}

function sample(name: string, r: Row | undefined): RateSample {
  let value: Decimal | null = null;
  try {
    value = r?.value ? parseDecimal(r.value) : null;
  } catch {
    value = null; // a row edited by hand into garbage is not a rate
  }
  return { name, value, at: value ? (r?.valueAt ?? null) : null };
}

let defaultConfig: RateConfig | undefined;
const config = (c?: RateConfig) => c ?? (defaultConfig ??= loadRateConfig());

export interface RatesSnapshot {
  currency: string;
  rate: MedianOutcome;
  /** Every configured source, in RATE_SOURCES order. */
  sources: SourceView[];
}

async function agreedMedian(db: Db, currency: string): Promise<AgreedMedian | null> {
  const row = await db.prisma.rateMedian.findUnique({ where: { currency } });
  if (!row) return null;
  try {
    return { value: parseDecimal(row.value), at: row.valueAt };
  } catch {
    return null; // a row edited by hand into garbage vouches for nothing
  }
}

/**
 * Saves the median of the fresh sources as the last agreed one when two or more sources made it
 * (the worker, after each refresh). A lone source never becomes the yardstick for itself.
 */
export async function saveAgreedMedian(db: Db, currency: string, cfg: RateConfig, now: Date): Promise<void> {
  const byName = await rows(db, currency);
  const rate = medianRate(
    cfg.sources.map((s) => sample(s.name, byName.get(s.name))),
    now,
    cfg.maxAgeSec * 1000,
  );
  if (!rate.ok || rate.used.length < 2) return;
  const data = { value: formatDecimal(rate.value), valueAt: rate.at, sources: rate.used.join(','), savedAt: now };
  await db.prisma.rateMedian.upsert({ where: { currency }, update: data, create: { currency, ...data } });
}

/** The configured sources' last outcomes for `currency`, and the rate in force among them at `now`. */
export async function ratesSnapshot(db: Db, currency: string, opts: { config?: RateConfig; now?: Date } = {}): Promise<RatesSnapshot> {
  const cfg = config(opts.config);
  const byName = await rows(db, currency);
  const names = cfg.sources.map((s) => s.name);
  const now = opts.now ?? new Date();
  let rate = medianRate(
    names.map((n) => sample(n, byName.get(n))),
    now,
    cfg.maxAgeSec * 1000,
  );
  // One fresh source out of several: only while the last agreed median vouches for it.
  if (rate.ok && rate.used.length === 1 && names.length > 1)
    rate = checkLoneSource(rate, await agreedMedian(db, currency), now, cfg.maxAgeSec * 1000);
  const sources = names.map((name): SourceView => {
    const r = byName.get(name);
    if (!r) return { name, value: null, at: null, ok: false, error: 'not fetched yet', checked_at: null };
    return { name, value: r.value, at: r.valueAt?.toISOString() ?? null, ok: r.ok, error: r.error, checked_at: r.checkedAt.toISOString() };
  });
  return { currency, rate, sources };
}

/** The rate locked into a fiat-priced payment (docs/api.md#exchange-rates `rate`, plus the exact decimal). */
export interface RateInForce {
  /** "DOGE/USD" */
  pair: string;
  currency: string;
  /** Fiat per DOGE, canonical decimal string ("0.1234"). */
  value: string;
  /** The same value, exact, for lib/money's fiatToKoinu. */
  decimal: Decimal;
  /** The sources whose median this is, comma-separated in RATE_SOURCES order ("coingecko,kraken,coinbase"). */
  source: string;
  /** The oldest fetch among those sources. */
  at: Date;
}

/** No fresh rate: answered as 503 { "error": "rate_unavailable", "message": … }. */
export class RateUnavailableError extends DomainError {
  constructor(message: string) {
    super('rate_unavailable', message);
    this.name = 'RateUnavailableError';
  }
}

/**
 * The rate in force for DOGE in `currency` (ISO 4217): the median of the sources fetched within
 * RATE_MAX_AGE_SEC. Throws RateUnavailableError when no source is fresh, two disagree, or a lone
 * source of several is not vouched for by the last agreed median.
 * One small query; call it once per payment and lock the result into the payment.
 */
export async function rateInForce(db: Db, currency: string, opts: { config?: RateConfig; now?: Date } = {}): Promise<RateInForce> {
  const snap = await ratesSnapshot(db, currency, opts);
  if (!snap.rate.ok) throw new RateUnavailableError(`no exchange rate for DOGE/${currency}: ${snap.rate.reason}`);
  return {
    pair: `DOGE/${currency}`,
    currency,
    value: formatDecimal(snap.rate.value),
    decimal: snap.rate.value,
    source: snap.rate.used.join(','),
    at: snap.rate.at,
  };
}

/** The currency a store's rates are in: its fiat pricing currency, else its fiat display currency, else USD. */
function currencyOf(s: { pricingCurrency: string; fiatCurrency: string } | null): string {
  const pricing = s?.pricingCurrency ?? 'DOGE';
  if (/^[A-Z]{3}$/.test(pricing) && pricing !== 'DOGE') return pricing;
  return s?.fiatCurrency && /^[A-Z]{3}$/.test(s.fiatCurrency) ? s.fiatCurrency : 'USD';
}

/**
 * The currency a store's rates are kept in: its pricing currency when it is fiat; with DOGE
 * pricing, the fiat display currency set in the back office, else USD.
 */
export async function rateCurrency(db: Db, storeId: number): Promise<string> {
  return currencyOf(await findStore(db, storeIdOf(storeId)));
}

/**
 * Every currency some store needs, each once: the rates belong to the installation
 * (docs/architecture.md#data), so the worker fetches a currency once for all the stores priced in it.
 */
export async function rateCurrencies(db: Db): Promise<string[]> {
  const stores = await storeCurrencies(db);
  return [...new Set(stores.length ? stores.map(currencyOf) : [currencyOf(null)])];
}
