// Exchange rates for fiat pricing (docs/api.md#exchange-rates). Conversion of fiat amounts to koinu lives in
// lib/money (fiatToKoinu), fed with RateInForce.decimal.
export { loadRateConfig, type RateConfig } from './config';

export { rateInForce, rateCurrency, ratesSnapshot, saveOutcome, type RateInForce } from './store';
export { startRateLoop, type RateLoop } from './refresh';
export { ratesReply } from './view';
