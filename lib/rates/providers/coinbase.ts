// Coinbase: GET /v2/exchange-rates?currency=DOGE → {"data":{"currency":"DOGE","rates":{"USD":"0.1234",…}}}
// (how many units of each currency one DOGE buys, as strings).
// https://docs.cdp.coinbase.com/coinbase-app/track-apis/exchange-rates
import { z } from 'zod';
import { priceField, shape, RateReplyError, type RateProvider } from '../provider';

const Reply = z.object({ data: z.object({ currency: z.literal('DOGE'), rates: z.record(z.string(), z.unknown()) }) });

export const coinbase: RateProvider = {
  name: 'coinbase',
  defaultOrigin: 'https://api.coinbase.com',
  path: () => `/v2/exchange-rates?currency=DOGE`,
  extract(body, currency) {
    const r = shape(Reply, body, 'coinbase');
    if (!Object.hasOwn(r.data.rates, currency)) throw new RateReplyError(`coinbase: no ${currency} rate in the reply`);
    return shape(priceField, r.data.rates[currency] as never, 'coinbase');
  },
};
