import { describe, expect, it } from 'vitest';
import {
  ByteReader,
  ByteWriter,
  MAX_COMPACT_SIZE,
  concatBytes,
  encodeVarint,
  equalBytes,
  fromHex,
  hash160,
  hashToHex,
  hexToHash,
  isHex,
  reverse,
  sha256d,
  toHex,
} from '../../lib/doge';

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as { code: string }).code;
  }
  throw new Error('expected a throw');
};

describe('hex', () => {
  it('round-trips and is strict', () => {
    expect(toHex(fromHex('00ff10Ab'))).toBe('00ff10ab');
    expect(fromHex('')).toEqual(new Uint8Array(0));
    for (const bad of ['0', 'zz', '0x00', ' 00', '00 ']) expect(() => fromHex(bad)).toThrow(TypeError);
    expect(isHex('abcd', 2)).toBe(true);
    expect(isHex('abcd', 3)).toBe(false);
    expect(isHex(12)).toBe(false);
  });

  it('hash display order is reversed', () => {
    const h = fromHex('01' + '00'.repeat(30) + 'ff');
    expect(hashToHex(h)).toBe('ff' + '00'.repeat(30) + '01');
    expect(toHex(hexToHash(hashToHex(h)))).toBe(toHex(h));
    expect(() => hexToHash('00')).toThrow(TypeError);
    const r = Uint8Array.of(1, 2, 3);
    expect(reverse(r)).toEqual(Uint8Array.of(3, 2, 1));
    expect(r).toEqual(Uint8Array.of(1, 2, 3)); // not in place
  });
});

describe('hashes', () => {
  it('sha256d and hash160 (known vectors)', () => {
    expect(toHex(sha256d(new Uint8Array(0)))).toBe('5df6e0e2761359d30a8275058e299fcc0381534545f55cf43e41983f5d4c9456');
    // hash160 of the secp256k1 generator (compressed): Bitcoin key 1.
    const g = fromHex('0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798');
    expect(toHex(hash160(g))).toBe('751e76e8199196d454941c45d1b3a323f1433bd6');
  });

  it('concat / equal', () => {
    expect(concatBytes(Uint8Array.of(1), new Uint8Array(0), Uint8Array.of(2, 3))).toEqual(Uint8Array.of(1, 2, 3));
    expect(equalBytes(Uint8Array.of(1, 2), Uint8Array.of(1, 2))).toBe(true);
    expect(equalBytes(Uint8Array.of(1, 2), Uint8Array.of(1, 3))).toBe(false);
    expect(equalBytes(Uint8Array.of(1), Uint8Array.of(1, 0))).toBe(false);
  });
});

describe('CompactSize varints', () => {
  const cases: [number, string][] = [
    [0, '00'],
    [0xfc, 'fc'],
    [0xfd, 'fdfd00'],
    [0xffff, 'fdffff'],
    [0x10000, 'fe00000100'],
    [MAX_COMPACT_SIZE, 'fe00000002'],
  ];
  for (const [n, hex] of cases) {
    it(`${n}`, () => {
      expect(toHex(encodeVarint(n))).toBe(hex);
      const r = new ByteReader(fromHex(hex));
      expect(r.varint()).toBe(n);
      expect(r.remaining).toBe(0);
    });
  }

  it('writer encodes 64-bit sizes; reader refuses them', () => {
    expect(toHex(encodeVarint(0x100000000))).toBe('ff0000000001000000');
    expect(codeOf(() => new ByteReader(fromHex('ff0000000001000000')).varint())).toBe('varint');
    expect(() => encodeVarint(-1)).toThrow(RangeError);
  });

  it('rejects non-canonical and oversized encodings', () => {
    for (const hex of ['fdfc00', 'fd0000', 'feffff0000', 'ff00000000ffffffff', 'fe01000002']) {
      expect(codeOf(() => new ByteReader(fromHex(hex)).varint())).toBe('varint');
    }
  });

  it('rejects truncation', () => {
    for (const hex of ['', 'fd', 'fdff', 'fe000001', 'ff00000000000000']) {
      expect(codeOf(() => new ByteReader(fromHex(hex)).varint())).toBe('truncated');
    }
  });
});

describe('ByteReader bounds', () => {
  it('reads little-endian integers and refuses to overrun', () => {
    const r = new ByteReader(fromHex('0100ffffffff0200000000000080'));
    expect(r.u16le()).toBe(1);
    expect(r.i32le()).toBe(-1);
    expect(r.i64le()).toBe(-(2n ** 63n) + 2n);
    expect(r.remaining).toBe(0);
    expect(codeOf(() => r.u8())).toBe('truncated');
    expect(codeOf(() => new ByteReader(new Uint8Array(3)).u32le())).toBe('truncated');
    expect(codeOf(() => new ByteReader(new Uint8Array(3)).bytesN(4))).toBe('truncated');
    expect(codeOf(() => new ByteReader(new Uint8Array(3), 4))).toBe('truncated');
  });

  it('count() refuses counts that cannot fit before allocating anything', () => {
    expect(codeOf(() => new ByteReader(fromHex('fe00000002')).count(1))).toBe('count');
    expect(codeOf(() => new ByteReader(Uint8Array.of(3, 0, 0, 0, 0, 0)).count(2))).toBe('count');
    expect(new ByteReader(Uint8Array.of(3, 0, 0, 0, 0, 0, 0)).count(2)).toBe(3);
    expect(codeOf(() => new ByteReader(Uint8Array.of(5, 0, 0, 0, 0, 0)).count(1, 'n', 4))).toBe('count');
  });

  it('uses the caller’s error factory', () => {
    class MyErr extends Error {
      constructor(readonly code: string) {
        super(code);
      }
    }
    const r = new ByteReader(new Uint8Array(0), 0, (code) => new MyErr(code));
    expect(() => r.u8()).toThrow(MyErr);
  });

  it('reads inside a subarray view', () => {
    const buf = fromHex('aabbccdd0102');
    const r = new ByteReader(buf.subarray(4));
    expect(r.u16le()).toBe(0x0201);
  });
});

describe('ByteWriter', () => {
  it('grows and writes every width', () => {
    const w = new ByteWriter();
    for (let i = 0; i < 300; i++) w.u8(i);
    w.u16le(0x0201).u32le(0xffffffff).i32le(-2).i64le(-1n).varBytes(Uint8Array.of(9, 8));
    const out = w.finish();
    expect(out.length).toBe(300 + 2 + 4 + 4 + 8 + 3);
    expect(toHex(out.subarray(300))).toBe('0102' + 'ffffffff' + 'feffffff' + 'ffffffffffffffff' + '020908');
  });
});
