// Binance: GET /api/v3/ticker/price?symbol=DOGEUSDT → {"symbol":"DOGEUSDT","price":"0.12340000"};
// errors are {"code":-1121,"msg":"Invalid symbol."} with a 400.
// https://developers.binance.com/docs/binance-spot-api-docs/rest-api/market-data-endpoints#symbol-price-ticker
//
// Binance has no DOGE/USD market: USD is read from DOGE/USDT (Tether, pegged 1:1 to the dollar).
// A depeg moves only this one source, which the median of three or more sources absorbs. Other
// currencies use Binance's own fiat markets where they exist (DOGEEUR, DOGEBRL, DOGETRY…).
import { z } from 'zod';
import { priceField, shape, RateReplyError, type RateProvider } from '../provider';

export const binanceSymbol = (currency: string) => `DOGE${currency === 'USD' ? 'USDT' : currency}`;

export const binance: RateProvider = {
  name: 'binance',
  defaultOrigin: 'https://api.binance.com',
  path: (currency) => `/api/v3/ticker/price?symbol=${binanceSymbol(currency)}`,
  extract(body, currency) {
    const r = shape(z.object({ symbol: z.string(), price: priceField }), body, 'binance');
    if (r.symbol !== binanceSymbol(currency))
      throw new RateReplyError(`binance: reply is for ${r.symbol.slice(0, 20)}, not ${binanceSymbol(currency)}`);
    return r.price;
  },
};
