/**
 * Header entries as they travel on the wire (80-byte header, then CAuxPow when the version
 * has 0x100), the P2P `headers` message, and the proof-of-work rules for one header
 * (Dogecoin Core's CheckAuxPowProofOfWork plus the height-dependent version rules).
 * @module
 */
import { checkAuxpow, readAuxpow, writeAuxpow, type AuxPow } from './auxpow';
import { ByteReader, ByteWriter, fromHex, isHex, type ReadErrorFactory } from './bytes';
import { HeaderCheckError, HeaderDecodeError } from './errors';
import { chainIdOf, headerHash, isAuxpowVersion, isLegacyVersion, readHeader, type BlockHeader } from './header';
import type { Network } from './network';
import { hashMeetsTarget, powHash } from './pow';

/** Most headers one `headers` message may carry. */
export const MAX_HEADERS_PER_MESSAGE = 2000;

export interface HeaderEntry {
  readonly header: BlockHeader;
  readonly auxpow?: AuxPow;
}

const headerError: ReadErrorFactory = (code, message) => new HeaderDecodeError(code, message);

/** Read a header and, if its version says so, the AuxPoW that follows it. */
export function readHeaderEntry(r: ByteReader): HeaderEntry {
  const header = readHeader(r);
  if (!isAuxpowVersion(header.version)) return { header };
  return { header, auxpow: readAuxpow(r) };
}

/**
 * Parse a header (plus AuxPoW when version & 0x100) at `offset`.
 * Throws {@link HeaderDecodeError}.
 */
export function parseHeaderWithAuxpow(bytes: Uint8Array, offset = 0): { header: BlockHeader; auxpow?: AuxPow; bytesRead: number } {
  const r = new ByteReader(bytes, offset, headerError);
  const entry = readHeaderEntry(r);
  return { ...entry, bytesRead: r.offset - offset };
}

/** Parse a standalone serialised header entry (hex or bytes); trailing bytes are rejected. */
export function parseHeaderEntry(input: Uint8Array | string): HeaderEntry {
  let bytes: Uint8Array;
  if (typeof input === 'string') {
    if (!isHex(input)) throw new HeaderDecodeError('hex', 'header hex is not valid hex');
    bytes = fromHex(input);
  } else bytes = input;
  const { bytesRead, ...entry } = parseHeaderWithAuxpow(bytes);
  if (bytesRead !== bytes.length) throw new HeaderDecodeError('trailing', `${bytes.length - bytesRead} trailing bytes after the header`);
  return entry;
}

export function serializeHeaderEntry(entry: HeaderEntry): Uint8Array {
  const w = new ByteWriter().bytes(entry.header.raw);
  if (entry.auxpow) writeAuxpow(w, entry.auxpow);
  return w.finish();
}

/**
 * Parse a `headers` message payload: a count (at most 2000), then per entry the header
 * (with AuxPoW when flagged) and a zero tx count. Throws {@link HeaderDecodeError}.
 */
export function parseHeadersMessage(payload: Uint8Array): HeaderEntry[] {
  const r = new ByteReader(payload, 0, headerError);
  const n = r.varint('header count');
  if (n > MAX_HEADERS_PER_MESSAGE) throw new HeaderDecodeError('too-many', `${n} headers in one message (max ${MAX_HEADERS_PER_MESSAGE})`);
  if (n * 81 > r.remaining) throw new HeaderDecodeError('count', `${n} headers cannot fit in ${r.remaining} bytes`);
  const out: HeaderEntry[] = [];
  for (let i = 0; i < n; i++) {
    out.push(readHeaderEntry(r));
    const txCount = r.varint('tx count');
    if (txCount !== 0) throw new HeaderDecodeError('tx-count', `header ${i} is followed by tx count ${txCount}, expected 0`);
  }
  if (r.remaining !== 0) throw new HeaderDecodeError('trailing', `${r.remaining} trailing bytes after the headers`);
  return out;
}

/** Build a `headers` payload from serialised header entries (see {@link serializeHeaderEntry}). */
export function encodeHeadersMessage(entries: readonly Uint8Array[]): Uint8Array {
  if (entries.length > MAX_HEADERS_PER_MESSAGE) throw new RangeError('too many headers for one message');
  const w = new ByteWriter().varint(entries.length);
  for (const e of entries) w.bytes(e).u8(0);
  return w.finish();
}

export interface CheckHeaderOptions {
  /** The header's height, when known: enables the legacy / early-AuxPoW version rules. */
  readonly height?: number;
}

function fail(code: ConstructorParameters<typeof HeaderCheckError>[0], message: string): never {
  throw new HeaderCheckError(code, message);
}

/**
 * Proof of work for one header entry, as Dogecoin Core checks it:
 * - with `height`: no legacy version from the AuxPoW start height, no AuxPoW version before it;
 * - strict chain ID (when the network enforces it) for non-legacy versions;
 * - no AuxPoW data: scrypt of the header itself meets `bits`;
 * - AuxPoW: `CAuxPow::check`, then scrypt of the parent header meets the child's `bits`.
 * Throws {@link HeaderCheckError}. Linkage, difficulty retargeting and chain work are the caller's.
 */
export function checkHeader(entry: HeaderEntry, network: Network, opts: CheckHeaderOptions = {}): void {
  const { header, auxpow } = entry;
  const { version } = header;
  if (opts.height !== undefined) {
    const auxpowEra = opts.height >= network.auxpowStartHeight;
    if (auxpowEra && isLegacyVersion(version)) fail('late-legacy', `legacy block version at height ${opts.height}`);
    if (!auxpowEra && isAuxpowVersion(version))
      fail('early-auxpow', `AuxPoW block at height ${opts.height} before ${network.auxpowStartHeight}`);
  }
  const chainId = chainIdOf(version);
  if (!isLegacyVersion(version) && network.strictChainId && chainId !== network.auxpowChainId)
    fail('chain-id', `block chain ID 0x${chainId.toString(16)} is not 0x${network.auxpowChainId.toString(16)}`);
  if (!auxpow) {
    if (isAuxpowVersion(version)) fail('auxpow-missing', 'AuxPoW version without AuxPoW data');
    if (!hashMeetsTarget(powHash(header.raw), header.bits, network.powLimit)) badPow(header.bits, network);
    return;
  }
  if (!isAuxpowVersion(version)) fail('auxpow-unexpected', 'AuxPoW data on a block without the AuxPoW version bit');
  checkAuxpow(auxpow, headerHash(header.raw), chainId, network.strictChainId);
  if (!hashMeetsTarget(powHash(auxpow.parentHeader.raw), header.bits, network.powLimit)) badPow(header.bits, network);
}

function badPow(bits: number, network: Network): never {
  // Distinguish an unusable target from a hash that merely misses it.
  if (!hashMeetsTarget(new Uint8Array(32), bits, network.powLimit))
    fail('bad-bits', `bits 0x${(bits >>> 0).toString(16)} is not a valid target for ${network.name}`);
  fail('pow', 'proof of work does not meet the target');
}

/** Boolean form of {@link checkHeader}. */
export function isValidHeader(entry: HeaderEntry, network: Network, opts: CheckHeaderOptions = {}): boolean {
  try {
    checkHeader(entry, network, opts);
    return true;
  } catch (e) {
    if (e instanceof HeaderCheckError) return false;
    throw e;
  }
}
