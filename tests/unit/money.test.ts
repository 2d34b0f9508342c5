import { FIXTURES_DIR } from '../helpers/fixtures';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AmountError,
  DECIMALS,
  MAX_MONEY,
  ONE_DOGE,
  formatKoinu,
  formatKoinuFixed,
  koinuToDogeNumber,
  parseKoinu,
  type AmountErrorCode,
} from '../../lib/money';

const FIXTURES = FIXTURES_DIR;

/** JSON.parse, but every bare integer literal becomes a string so that values > 2^53 stay exact. */
function parseJsonExactInts(text: string): unknown {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      let j = i + 1;
      while (j < text.length && /[0-9.eE+-]/.test(text[j])) j++;
      const tok = text.slice(i, j);
      if (!/^-?\d+$/.test(tok)) throw new Error(`non-integer number in fixture: ${tok}`);
      out += `"${tok}"`;
      i = j - 1;
    } else out += c;
  }
  return JSON.parse(out);
}

type KoinuVectors = {
  one_doge_koinu: string;
  max_money_koinu: string;
  format: { koinu: string; string: string }[];
  round_trip_koinu: string[];
  parse: { input: string; koinu: string }[];
  parse_error_exceeds_max_money: string[];
  parse_error_malformed: string[];
};
const V = parseJsonExactInts(readFileSync(path.join(FIXTURES, 'dogeconnect-koinu-vectors.json'), 'utf8')) as KoinuVectors;

function expectAmountError(fn: () => unknown, code: AmountErrorCode) {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(AmountError);
  expect((err as AmountError).code).toBe(code);
}

/** The reference truncates digits past the 8th decimal; this project rejects them. */
const truncatingVectors = V.parse.filter((v) => (v.input.split('.')[1] ?? '').length > DECIMALS);
const exactVectors = V.parse.filter((v) => !truncatingVectors.includes(v));

describe('constants', () => {
  it('match the fixture', () => {
    expect(ONE_DOGE).toBe(BigInt(V.one_doge_koinu));
    expect(MAX_MONEY).toBe(BigInt(V.max_money_koinu));
    expect(ONE_DOGE).toBe(100_000_000n);
    expect(MAX_MONEY).toBe(10n ** 18n);
  });
  it('fixture sanity: the exact-int JSON loader keeps 999999999999999999 exact', () => {
    expect(V.parse.some((v) => v.koinu === '999999999999999999')).toBe(true);
    expect(V.format.some((v) => v.koinu === '-9223372036854775808')).toBe(true);
  });
});

describe('formatKoinu: reference format vectors', () => {
  it.each(V.format)('formatKoinu($koinu) = "$string"', ({ koinu, string }) => {
    expect(formatKoinu(BigInt(koinu))).toBe(string);
  });
  it('formats -9223372036854775808 (int64 min) exactly although it exceeds MAX_MONEY', () => {
    expect(formatKoinu(-9223372036854775808n)).toBe('-92233720368.54775808');
  });
  it('formats values beyond 64 bits exactly', () => {
    expect(formatKoinu(123456789012345678901234567n)).toBe('1234567890123456789.01234567');
  });
  it('examples from the design', () => {
    expect(formatKoinu(2205000000n)).toBe('22.05');
    expect(formatKoinu(0n)).toBe('0');
    expect(formatKoinu(-0n)).toBe('0');
  });
  it('rejects non-bigint input', () => {
    expect(() => formatKoinu(1 as unknown as bigint)).toThrow(TypeError);
  });
});

describe('round trip', () => {
  it.each(V.round_trip_koinu)('parseKoinu(formatKoinu(%s)) is identity', (k) => {
    const n = BigInt(k);
    expect(parseKoinu(formatKoinu(n))).toBe(n);
    expect(parseKoinu(formatKoinuFixed(n))).toBe(n);
  });
  it('negative values round-trip with allowNegative', () => {
    for (const v of V.format.filter((f) => BigInt(f.koinu) < 0n && -BigInt(f.koinu) <= MAX_MONEY)) {
      expect(parseKoinu(formatKoinu(BigInt(v.koinu)), { allowNegative: true })).toBe(BigInt(v.koinu));
    }
  });
});

describe('parseKoinu: reference parse vectors', () => {
  it('fixture has both exact and truncating vectors', () => {
    expect(exactVectors.length).toBe(49);
    expect(truncatingVectors.length).toBe(7);
  });
  it.each(exactVectors)('parseKoinu("$input") = $koinu', ({ input, koinu }) => {
    expect(parseKoinu(input)).toBe(BigInt(koinu));
  });
  it.each(truncatingVectors)('rejects "$input" (more than 8 decimals): the reference truncates it to $koinu, we reject', ({ input }) => {
    expectAmountError(() => parseKoinu(input), 'too_many_decimals');
  });
  it.each(V.parse_error_exceeds_max_money)('rejects "%s" as too_large (over MAX_MONEY)', (input) => {
    expectAmountError(() => parseKoinu(input), 'too_large');
    expectAmountError(() => parseKoinu('-' + input, { allowNegative: true }), 'too_large');
  });
  it.each(V.parse_error_malformed)('rejects malformed %j (even with allowNegative)', (input) => {
    expect(() => parseKoinu(input, { allowNegative: true })).toThrow(AmountError);
    expect(() => parseKoinu(input)).toThrow(AmountError);
  });
});

describe('parseKoinu: codes and edge cases', () => {
  it('accepts exactly MAX_MONEY and rejects one koinu more', () => {
    expect(parseKoinu('10000000000')).toBe(MAX_MONEY);
    expect(parseKoinu('-10000000000', { allowNegative: true })).toBe(-MAX_MONEY);
    expectAmountError(() => parseKoinu('10000000000.00000001'), 'too_large');
  });
  it('rejects a huge number of leading-digit input quickly as too_large', () => {
    const t0 = performance.now();
    expectAmountError(() => parseKoinu('9'.repeat(100_000)), 'too_large');
    expect(parseKoinu('0'.repeat(100_000) + '1')).toBe(ONE_DOGE);
    expectAmountError(() => parseKoinu('1'.repeat(100_000) + 'x'), 'malformed');
    expectAmountError(() => parseKoinu('1.'.repeat(50_000)), 'malformed');
    expect(performance.now() - t0).toBeLessThan(1000); // no regex backtracking blow-up
  });
  it.each([
    ['', 'empty'],
    [' 1', 'whitespace'],
    ['1 ', 'whitespace'],
    ['1\n', 'whitespace'],
    ['1\t.5', 'whitespace'],
    ['1\u00a0', 'whitespace'],
    ['1.123456789', 'too_many_decimals'],
    ['0.000000010', 'too_many_decimals'],
    ['1e5', 'exponent'],
    ['1E5', 'exponent'],
    ['1.5e-3', 'exponent'],
    ['.5e1', 'exponent'],
    ['+1', 'sign'],
    ['+0', 'sign'],
    ['-1', 'sign'],
    ['-0', 'sign'],
    ['.', 'malformed'],
    ['0x10', 'malformed'],
    ['NaN', 'malformed'],
    ['Infinity', 'malformed'],
    ['1,5', 'malformed'],
    ['1_000', 'malformed'],
    ['１', 'malformed'],
    ['٣', 'malformed'],
  ] as const)('parseKoinu(%j) fails with %s', (input, code) => {
    expectAmountError(() => parseKoinu(input), code);
  });
  it("'+' is rejected even with allowNegative", () => {
    expectAmountError(() => parseKoinu('+1', { allowNegative: true }), 'sign');
  });
  it('accepts negatives only with allowNegative', () => {
    expect(parseKoinu('-12.25', { allowNegative: true })).toBe(-1225000000n);
    expect(parseKoinu('-.5', { allowNegative: true })).toBe(-50000000n);
    expect(parseKoinu('-0', { allowNegative: true })).toBe(0n);
    expectAmountError(() => parseKoinu('-12.25'), 'sign');
  });
  it('accepts the forms the reference accepts', () => {
    expect(parseKoinu('1.')).toBe(ONE_DOGE);
    expect(parseKoinu('.5')).toBe(50_000_000n);
    expect(parseKoinu('007.00000001')).toBe(700000001n);
    expect(parseKoinu('0.00000001')).toBe(1n);
  });
  it('rejects non-string input', () => {
    expectAmountError(() => parseKoinu(1 as unknown as string), 'type');
  });
  it('AmountError is an Error with a name', () => {
    const e = new AmountError('empty', 'x');
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('AmountError');
  });
});

describe('formatKoinuFixed', () => {
  it.each([
    [2205000000n, '22.05000000'],
    [0n, '0.00000000'],
    [5000n, '0.00005000'],
    [123456789n, '1.23456789'],
    [1n, '0.00000001'],
    [-1225000000n, '-12.25000000'],
    [MAX_MONEY, '10000000000.00000000'],
  ])('formatKoinuFixed(%s) = %s', (k, s) => {
    expect(formatKoinuFixed(k)).toBe(s);
  });
  it('agrees with formatKoinu on every fixture value', () => {
    for (const v of V.format.filter((f) => BigInt(f.koinu) >= -MAX_MONEY)) {
      const k = BigInt(v.koinu);
      expect(parseKoinu(formatKoinuFixed(k), { allowNegative: true })).toBe(parseKoinu(v.string, { allowNegative: true }));
      expect(formatKoinuFixed(k)).toMatch(/^-?\d+\.\d{8}$/);
    }
  });
});

describe('koinuToDogeNumber', () => {
  it('gives the nearest double of the exact decimal', () => {
    expect(koinuToDogeNumber(2205000000n)).toBe(22.05);
    expect(koinuToDogeNumber(1n)).toBe(0.00000001);
    expect(koinuToDogeNumber(0n)).toBe(0);
    expect(koinuToDogeNumber(-1225000000n)).toBe(-12.25);
    // 0.1 + 0.2 style drift does not occur: it is a decimal->double conversion, not float arithmetic
    expect(koinuToDogeNumber(30000000n)).toBe(0.3);
    expect(koinuToDogeNumber(999999999999999999n)).toBe(9999999999.99999999);
  });
});
