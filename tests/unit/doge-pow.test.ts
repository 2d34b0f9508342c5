import { fixturePath } from '../helpers/fixtures';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  MAINNET,
  REGTEST,
  bitsToTarget,
  checkProofOfWork,
  decodeCompact,
  fromHex,
  hashMeetsTarget,
  hashToBigInt,
  hashToHex,
  headerWork,
  parseHeader,
  powHash,
  scryptPowHash,
  targetToBits,
} from '../../lib/doge';

const fixture = (name: string) => JSON.parse(readFileSync(fixturePath(name), 'utf8'));

const entries: {
  height: number;
  hex: string;
  format: string;
  bits: string;
  target: string;
  verification: { scrypt_pow_hash?: string; scrypt_pow_ok?: boolean; own_scrypt_hash?: string };
}[] = fixture('doge-mainnet-headers.json').entries;

describe('compact targets (arith_uint256 SetCompact/GetCompact vectors)', () => {
  const cases: [number, bigint, number, boolean?, boolean?][] = [
    // bits, target, re-encoded bits, negative, overflow
    [0x00000000, 0n, 0],
    [0x00123456, 0n, 0],
    [0x01003456, 0n, 0],
    [0x02000056, 0n, 0],
    [0x03000000, 0n, 0],
    [0x04000000, 0n, 0],
    [0x00923456, 0n, 0],
    [0x01803456, 0n, 0],
    [0x02800056, 0n, 0],
    [0x03800000, 0n, 0],
    [0x04800000, 0n, 0],
    [0x01123456, 0x12n, 0x01120000],
    [0x02123456, 0x1234n, 0x02123400],
    [0x03123456, 0x123456n, 0x03123456],
    [0x04123456, 0x12345600n, 0x04123456],
    [0x05009234, 0x92340000n, 0x05009234],
    [0x20123456, 0x123456n << 232n, 0x20123456],
    [0x1d00ffff, 0xffffn << 208n, 0x1d00ffff],
  ];
  for (const [bits, target, back] of cases) {
    it(`0x${bits.toString(16).padStart(8, '0')}`, () => {
      const c = decodeCompact(bits);
      expect(c.target).toBe(target);
      expect(c.negative).toBe(false);
      expect(c.overflow).toBe(false);
      expect(targetToBits(target)).toBe(back);
    });
  }

  it('negative and overflow flags', () => {
    expect(decodeCompact(0x01fedcba)).toMatchObject({ target: 0x7en, negative: true });
    expect(decodeCompact(0x04923456)).toMatchObject({ target: 0x12345600n, negative: true });
    expect(decodeCompact(0xff123456).overflow).toBe(true);
    expect(decodeCompact(0x22000001).overflow).toBe(false); // word <= 0xff, size 34
    expect(decodeCompact(0x23000001).overflow).toBe(true);
    expect(decodeCompact(0x22000100).overflow).toBe(true);
    expect(decodeCompact(0x21010000).overflow).toBe(true);
    expect(() => bitsToTarget(0x04923456)).toThrow(RangeError);
    expect(() => bitsToTarget(0xff123456)).toThrow(RangeError);
  });

  it('every fixture header: bits -> target -> bits', () => {
    for (const e of entries) {
      const bits = parseInt(e.bits, 16);
      expect(bitsToTarget(bits)).toBe(BigInt('0x' + e.target));
      expect(targetToBits(bitsToTarget(bits))).toBe(bits);
    }
  });

  it('pow limits encode to the network limit bits', () => {
    expect(targetToBits(MAINNET.powLimit)).toBe(MAINNET.powLimitBits);
    expect(targetToBits(REGTEST.powLimit)).toBe(REGTEST.powLimitBits);
    expect(MAINNET.powLimit).toBe(BigInt('0x00000fffffffffffffffffffffffffffffffffffffffffffffffffffffffffff'));
  });
});

describe('headerWork', () => {
  it('matches GetBlockProof: (~t / (t+1)) + 1', () => {
    const mask = (1n << 256n) - 1n;
    for (const bits of [0x1e0ffff0, 0x1b364184, 0x1a03979a, 0x207fffff, 0x1d00ffff, 0x197c63d0]) {
      const t = bitsToTarget(bits);
      expect(headerWork(bits)).toBe((mask ^ t) / (t + 1n) + 1n);
    }
  });

  it('known values', () => {
    expect(headerWork(0x1d00ffff)).toBe(0x100010001n); // Bitcoin difficulty 1
    expect(headerWork(0x207fffff)).toBe(2n); // regtest minimum
    expect(headerWork(0x1e0ffff0)).toBe((1n << 256n) / ((0x0ffff0n << 216n) + 1n));
  });

  it('tiny targets: work is 2^256 / (target + 1), not 2^256 / target', () => {
    expect(headerWork(0x03000001)).toBe(1n << 255n); // target 1
    expect(headerWork(0x03000003)).toBe(1n << 254n); // target 3
    expect(headerWork(0x030000ff)).toBe(1n << 248n); // target 255
  });

  it('is 0 for unusable targets and grows with difficulty', () => {
    expect(headerWork(0)).toBe(0n);
    expect(headerWork(0x04923456)).toBe(0n);
    expect(headerWork(0xff123456)).toBe(0n);
    expect(headerWork(0x1b364184) > headerWork(0x1e0ffff0)).toBe(true);
  });
});

describe('scrypt proof of work', () => {
  const plain = entries.filter((e) => e.format === 'header80');

  it('scrypt hashes equal the fixture (doged-asserted for genesis, 145000, 371336)', () => {
    let n = 0;
    for (const e of plain) {
      expect(hashToHex(powHash(fromHex(e.hex)))).toBe(e.verification.scrypt_pow_hash);
      n++;
    }
    expect(n).toBeGreaterThanOrEqual(20);
    const first = entries.find((e) => e.height === 371337)!;
    expect(hashToHex(scryptPowHash(fromHex(first.hex).subarray(0, 80)))).toBe(first.verification.own_scrypt_hash);
  });

  it('every non-AuxPoW header meets its own bits (within the mainnet limit)', () => {
    for (const e of plain) {
      const h = parseHeader(fromHex(e.hex));
      expect(checkProofOfWork(h.raw, h.bits, MAINNET.powLimit)).toBe(true);
    }
  });

  it('fails against a target just below the hash', () => {
    for (const e of plain.slice(0, 5)) {
      const raw = fromHex(e.hex);
      const pow = powHash(raw);
      const hash = hashToBigInt(pow);
      // Compact encoding truncates: half the hash is strictly below it, twice the hash above.
      expect(checkProofOfWork(raw, targetToBits(hash >> 1n))).toBe(false);
      expect(hashMeetsTarget(pow, targetToBits(hash * 2n))).toBe(true);
    }
  });

  it('AuxPoW headers do not meet their bits by their own scrypt', () => {
    for (const e of entries.filter((x) => x.format === 'header80+auxpow')) {
      const raw = fromHex(e.hex).subarray(0, 80);
      expect(checkProofOfWork(raw, parseInt(e.bits, 16), MAINNET.powLimit)).toBe(false);
    }
  });

  it('a hash equal to the target passes, one above fails', () => {
    const target = 0xffffn << 208n; // bits 0x1d00ffff
    const asHash = (v: bigint) => Uint8Array.from({ length: 32 }, (_, i) => Number((v >> BigInt(8 * i)) & 0xffn));
    expect(hashToBigInt(asHash(target))).toBe(target);
    expect(hashMeetsTarget(asHash(target), 0x1d00ffff)).toBe(true);
    expect(hashMeetsTarget(asHash(target - 1n), 0x1d00ffff)).toBe(true);
    expect(hashMeetsTarget(asHash(target + 1n), 0x1d00ffff)).toBe(false);
  });

  it('bits above the pow limit, zero or negative never pass', () => {
    const genesis = fromHex(entries[0]!.hex);
    expect(checkProofOfWork(genesis, 0x1e0ffff0, MAINNET.powLimit)).toBe(true);
    expect(checkProofOfWork(genesis, 0x1f00ffff)).toBe(true); // no limit given
    expect(checkProofOfWork(genesis, 0x1f00ffff, MAINNET.powLimit)).toBe(false);
    expect(checkProofOfWork(genesis, 0)).toBe(false);
    expect(checkProofOfWork(genesis, 0x1e8ffff0)).toBe(false);
    expect(() => powHash(genesis.subarray(0, 79))).toThrow(RangeError);
  });

  it('scrypt is N=1024, r=1, p=1, 32 bytes, password = salt = header', () => {
    // Litecoin genesis header (public): scrypt hash is known to be below its target.
    const ltcGenesis = fromHex(
      '01000000' +
        '00'.repeat(32) +
        'd9ced4ed1130f7b7faad9be25323ffafa33232a17c3edf6cfd97bee6bafbdd97' +
        'b9aa8e4e' +
        'f0ff0f1e' +
        'cd513f7c',
    );
    expect(parseHeader(ltcGenesis).hash).toBe('12a765e31ffd4059bada1e25190f6e98c99d9714d334efa41a195a7e7e04bfe2');
    expect(checkProofOfWork(ltcGenesis, 0x1e0ffff0)).toBe(true);
    expect(scryptPowHash(ltcGenesis)).toHaveLength(32);
  });
});
