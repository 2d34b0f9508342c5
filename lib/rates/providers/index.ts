// The built-in rate providers by name (docs/api.md#exchange-rates).
import type { ProviderName, RateProvider } from '../provider';
import { coingecko } from './coingecko';
import { kraken } from './kraken';
import { coinbase } from './coinbase';
import { binance } from './binance';
import { bitstamp } from './bitstamp';

export const PROVIDERS: Record<ProviderName, RateProvider> = { coingecko, kraken, coinbase, binance, bitstamp };
