// What a built-in rate provider is (docs/api.md#exchange-rates): a default origin, the documented path
// (with its query) for DOGE priced in a fiat currency, and how to find the price in the reply.
import { z } from 'zod';
import { JsonNumber, type ExactJson } from './json-exact';

export const PROVIDER_NAMES = ['coingecko', 'kraken', 'coinbase', 'binance', 'bitstamp'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export interface RateProvider {
  name: ProviderName;
  /** The public API's origin; RATE_URL_<NAME> replaces it. */
  defaultOrigin: string;
  /** The documented path and query asking for DOGE in `currency` (ISO 4217, upper case). */
  path(currency: string): string;
  /** The price's source text (fiat per DOGE) in a reply; throws RateReplyError when it is not there. */
  extract(body: ExactJson, currency: string): string;
}

/** A reply that is not the provider's documented shape, or says it has no price. */
export class RateReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RateReplyError';
  }
}

/** A price field: JSON string ("0.1234", Coinbase, Kraken, Binance, Bitstamp) or number (CoinGecko). */
export const priceField = z.union([z.string().max(64), z.instanceof(JsonNumber)]).transform((v) => (typeof v === 'string' ? v : v.source));

/** Validates `body` with `schema`, naming the first problem in a RateReplyError. */
export function shape<T extends z.ZodType>(schema: T, body: ExactJson, provider: string): z.output<T> {
  const r = schema.safeParse(body);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'reply';
    throw new RateReplyError(`${provider}: unexpected reply (${where}: ${issue?.message ?? 'invalid'})`);
  }
  return r.data;
}
