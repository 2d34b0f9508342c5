// JSON-RPC client parsing: Core's JSON with its amounts kept exact (never a float), amounts to
// and from koinu, and the node URL with its credentials.
import { describe, expect, test } from 'vitest';
import { koinuFromRpc, koinuToRpc, parseRpcJson, parseRpcUrl, rewriteJsonNumbers } from '../../lib/chain/rpc/client';

describe('rewriteJsonNumbers / parseRpcJson', () => {
  test('fractional numbers become their exact text; integers stay numbers', () => {
    const text = '{"value":0.50000000,"n":1,"fee":-0.00022500,"height":202,"x":[1.10000000,2,3.00000000]}';
    expect(parseRpcJson(text)).toEqual({ value: '0.50000000', n: 1, fee: '-0.00022500', height: 202, x: ['1.10000000', 2, '3.00000000'] });
  });

  test('exponents and unsafe integers become strings; safe integers do not', () => {
    expect(
      parseRpcJson(
        '{"difficulty":4.656542373906925e-10,"big":12345678901234567890,"neg":-9007199254740993,"ok":9007199254740991,"e":1E+5}',
      ),
    ).toEqual({
      difficulty: '4.656542373906925e-10',
      big: '12345678901234567890',
      neg: '-9007199254740993',
      ok: 9007199254740991,
      e: '1E+5',
    });
  });

  test('numbers inside strings are untouched, escapes included', () => {
    const text = '{"a":"0.5","b":"say \\"1.5\\" \\\\","c":1.5,"d":"\\\\","e":2.25}';
    expect(parseRpcJson(text)).toEqual({ a: '0.5', b: 'say "1.5" \\', c: '1.5', d: '\\', e: '2.25' });
  });

  test('JSON without fractions is returned unchanged; literals and whitespace survive', () => {
    const text = '{ "result" : [true, false, null, 0, -1, {"k": 10}] , "error": null, "id": 1 }';
    expect(rewriteJsonNumbers(text)).toBe(text);
    expect(rewriteJsonNumbers('[ 0.1 , -2.5e3 ]')).toBe('[ "0.1" , "-2.5e3" ]');
    expect(rewriteJsonNumbers('0.30000000')).toBe('"0.30000000"');
  });

  test('values a float would get wrong are exact', () => {
    // 0.1 + 0.2 style: these decimals have no exact binary form.
    const r = parseRpcJson('[0.29000000, 21000000.00000001, 92233720368.54775807, 0.00000001]') as string[];
    expect(koinuFromRpc(r[0])).toBe(29_000_000n);
    expect(0.29 * 1e8).not.toBe(29_000_000); // what a float would do: 28999999.999999996
    expect(koinuFromRpc(r[1])).toBe(2_100_000_000_000_001n);
    expect(() => koinuFromRpc(r[2])).toThrow(); // above Dogecoin's MAX_MONEY (10^10 DOGE)
    expect(koinuFromRpc(r[3])).toBe(1n);
  });
});

describe('koinuFromRpc / koinuToRpc', () => {
  test('parses Core amounts exactly', () => {
    expect(koinuFromRpc('0.50000000')).toBe(50_000_000n);
    expect(koinuFromRpc('-0.00022500')).toBe(-22_500n);
    expect(koinuFromRpc('1.23456789')).toBe(123_456_789n);
    expect(koinuFromRpc('0.00000000')).toBe(0n);
    expect(koinuFromRpc(25)).toBe(2_500_000_000n); // a whole-coin integer
    expect(koinuFromRpc(0)).toBe(0n);
  });

  test('rejects floats, exponents, junk and more than 8 decimals', () => {
    expect(() => koinuFromRpc(0.5)).toThrow(TypeError);
    expect(() => koinuFromRpc('1e-8')).toThrow();
    expect(() => koinuFromRpc('0.000000001')).toThrow();
    expect(() => koinuFromRpc('abc')).toThrow();
    expect(() => koinuFromRpc(null)).toThrow(TypeError);
    expect(() => koinuFromRpc(1n)).toThrow(TypeError);
  });

  test('formats bigint koinu as 8-decimal strings', () => {
    expect(koinuToRpc(123_456_789n)).toBe('1.23456789');
    expect(koinuToRpc(1n)).toBe('0.00000001');
    expect(koinuToRpc(10_000_000_000_000_000n)).toBe('100000000.00000000');
  });
});

describe('parseRpcUrl', () => {
  test('moves credentials into a Basic header; the endpoint has none', () => {
    const p = parseRpcUrl('http://user:p%40ss%3Aw0rd@127.0.0.1:22555/wallet/main');
    expect(p.endpoint).toBe('http://127.0.0.1:22555/wallet/main');
    expect(p.href).toBe(p.endpoint);
    expect(p.authorization).toBe('Basic ' + Buffer.from('user:p@ss:w0rd').toString('base64'));
    expect(parseRpcUrl('http://127.0.0.1:22555').authorization).toBeNull();
  });

  test('bad URLs are rejected without echoing them', () => {
    expect(() => parseRpcUrl('not a url with s3cret')).toThrow(/not a valid URL/);
    expect(() => parseRpcUrl('not a url with s3cret')).not.toThrow(/s3cret/);
    expect(() => parseRpcUrl('ftp://u:p@host:1')).toThrow(/http/);
  });
});

// ---- a tiny scripted JSON-RPC server ----

/** One JSON-RPC call as the client sends it (a batch is an array of them: the tests cast). */
