// CoinGecko: GET /api/v3/simple/price?ids=dogecoin&vs_currencies=usd
// → {"dogecoin":{"usd":0.1234}} (a JSON number, read from its source text; an unknown currency
// gives {"dogecoin":{}}). https://docs.coingecko.com/reference/simple-price
import { z } from 'zod';
import { priceField, shape, RateReplyError, type RateProvider } from '../provider';

export const coingecko: RateProvider = {
  name: 'coingecko',
  defaultOrigin: 'https://api.coingecko.com',
  path: (currency) => `/api/v3/simple/price?ids=dogecoin&vs_currencies=${currency.toLowerCase()}`,
  extract(body, currency) {
    const key = currency.toLowerCase();
    const r = shape(z.object({ dogecoin: z.record(z.string(), z.unknown()) }), body, 'coingecko');
    if (!Object.hasOwn(r.dogecoin, key)) throw new RateReplyError(`coingecko: no ${currency} price in the reply`);
    return shape(priceField, r.dogecoin[key] as never, 'coingecko');
  },
};
