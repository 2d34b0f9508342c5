// Property-based hardening (docs/security.md): random and mutated input to the transaction decoder, the
// header/AuxPoW parser and checker, the payment-URI parser and the amount parser. Each may only
// return or throw its module's typed error, never anything else (TypeError, RangeError, …).
// Mutations start from the official vectors in tests/fixtures.
import { fixturePath } from '../helpers/fixtures';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import {
  MAINNET,
  decodeTx,
  encodeTx,
  parseTx,
  toHex,
  fromHex,
  parseHeaderEntry,
  parseHeadersMessage,
  parseAuxpow,
  checkHeader,
  TxDecodeError,
  HeaderDecodeError,
  HeaderCheckError,
} from '@/lib/doge';
import { parsePaymentUri, UriError } from '@/lib/connect';
import { parseKoinu, formatKoinu, AmountError, MAX_MONEY } from '@/lib/money';

const fixture = (name: string) => JSON.parse(readFileSync(fixturePath(name), 'utf8'));
const TXS: string[] = fixture('doge-mainnet-txs.json').transactions.map((t: { hex: string }) => t.hex);
const HEADERS = fixture('doge-mainnet-headers.json');
const HEADER_HEXES: string[] = HEADERS.entries.map((e: { hex: string }) => e.hex);
const AUXPOW_HEXES: string[] = HEADERS.auxpow_only.map((e: { auxpow_hex: string }) => e.auxpow_hex);
const URIS = fixture('dogeconnect-uri-vectors.json');
const URI_STRINGS: string[] = [...URIS.parse_valid, ...URIS.parse_invalid].map((v: { uri: string }) => v.uri);

/** Runs fn; passes if it returns or throws one of the allowed error classes. */
function onlyTyped(fn: () => unknown, ...allowed: (new (...a: never[]) => Error)[]): void {
  try {
    fn();
  } catch (e) {
    if (!allowed.some((c) => e instanceof c)) throw new Error(`untyped throw: ${(e as Error)?.name}: ${(e as Error)?.message}`);
  }
}

/** Byte mutations of a seed: flip bits, overwrite, truncate, insert, splice in random bytes. */
function mutatedBytes(seeds: Uint8Array[]): fc.Arbitrary<Uint8Array> {
  const op = fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
    fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 9 }) }),
    // Varint-sized counts are where decoders overflow: plant 0xfd/0xfe/0xff prefixes.
    fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.constantFrom(0xfd, 0xfe, 0xff) }),
  );
  return fc.tuple(fc.constantFrom(...seeds), fc.array(op, { minLength: 1, maxLength: 6 })).map(([seed, ops]) => {
    let b = Uint8Array.from(seed);
    for (const o of ops) {
      if (b.length === 0) break;
      const at = o.at % b.length;
      if (o.kind === 'flip') b[at] ^= 1 << o.bit;
      else if (o.kind === 'set') b[at] = o.value;
      else if (o.kind === 'truncate') b = b.slice(0, at);
      else b = Uint8Array.from([...b.slice(0, at), ...o.bytes, ...b.slice(at)]);
    }
    return b;
  });
}

const RUNS = { numRuns: 400 };

describe('transaction decoder', () => {
  const seeds = TXS.map(fromHex);
  it('round-trips every fixture transaction', () => {
    for (const hex of TXS) expect(toHex(encodeTx(parseTx(hex)))).toBe(hex);
  });
  it('random bytes and random strings: only TxDecodeError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (b) => onlyTyped(() => decodeTx(b, MAINNET), TxDecodeError)),
      RUNS,
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => onlyTyped(() => decodeTx(s, MAINNET), TxDecodeError)),
      RUNS,
    );
  });
  it('mutated real transactions: only TxDecodeError, and what decodes re-encodes to the same bytes', () => {
    fc.assert(
      fc.property(mutatedBytes(seeds), (b) => {
        let tx;
        try {
          tx = parseTx(b);
        } catch (e) {
          if (!(e instanceof TxDecodeError)) throw e;
          return;
        }
        expect(toHex(encodeTx(tx))).toBe(toHex(b));
        onlyTyped(() => decodeTx(b, MAINNET), TxDecodeError);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('header and AuxPoW parser', () => {
  const headerSeeds = HEADER_HEXES.map(fromHex);
  const auxSeeds = AUXPOW_HEXES.map(fromHex);
  it('random bytes: only HeaderDecodeError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (b) => {
        onlyTyped(() => parseHeaderEntry(b), HeaderDecodeError);
        onlyTyped(() => parseAuxpow(b), HeaderDecodeError);
        onlyTyped(() => parseHeadersMessage(b), HeaderDecodeError);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => onlyTyped(() => parseHeaderEntry(s), HeaderDecodeError)),
      RUNS,
    );
  });
  it('mutated real (AuxPoW) headers: parse only with HeaderDecodeError, check only with HeaderCheckError', () => {
    fc.assert(
      fc.property(mutatedBytes(headerSeeds), fc.option(fc.integer({ min: 0, max: 6_000_000 }), { nil: undefined }), (b, height) => {
        let entry;
        try {
          entry = parseHeaderEntry(b);
        } catch (e) {
          if (!(e instanceof HeaderDecodeError)) throw e;
          return;
        }
        onlyTyped(() => checkHeader(entry, MAINNET, height === undefined ? {} : { height }), HeaderCheckError);
      }),
      { numRuns: 300 }, // each check runs scrypt
    );
  });
  it('mutated AuxPoW blobs and headers messages: only HeaderDecodeError', () => {
    fc.assert(
      fc.property(mutatedBytes(auxSeeds), (b) => onlyTyped(() => parseAuxpow(b), HeaderDecodeError)),
      { numRuns: 800 },
    );
    const msg = (entries: Uint8Array[]) => Uint8Array.from([entries.length, ...entries.flatMap((e) => [...e, 0])]);
    const messages = [msg(headerSeeds.slice(0, 3)), msg(headerSeeds.slice(3, 5))];
    fc.assert(
      fc.property(mutatedBytes(messages), (b) => onlyTyped(() => parseHeadersMessage(b), HeaderDecodeError)),
      { numRuns: 500 },
    );
  });
});

describe('payment URI parser', () => {
  const uriChars = fc.constantFrom(
    ...'dogecoin:dogeconnect:?&=%25%2F%ZZ%C3%28/.-_+ DPD7uK4B1kRmbfGmytBhG1amount=dc=h=req-x=é😀\u0000'.split(''),
  );
  it('random strings: only UriError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => onlyTyped(() => parsePaymentUri(s), UriError)),
      RUNS,
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), (s) => onlyTyped(() => parsePaymentUri('dogecoin:' + s), UriError)),
      RUNS,
    );
    fc.assert(
      fc.property(
        fc.array(uriChars, { maxLength: 80 }).map((a) => a.join('')),
        (s) => {
          onlyTyped(() => parsePaymentUri('dogecoin:' + s), UriError);
          onlyTyped(() => parsePaymentUri('dogeconnect:' + s), UriError);
        },
      ),
      RUNS,
    );
  });
  it('mutated vector URIs: only UriError, and a parse of a valid vector is stable', () => {
    const mutate = fc.tuple(fc.constantFrom(...URI_STRINGS), fc.nat(), fc.nat(), fc.string({ maxLength: 6 })).map(([u, a, b, ins]) => {
      const i = a % (u.length + 1);
      const j = Math.min(u.length, i + (b % 5));
      return u.slice(0, i) + ins + u.slice(j);
    });
    fc.assert(
      fc.property(mutate, (u) => onlyTyped(() => parsePaymentUri(u), UriError)),
      { numRuns: 1500 },
    );
    for (const v of URIS.parse_valid) expect(parsePaymentUri(v.uri)).toEqual(parsePaymentUri(v.uri));
  });
});

describe('amount parser', () => {
  it('any string: only AmountError, and an accepted amount is within ±MAX_MONEY', () => {
    const amountish = fc.array(fc.constantFrom(...'0123456789.-+eE x'.split('')), { maxLength: 30 }).map((a) => a.join(''));
    for (const arb of [fc.string({ maxLength: 40 }), amountish]) {
      fc.assert(
        fc.property(arb, fc.boolean(), (s, neg) => {
          let k: bigint;
          try {
            k = parseKoinu(s, { allowNegative: neg });
          } catch (e) {
            if (!(e instanceof AmountError)) throw e;
            return;
          }
          expect(k <= MAX_MONEY && k >= -MAX_MONEY).toBe(true);
          if (!neg) expect(k >= 0n).toBe(true);
        }),
        { numRuns: 2000 },
      );
    }
    // Non-strings from untyped JSON.
    fc.assert(
      fc.property(fc.anything(), (v) => {
        if (typeof v === 'string') return;
        expect(() => parseKoinu(v as never)).toThrow(AmountError);
      }),
      RUNS,
    );
  });
  it('formatKoinu and parseKoinu are inverse over [0, MAX_MONEY]', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_MONEY }), (k) => {
        expect(parseKoinu(formatKoinu(k))).toBe(k);
      }),
      { numRuns: 2000 },
    );
  });
  it('agrees with an independent decimal reading of well-formed strings', () => {
    const dec = fc.tuple(fc.stringMatching(/^\d{1,11}$/), fc.stringMatching(/^\d{0,8}$/));
    fc.assert(
      fc.property(dec, ([i, f]) => {
        const expected = BigInt(i) * 100_000_000n + BigInt((f || '0').padEnd(8, '0'));
        const s = f ? `${i}.${f}` : i;
        if (expected > MAX_MONEY) expect(() => parseKoinu(s)).toThrow(AmountError);
        else expect(parseKoinu(s)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
