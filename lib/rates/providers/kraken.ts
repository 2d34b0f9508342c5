// Kraken: GET /0/public/Ticker?pair=XDGUSD → {"error":[],"result":{"XDGUSD":{"a":[…],"b":[…],
// "c":["0.1234","100.0"],…}}}; `c` is the last trade closed [price, lot volume]. Errors come as
// {"error":["EQuery:Unknown asset pair"]}. Kraken names Dogecoin XDG.
// https://docs.kraken.com/api/docs/rest-api/get-ticker-information
import { z } from 'zod';
import { priceField, shape, RateReplyError, type RateProvider } from '../provider';

const Reply = z.object({
  error: z.array(z.string()),
  result: z.record(z.string(), z.unknown()).optional(),
});
const Ticker = z.object({ c: z.tuple([priceField, z.unknown()]).rest(z.unknown()) });

export const kraken: RateProvider = {
  name: 'kraken',
  defaultOrigin: 'https://api.kraken.com',
  path: (currency) => `/0/public/Ticker?pair=XDG${currency}`,
  extract(body, currency) {
    const r = shape(Reply, body, 'kraken');
    if (r.error.length) throw new RateReplyError(`kraken: ${r.error.join('; ').slice(0, 200)}`);
    const pair = `XDG${currency}`;
    const result = r.result ?? {};
    // The result is keyed by Kraken's pair name: XDGUSD for the altname we ask for.
    const key = Object.hasOwn(result, pair) ? pair : Object.keys(result).length === 1 ? Object.keys(result)[0] : undefined;
    if (key === undefined) throw new RateReplyError(`kraken: no ${pair} ticker in the reply`);
    return shape(Ticker, result[key] as never, 'kraken').c[0];
  },
};
