/**
 * The 80-byte block header and Dogecoin's version-field conventions.
 * @module
 */
import { ByteReader, ByteWriter, hashToHex, hexToHash, sha256d, type ReadErrorFactory } from './bytes';
import { HeaderDecodeError } from './errors';

export const HEADER_SIZE = 80;
/** Version bit that says AuxPoW data follows the header. */
export const VERSION_AUXPOW = 0x100;

export interface BlockHeader {
  /** int32 as in Core (chain ID in the high 16 bits, AuxPoW flag 0x100). */
  readonly version: number;
  /** Display hex. */
  readonly prevHash: string;
  /** Display hex. */
  readonly merkleRoot: string;
  readonly time: number;
  readonly bits: number;
  readonly nonce: number;
  /** Block hash, display hex (reversed sha256d of the 80 bytes). */
  readonly hash: string;
  /** The 80 serialised bytes. */
  readonly raw: Uint8Array;
}

export type HeaderFields = Omit<BlockHeader, 'hash' | 'raw'>;

const headerError: ReadErrorFactory = (code, message) => new HeaderDecodeError(code, message);

/** Read 80 header bytes at the reader's cursor. */
export function readHeader(r: ByteReader): BlockHeader {
  const start = r.offset;
  const version = r.i32le('header version');
  const prev = r.bytesN(32, 'prev hash');
  const merkle = r.bytesN(32, 'merkle root');
  const time = r.u32le('time');
  const bits = r.u32le('bits');
  const nonce = r.u32le('nonce');
  const raw = r.bytes.slice(start, start + HEADER_SIZE);
  return {
    version,
    prevHash: hashToHex(prev),
    merkleRoot: hashToHex(merkle),
    time,
    bits,
    nonce,
    hash: hashToHex(sha256d(raw)),
    raw,
  };
}

/** Parse exactly 80 bytes. Throws {@link HeaderDecodeError}. */
export function parseHeader(bytes: Uint8Array): BlockHeader {
  if (bytes.length !== HEADER_SIZE)
    throw new HeaderDecodeError(bytes.length < HEADER_SIZE ? 'truncated' : 'trailing', `a header is 80 bytes, got ${bytes.length}`);
  return readHeader(new ByteReader(bytes, 0, headerError));
}

export function serializeHeader(h: HeaderFields): Uint8Array {
  return new ByteWriter()
    .i32le(h.version)
    .bytes(hexToHash(h.prevHash))
    .bytes(hexToHash(h.merkleRoot))
    .u32le(h.time)
    .u32le(h.bits)
    .u32le(h.nonce)
    .finish();
}

/** Build a full {@link BlockHeader} (hash and raw bytes) from its fields. */
export function makeHeader(h: HeaderFields): BlockHeader {
  return parseHeader(serializeHeader(h));
}

/** Block hash in internal byte order. */
export function headerHash(raw80: Uint8Array): Uint8Array {
  return sha256d(raw80);
}

/** Chain ID: `version >> 16` (arithmetic, as Core's int32). */
export function chainIdOf(version: number): number {
  return (version | 0) >> 16;
}

export function isAuxpowVersion(version: number): boolean {
  return (version & VERSION_AUXPOW) !== 0;
}

/** Legacy (pre-merge-mining) version: 1, or 2 without a chain ID. */
export function isLegacyVersion(version: number): boolean {
  return version === 1 || (version === 2 && chainIdOf(version) === 0);
}
