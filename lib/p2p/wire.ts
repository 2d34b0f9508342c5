// P2P wire format (Dogecoin Core 1.14 / Bitcoin protocol 70015): message framing with magic and
// checksum, and the payload codecs the spv node speaks. Pure: no sockets here.
import { randomBytes } from 'node:crypto';
import { ByteReader, ByteWriter, fromHex, hashToHex, hexToHash, sha256d, type ReadErrorFactory } from '../doge';

export const PROTOCOL_VERSION = 70015;
/** Largest payload we accept from a peer (Core's MAX_PROTOCOL_MESSAGE_LENGTH is 4 MB; blocks are never requested). */
export const MAX_PAYLOAD = 4 * 1000 * 1000;
export const HEADER_LEN = 24;

export const NODE_NETWORK = 1n;
export const NODE_BLOOM = 4n;

export const INV_TX = 1;
export const INV_BLOCK = 2;
export const INV_FILTERED_BLOCK = 3;

export class WireError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'WireError';
  }
}

const wireError: ReadErrorFactory = (code, message) => new WireError(code, message);
export const reader = (b: Uint8Array) => new ByteReader(b, 0, wireError);

function checksum(payload: Uint8Array): Uint8Array {
  return sha256d(payload).subarray(0, 4);
}

export function encodeMessage(magicHex: string, command: string, payload: Uint8Array = new Uint8Array(0)): Uint8Array {
  if (command.length > 12 || !/^[a-z]+$/.test(command)) throw new RangeError(`bad command ${command}`);
  const out = new Uint8Array(HEADER_LEN + payload.length);
  out.set(fromHex(magicHex), 0);
  for (let i = 0; i < command.length; i++) out[4 + i] = command.charCodeAt(i);
  new DataView(out.buffer).setUint32(16, payload.length, true);
  out.set(checksum(payload), 20);
  out.set(payload, HEADER_LEN);
  return out;
}

export interface Frame {
  command: string;
  payload: Uint8Array;
}

/**
 * Incremental decoder for a byte stream. push() returns the complete frames; it throws
 * WireError on a wrong magic, a malformed command, an oversized length or a bad checksum (the
 * caller then drops and bans the peer).
 */
export class FrameDecoder {
  private buf = new Uint8Array(0);
  private readonly magic: Uint8Array;
  constructor(
    magicHex: string,
    private readonly maxPayload = MAX_PAYLOAD,
  ) {
    this.magic = fromHex(magicHex);
  }
  push(chunk: Uint8Array): Frame[] {
    const merged = new Uint8Array(this.buf.length + chunk.length);
    merged.set(this.buf, 0);
    merged.set(chunk, this.buf.length);
    this.buf = merged;
    const frames: Frame[] = [];
    let off = 0;
    while (this.buf.length - off >= HEADER_LEN) {
      const b = this.buf;
      for (let i = 0; i < 4; i++) if (b[off + i] !== this.magic[i]) throw new WireError('magic', 'wrong network magic');
      let command = '';
      let ended = false;
      for (let i = 0; i < 12; i++) {
        const c = b[off + 4 + i]!;
        if (c === 0) ended = true;
        else if (ended || c < 0x20 || c > 0x7e) throw new WireError('command', 'malformed command name');
        else command += String.fromCharCode(c);
      }
      const len = new DataView(b.buffer, b.byteOffset + off + 16, 4).getUint32(0, true);
      if (len > this.maxPayload) throw new WireError('size', `message of ${len} bytes exceeds ${this.maxPayload}`);
      if (b.length - off - HEADER_LEN < len) break;
      const payload = b.slice(off + HEADER_LEN, off + HEADER_LEN + len);
      const sum = checksum(payload);
      for (let i = 0; i < 4; i++) if (sum[i] !== b[off + 20 + i]) throw new WireError('checksum', `bad checksum on ${command}`);
      frames.push({ command, payload });
      off += HEADER_LEN + len;
    }
    this.buf = this.buf.slice(off);
    return frames;
  }
}

// ---- version ----

export interface VersionMsg {
  version: number;
  services: bigint;
  timestamp: bigint;
  nonce: bigint;
  userAgent: string;
  startHeight: number;
  relay: boolean;
}

function writeNetAddr(w: ByteWriter, services: bigint): void {
  w.u32le(Number(services & 0xffffffffn)).u32le(Number(services >> 32n));
  w.bytes(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1])).bytes(new Uint8Array([0, 0]));
}

export function encodeVersion(v: VersionMsg): Uint8Array {
  const w = new ByteWriter().i32le(v.version);
  w.u32le(Number(v.services & 0xffffffffn))
    .u32le(Number(v.services >> 32n))
    .i64le(v.timestamp);
  writeNetAddr(w, 0n);
  writeNetAddr(w, v.services);
  w.u32le(Number(v.nonce & 0xffffffffn)).u32le(Number(v.nonce >> 32n));
  const ua = new TextEncoder().encode(v.userAgent);
  w.varBytes(ua)
    .i32le(v.startHeight)
    .u8(v.relay ? 1 : 0);
  return w.finish();
}

export function decodeVersion(p: Uint8Array): VersionMsg {
  const r = reader(p);
  const version = r.i32le();
  const services = r.u64le();
  const timestamp = r.i64le();
  r.bytesN(26, 'addr_recv');
  let nonce = 0n;
  let userAgent = '';
  let startHeight = 0;
  let relay = true;
  if (r.remaining > 0) {
    r.bytesN(26, 'addr_from');
    nonce = r.u64le();
    const ua = r.varBytes('user agent');
    if (ua.length > 256) throw new WireError('version', 'user agent too long');
    userAgent = new TextDecoder().decode(ua);
    startHeight = r.i32le();
    if (r.remaining > 0) relay = r.u8() !== 0;
  }
  return { version, services, timestamp, nonce, userAgent, startHeight, relay };
}

// ---- small payloads ----

/**
 * A random 64-bit nonce (version, ping): from the OS's CSPRNG, so two nodes or two pings never
 * pick the same one by the accident of a shared seed.
 */
export const randomNonce64 = (): bigint => BigInt('0x' + randomBytes(8).toString('hex'));

export function encodeU64(n: bigint): Uint8Array {
  return new ByteWriter()
    .u32le(Number(n & 0xffffffffn))
    .u32le(Number((n >> 32n) & 0xffffffffn))
    .finish();
}
export function decodeU64(p: Uint8Array): bigint {
  return reader(p).u64le();
}

export interface InvItem {
  type: number;
  hash: string; // display hex
}

export const MAX_INV = 50_000;

export function encodeInv(items: InvItem[]): Uint8Array {
  const w = new ByteWriter().varint(items.length);
  for (const i of items) w.u32le(i.type).bytes(hexToHash(i.hash));
  return w.finish();
}

export function decodeInv(p: Uint8Array): InvItem[] {
  const r = reader(p);
  const n = r.count(36, 'inv count', MAX_INV);
  const out: InvItem[] = [];
  for (let i = 0; i < n; i++) out.push({ type: r.u32le(), hash: hashToHex(r.bytesN(32)) });
  if (r.remaining) throw new WireError('trailing', 'trailing bytes after inv');
  return out;
}

/** getheaders: version, block locator (display hex, newest first), stop hash (zero = as many as possible). */
export function encodeGetHeaders(locator: string[], stop = '0'.repeat(64)): Uint8Array {
  const w = new ByteWriter().u32le(PROTOCOL_VERSION).varint(locator.length);
  for (const h of locator) w.bytes(hexToHash(h));
  return w.bytes(hexToHash(stop)).finish();
}

export function decodeGetHeaders(p: Uint8Array): { locator: string[]; stop: string } {
  const r = reader(p);
  r.u32le();
  const n = r.count(32, 'locator', 101);
  const locator: string[] = [];
  for (let i = 0; i < n; i++) locator.push(hashToHex(r.bytesN(32)));
  return { locator, stop: hashToHex(r.bytesN(32)) };
}

export interface RejectMsg {
  message: string;
  code: number;
  reason: string;
  hash: string | null;
}

export function decodeReject(p: Uint8Array): RejectMsg {
  const r = reader(p);
  const dec = new TextDecoder();
  const message = dec.decode(r.varBytes('message')).slice(0, 12);
  const code = r.u8();
  const reason = dec.decode(r.varBytes('reason')).slice(0, 111);
  const hash = r.remaining >= 32 ? hashToHex(r.bytesN(32)) : null;
  return { message, code, reason, hash };
}

export function encodeReject(m: RejectMsg): Uint8Array {
  const enc = new TextEncoder();
  const w = new ByteWriter().varBytes(enc.encode(m.message)).u8(m.code).varBytes(enc.encode(m.reason));
  if (m.hash) w.bytes(hexToHash(m.hash));
  return w.finish();
}

export interface AddrEntry {
  time: number;
  services: bigint;
  host: string;
  port: number;
}

/** addr: up to 1000 entries; IPv4-mapped entries are returned as dotted quads, others as IPv6 text. */
export function decodeAddr(p: Uint8Array): AddrEntry[] {
  const r = reader(p);
  const n = r.count(30, 'addr count', 1000);
  const out: AddrEntry[] = [];
  for (let i = 0; i < n; i++) {
    const time = r.u32le();
    const services = r.u64le();
    const ip = r.bytesN(16);
    const port = (r.u8() << 8) | r.u8();
    const v4 = ip.subarray(0, 12).every((b, j) => (j < 10 ? b === 0 : b === 0xff));
    const host = v4
      ? [...ip.subarray(12)].join('.')
      : `[${Array.from({ length: 8 }, (_, j) => ((ip[2 * j]! << 8) | ip[2 * j + 1]!).toString(16)).join(':')}]`;
    out.push({ time, services, host, port });
  }
  return out;
}

export function encodeFilterLoad(filter: { data: Uint8Array; hashFuncs: number; tweak: number; flags: number }): Uint8Array {
  return new ByteWriter().varBytes(filter.data).u32le(filter.hashFuncs).u32le(filter.tweak).u8(filter.flags).finish();
}

export function encodeFilterAdd(data: Uint8Array): Uint8Array {
  return new ByteWriter().varBytes(data).finish();
}
