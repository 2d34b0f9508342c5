// Exchange rates for fiat pricing (docs/api.md#exchange-rates). Conversion of fiat amounts to koinu lives in
// lib/money (fiatToKoinu), fed with RateInForce.decimal.
export { loadRateConfig, DEFAULT_RATE_SOURCES, type RateConfig, type SourceSpec } from './config';
export { PROVIDER_NAMES, type ProviderName } from './provider';
export { fetchSource, sourceUrl, type SourceOutcome } from './fetch-source';
export { medianRate, medianOf, type MedianOutcome, type RateSample } from './median';
export {
  rateInForce,
  rateCurrency,
  ratesSnapshot,
  saveOutcome,
  saveAgreedMedian,
  RateUnavailableError,
  type RateInForce,
  type RatesSnapshot,
  type SourceView,
} from './store';
export { refreshRates, startRateLoop, type RateLoop } from './refresh';
export { ratesReply, type RatesBody } from './view';
export { checkLoneSource, withinBand, LONE_SOURCE_BAND_PERCENT, AGREED_MAX_AGE_FACTOR, type AgreedMedian } from './lone-source';
