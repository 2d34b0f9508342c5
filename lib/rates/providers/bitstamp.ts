// Bitstamp: GET /api/v2/ticker/dogeusd/ → {"timestamp":"…","open":"…","high":"…","low":"…",
// "last":"0.1234","volume":"…","vwap":"…","bid":"…","ask":"…",…} (strings; `last` is the last
// trade's price). https://www.bitstamp.net/api/#tag/Tickers/operation/GetCurrencyPairTickers
import { z } from 'zod';
import { priceField, shape, type RateProvider } from '../provider';

export const bitstamp: RateProvider = {
  name: 'bitstamp',
  defaultOrigin: 'https://www.bitstamp.net',
  path: (currency) => `/api/v2/ticker/doge${currency.toLowerCase()}/`,
  extract(body) {
    return shape(z.object({ last: priceField }), body, 'bitstamp').last;
  },
};
