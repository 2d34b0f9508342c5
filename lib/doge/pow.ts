/**
 * Compact targets ("bits"), proof-of-work checks and chain work.
 * @module
 */
import { scryptPowHash } from './scrypt';

const U256 = 1n << 256n;
const MASK256 = U256 - 1n;

export interface CompactTarget {
  readonly target: bigint;
  /** Sign bit set with a non-zero mantissa (never valid as a target). */
  readonly negative: boolean;
  /** The value does not fit in 256 bits. */
  readonly overflow: boolean;
}

/** arith_uint256::SetCompact. */
export function decodeCompact(bits: number): CompactTarget {
  const compact = bits >>> 0;
  const size = compact >>> 24;
  let word = compact & 0x007fffff;
  let target: bigint;
  if (size <= 3) {
    word >>>= 8 * (3 - size); // Core tests the sign and overflow on the shifted word
    target = BigInt(word);
  } else target = (BigInt(word) << BigInt(8 * (size - 3))) & MASK256;
  const negative = word !== 0 && (compact & 0x00800000) !== 0;
  const overflow = word !== 0 && (size > 34 || (word > 0xff && size > 33) || (word > 0xffff && size > 32));
  return { target, negative, overflow };
}

/** Target encoded by `bits`. Throws `RangeError` for negative or overflowing encodings. */
export function bitsToTarget(bits: number): bigint {
  const { target, negative, overflow } = decodeCompact(bits);
  if (negative) throw new RangeError(`negative compact target 0x${(bits >>> 0).toString(16)}`);
  if (overflow) throw new RangeError(`compact target 0x${(bits >>> 0).toString(16)} overflows 256 bits`);
  return target;
}

/** arith_uint256::GetCompact (non-negative). */
export function targetToBits(target: bigint): number {
  if (target < 0n || target > MASK256) throw new RangeError('target out of range');
  let size = target === 0n ? 0 : Math.ceil(target.toString(2).length / 8);
  let compact: number;
  if (size <= 3) compact = Number(target << BigInt(8 * (3 - size)));
  else compact = Number(target >> BigInt(8 * (size - 3)));
  if (compact & 0x00800000) {
    compact >>>= 8;
    size++;
  }
  return (compact | (size << 24)) >>> 0;
}

/** A 32-byte hash read as a little-endian 256-bit integer (how hashes compare to targets). */
export function hashToBigInt(hash: Uint8Array): bigint {
  let v = 0n;
  for (let i = hash.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(hash[i]!);
  return v;
}

/**
 * CheckProofOfWork: `bits` must decode to a valid non-zero target no higher than `powLimit`,
 * and `powHash` (little-endian) must not exceed it.
 */
export function hashMeetsTarget(powHash: Uint8Array, bits: number, powLimit: bigint = MASK256): boolean {
  const { target, negative, overflow } = decodeCompact(bits);
  if (negative || overflow || target === 0n || target > powLimit) return false;
  return hashToBigInt(powHash) <= target;
}

/** scrypt proof-of-work hash of an 80-byte header. */
export function powHash(header80: Uint8Array): Uint8Array {
  if (header80.length !== 80) throw new RangeError('proof of work is over the 80-byte header');
  return scryptPowHash(header80);
}

/** scrypt(header80) <= target(bits), with the target capped by `powLimit` when given. */
export function checkProofOfWork(header80: Uint8Array, bits: number, powLimit?: bigint): boolean {
  return hashMeetsTarget(powHash(header80), bits, powLimit);
}

/** Expected work of a header with `bits`: 2^256 / (target + 1), or 0 for an invalid target (GetBlockProof). */
export function headerWork(bits: number): bigint {
  const { target, negative, overflow } = decodeCompact(bits);
  if (negative || overflow || target === 0n) return 0n;
  return U256 / (target + 1n);
}
