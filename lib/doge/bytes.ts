/**
 * Byte helpers shared by the Dogecoin modules: hex, hashing, and a bounds-checked
 * little-endian reader / writer with Bitcoin CompactSize varints.
 * @module
 */
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';

const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/;

/** Lower-case hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += bytes[i]!.toString(16).padStart(2, '0');
  return out;
}

/** Strict hex decode (even length, hex digits only). Throws `TypeError` otherwise. */
export function fromHex(hex: string): Uint8Array {
  if (typeof hex !== 'string' || !HEX_RE.test(hex)) throw new TypeError('invalid hex string');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** True if `hex` is strict hex of exactly `bytes` bytes (any length when omitted). */
export function isHex(hex: unknown, bytes?: number): hex is string {
  if (typeof hex !== 'string' || !HEX_RE.test(hex)) return false;
  return bytes === undefined || hex.length === bytes * 2;
}

/** A reversed copy (internal byte order <-> display order for hashes). */
export function reverse(bytes: Uint8Array): Uint8Array {
  return Uint8Array.from(bytes).reverse();
}

/** Hash bytes in internal order -> display hex (as shown by explorers and RPC). */
export function hashToHex(hash: Uint8Array): string {
  return toHex(reverse(hash));
}

/** Display hex of a 32-byte hash -> internal-order bytes. */
export function hexToHash(hex: string): Uint8Array {
  if (!isHex(hex, 32)) throw new TypeError('expected a 32-byte hash as 64 hex digits');
  return reverse(fromHex(hex));
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let len = 0;
  for (const p of parts) len += p.length;
  const out = new Uint8Array(len);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** Double SHA-256. */
export function sha256d(data: Uint8Array): Uint8Array {
  return sha256(sha256(data));
}

/** RIPEMD-160 of SHA-256. */
export function hash160(data: Uint8Array): Uint8Array {
  return ripemd160(sha256(data));
}

/**
 * Decode-error kinds raised through a {@link ByteReader}: its own bounds / varint / count
 * checks, plus the transaction-structure errors the tx reader raises through it.
 */
export type ReadErrorCode = 'truncated' | 'varint' | 'count' | 'witness' | 'no-inputs' | 'trailing';

/** Builds the module-specific error a reader throws. */
export type ReadErrorFactory = (code: ReadErrorCode, message: string) => Error;

const defaultError: ReadErrorFactory = (code, message) => Object.assign(new RangeError(message), { code });

/** Largest CompactSize Bitcoin Core accepts (MAX_SIZE). */
export const MAX_COMPACT_SIZE = 0x02000000;

/**
 * Cursor over a byte array. Every read is bounds-checked and throws the error built
 * by `error` (so each decoder can throw its own typed error class).
 */
export class ByteReader {
  readonly bytes: Uint8Array;
  offset: number;
  private readonly view: DataView;
  private readonly error: ReadErrorFactory;

  constructor(bytes: Uint8Array, offset = 0, error: ReadErrorFactory = defaultError) {
    this.bytes = bytes;
    this.offset = offset;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.error = error;
    if (!Number.isSafeInteger(offset) || offset < 0 || offset > bytes.length)
      throw this.error('truncated', `offset ${offset} outside ${bytes.length} bytes`);
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  fail(code: ReadErrorCode, message: string): never {
    throw this.error(code, message);
  }

  private need(n: number, what: string): void {
    if (n > this.remaining) this.fail('truncated', `truncated ${what}: need ${n} bytes at offset ${this.offset}, have ${this.remaining}`);
  }

  u8(what = 'u8'): number {
    this.need(1, what);
    return this.bytes[this.offset++]!;
  }

  u16le(what = 'u16'): number {
    this.need(2, what);
    const v = this.view.getUint16(this.offset, true);
    this.offset += 2;
    return v;
  }

  u32le(what = 'u32'): number {
    this.need(4, what);
    const v = this.view.getUint32(this.offset, true);
    this.offset += 4;
    return v;
  }

  i32le(what = 'i32'): number {
    this.need(4, what);
    const v = this.view.getInt32(this.offset, true);
    this.offset += 4;
    return v;
  }

  u64le(what = 'u64'): bigint {
    this.need(8, what);
    const v = this.view.getBigUint64(this.offset, true);
    this.offset += 8;
    return v;
  }

  i64le(what = 'i64'): bigint {
    this.need(8, what);
    const v = this.view.getBigInt64(this.offset, true);
    this.offset += 8;
    return v;
  }

  /** A copy of the next `n` bytes. */
  bytesN(n: number, what = 'bytes'): Uint8Array {
    this.need(n, what);
    const out = this.bytes.slice(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  /** Canonical CompactSize (Bitcoin Core rejects non-minimal forms and values above MAX_SIZE). */
  varint(what = 'varint'): number {
    const first = this.u8(what);
    let v: number;
    if (first < 0xfd) return first;
    if (first === 0xfd) {
      v = this.u16le(what);
      if (v < 0xfd) this.fail('varint', `non-canonical ${what}`);
    } else if (first === 0xfe) {
      v = this.u32le(what);
      if (v < 0x10000) this.fail('varint', `non-canonical ${what}`);
    } else {
      const big = this.u64le(what);
      if (big < 0x100000000n) this.fail('varint', `non-canonical ${what}`);
      this.fail('varint', `${what} too large`);
    }
    if (v > MAX_COMPACT_SIZE) this.fail('varint', `${what} too large`);
    return v;
  }

  /**
   * A count of items that each take at least `minItemBytes`: rejected before any
   * allocation when the remaining input cannot possibly hold that many.
   */
  count(minItemBytes: number, what = 'count', max = Infinity): number {
    const n = this.varint(what);
    if (n > max) this.fail('count', `${what} ${n} exceeds maximum ${max}`);
    if (n * minItemBytes > this.remaining) this.fail('count', `${what} ${n} cannot fit in the remaining ${this.remaining} bytes`);
    return n;
  }

  /** A varint length followed by that many bytes. */
  varBytes(what = 'bytes'): Uint8Array {
    const n = this.varint(`${what} length`);
    return this.bytesN(n, what);
  }
}

/** Growable little-endian writer. */
export class ByteWriter {
  private buf = new Uint8Array(256);
  private len = 0;

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.len + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  u8(v: number): this {
    this.ensure(1);
    this.buf[this.len++] = v & 0xff;
    return this;
  }

  u16le(v: number): this {
    this.ensure(2);
    new DataView(this.buf.buffer).setUint16(this.len, v, true);
    this.len += 2;
    return this;
  }

  u32le(v: number): this {
    this.ensure(4);
    new DataView(this.buf.buffer).setUint32(this.len, v >>> 0, true);
    this.len += 4;
    return this;
  }

  i32le(v: number): this {
    this.ensure(4);
    new DataView(this.buf.buffer).setInt32(this.len, v | 0, true);
    this.len += 4;
    return this;
  }

  i64le(v: bigint): this {
    this.ensure(8);
    new DataView(this.buf.buffer).setBigInt64(this.len, BigInt.asIntN(64, v), true);
    this.len += 8;
    return this;
  }

  bytes(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
    return this;
  }

  varint(n: number): this {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`invalid varint ${n}`);
    if (n < 0xfd) return this.u8(n);
    if (n <= 0xffff) return this.u8(0xfd).u16le(n);
    if (n <= 0xffffffff) return this.u8(0xfe).u32le(n);
    this.u8(0xff);
    this.ensure(8);
    new DataView(this.buf.buffer).setBigUint64(this.len, BigInt(n), true);
    this.len += 8;
    return this;
  }

  varBytes(b: Uint8Array): this {
    return this.varint(b.length).bytes(b);
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

/** Serialised CompactSize of `n`. */
export function encodeVarint(n: number): Uint8Array {
  return new ByteWriter().varint(n).finish();
}
