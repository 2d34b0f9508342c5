// Each provider's documented reply shape (fixtures in tests/fixtures/rates, each with a
// .source.txt naming the documentation), the exact JSON reader, and RATE_* configuration.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonNumber, JsonSyntaxError, parseExactJson } from '@/lib/rates/json-exact';
import { PROVIDERS } from '@/lib/rates/providers';
import { RateReplyError } from '@/lib/rates/provider';
import { parseRate, RateValueError } from '@/lib/rates/sanity';
import { loadRateConfig } from '@/lib/rates/config';
import { ConfigError } from '@/lib/config';
import { formatDecimal } from '@/lib/money';

const fixture = (name: string) => parseExactJson(readFileSync(join(__dirname, '../fixtures/rates', name), 'utf8'));

describe('parseExactJson', () => {
  it('keeps every number as its source text', () => {
    const v = parseExactJson('{"a":0.1234567890123456789,"b":[1e400,-0,2E-3],"c":"x","d":true,"e":null}') as Record<string, unknown>;
    expect(v.a).toEqual(new JsonNumber('0.1234567890123456789'));
    expect((v.b as JsonNumber[]).map(String)).toEqual(['1e400', '-0', '2E-3']);
    expect(v.c).toBe('x');
    expect(v.d).toBe(true);
    expect(v.e).toBe(null);
  });

  it('decodes string escapes like JSON.parse and never pollutes a prototype', () => {
    const v = parseExactJson('{"k\\u0041":"\\"\\n\\u00e9","__proto__":{"x":1}}') as Record<string, unknown>;
    expect(v.kA).toBe('"\né');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(Object.keys(v)).toContain('__proto__');
  });

  it('rejects what JSON.parse rejects (NaN, single quotes, trailing commas, HTML) and deep nesting', () => {
    for (const bad of [
      'NaN',
      '{"a":NaN}',
      "{'a':1}",
      '[1,]',
      '{"a":1,}',
      '<html>',
      '01',
      '1.',
      '.5',
      '+1',
      '"\u0001"',
      '{"a":1} x',
      '',
      '[',
    ]) {
      expect(() => parseExactJson(bad), bad).toThrow(JsonSyntaxError);
    }
    expect(() => parseExactJson('['.repeat(100) + ']'.repeat(100))).toThrow(/deeply/);
  });
});

describe('provider replies (documented shapes)', () => {
  it('CoinGecko: the JSON number, exactly', () => {
    expect(PROVIDERS.coingecko.path('USD')).toBe('/api/v3/simple/price?ids=dogecoin&vs_currencies=usd');
    expect(PROVIDERS.coingecko.extract(fixture('coingecko-simple-price.json'), 'USD')).toBe('0.1234567890123456789');
    expect(() => PROVIDERS.coingecko.extract(fixture('coingecko-simple-price.json'), 'EUR')).toThrow(/no EUR price/);
    expect(() => PROVIDERS.coingecko.extract(parseExactJson('{"dogecoin":{"usd":null}}'), 'USD')).toThrow(RateReplyError);
    expect(() => PROVIDERS.coingecko.extract(parseExactJson('{}'), 'USD')).toThrow(RateReplyError);
  });

  it('Kraken: the last trade closed (c[0]) of XDG<currency>, and its error array', () => {
    expect(PROVIDERS.kraken.path('USD')).toBe('/0/public/Ticker?pair=XDGUSD');
    expect(PROVIDERS.kraken.extract(fixture('kraken-ticker.json'), 'USD')).toBe('0.12345670');
    expect(() => PROVIDERS.kraken.extract(fixture('kraken-error.json'), 'USD')).toThrow(/EQuery:Unknown asset pair/);
    expect(() => PROVIDERS.kraken.extract(parseExactJson('{"error":[],"result":{"XDGUSD":{"c":[]}}}'), 'USD')).toThrow(RateReplyError);
  });

  it('Coinbase: data.rates[<currency>] of base DOGE', () => {
    expect(PROVIDERS.coinbase.path('USD')).toBe('/v2/exchange-rates?currency=DOGE');
    expect(PROVIDERS.coinbase.extract(fixture('coinbase-exchange-rates.json'), 'USD')).toBe('0.12345');
    expect(PROVIDERS.coinbase.extract(fixture('coinbase-exchange-rates.json'), 'JPY')).toBe('19.03');
    expect(() => PROVIDERS.coinbase.extract(fixture('coinbase-exchange-rates.json'), 'BRL')).toThrow(/no BRL rate/);
    // a reply for another base currency is not a DOGE price
    expect(() => PROVIDERS.coinbase.extract(parseExactJson('{"data":{"currency":"USD","rates":{"USD":"1"}}}'), 'USD')).toThrow(
      RateReplyError,
    );
  });

  it('Binance: USD is read from DOGEUSDT, other currencies from DOGE<currency>', () => {
    expect(PROVIDERS.binance.path('USD')).toBe('/api/v3/ticker/price?symbol=DOGEUSDT');
    expect(PROVIDERS.binance.path('EUR')).toBe('/api/v3/ticker/price?symbol=DOGEEUR');
    expect(PROVIDERS.binance.extract(fixture('binance-ticker-price.json'), 'USD')).toBe('0.12340000');
    expect(() => PROVIDERS.binance.extract(fixture('binance-ticker-price.json'), 'EUR')).toThrow(/not DOGEEUR/);
    expect(() => PROVIDERS.binance.extract(fixture('binance-error.json'), 'USD')).toThrow(RateReplyError);
  });

  it('Bitstamp: `last` of /api/v2/ticker/doge<currency>/', () => {
    expect(PROVIDERS.bitstamp.path('USD')).toBe('/api/v2/ticker/dogeusd/');
    expect(PROVIDERS.bitstamp.extract(fixture('bitstamp-ticker.json'), 'USD')).toBe('0.12333');
    expect(() => PROVIDERS.bitstamp.extract(parseExactJson('{"last":123}'), 'USD')).not.toThrow();
    expect(() => PROVIDERS.bitstamp.extract(parseExactJson('{"last":[]}'), 'USD')).toThrow(RateReplyError);
  });
});

describe('parseRate: believable prices only', () => {
  it('accepts decimals and exponents within the band', () => {
    expect(formatDecimal(parseRate('0.12340000'))).toBe('0.1234');
    expect(formatDecimal(parseRate('1.5e-3'))).toBe('0.0015');
    expect(formatDecimal(parseRate('19.03'))).toBe('19.03');
  });
  it('refuses zero, negatives, NaN, Infinity, 1e400 and absurd magnitudes', () => {
    for (const bad of ['0', '0.0', '-0.1', 'NaN', 'Infinity', '1e400', '1e-400', '1e10', '0.0000000001', '', 'abc', '1,5']) {
      expect(() => parseRate(bad), bad).toThrow(RateValueError);
    }
  });
});

describe('loadRateConfig', () => {
  it('defaults: coingecko, kraken, coinbase at their public origins; 60 s; 600 s', () => {
    const c = loadRateConfig({});
    expect(c.sources.map((s) => s.name)).toEqual(['coingecko', 'kraken', 'coinbase']);
    expect(c.sources[0]).toMatchObject({ kind: 'http', origin: 'https://api.coingecko.com' });
    expect(c.refreshSec).toBe(60);
    expect(c.maxAgeSec).toBe(600);
  });

  it('reads the list in order, fixed:<value>, RATE_URL_<NAME> origins and the intervals', () => {
    const c = loadRateConfig({
      RATE_SOURCES: ' bitstamp, Binance ,fixed:0.1250 ',
      RATE_URL_BITSTAMP: 'http://127.0.0.1:9000/',
      RATE_REFRESH_SEC: '5',
      RATE_MAX_AGE_SEC: '30',
    });
    expect(c.sources).toEqual([
      { kind: 'http', name: 'bitstamp', origin: 'http://127.0.0.1:9000' },
      { kind: 'http', name: 'binance', origin: 'https://api.binance.com' },
      { kind: 'fixed', name: 'fixed:0.125', value: { m: 125n, s: 3 } },
    ]);
    expect([c.refreshSec, c.maxAgeSec]).toEqual([5, 30]);
  });

  it('names the variable on bad input', () => {
    const bad: [Record<string, string>, string][] = [
      [{ RATE_SOURCES: 'coingecko,nope' }, 'RATE_SOURCES'],
      [{ RATE_SOURCES: 'kraken,kraken' }, 'RATE_SOURCES'],
      [{ RATE_SOURCES: 'fixed:abc' }, 'RATE_SOURCES'],
      [{ RATE_SOURCES: 'fixed:0' }, 'RATE_SOURCES'],
      [{ RATE_SOURCES: 'fixed:-1' }, 'RATE_SOURCES'],
      [{ RATE_SOURCES: 'fixed:1e400' }, 'RATE_SOURCES'],
      [{ RATE_SOURCES: ',' }, 'RATE_SOURCES'],
      [{ RATE_REFRESH_SEC: '0' }, 'RATE_REFRESH_SEC'],
      [{ RATE_MAX_AGE_SEC: '1.5' }, 'RATE_MAX_AGE_SEC'],
      [{ RATE_URL_KRAKEN: 'ftp://x' }, 'RATE_URL_KRAKEN'],
      [{ RATE_URL_COINGECKO: 'http://user:pw@host' }, 'RATE_URL_COINGECKO'],
      [{ RATE_URL_COINBASE: 'not a url' }, 'RATE_URL_COINBASE'],
    ];
    for (const [env, variable] of bad) {
      let err: unknown;
      try {
        loadRateConfig(env);
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(env)).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).variable).toBe(variable);
    }
  });
});
