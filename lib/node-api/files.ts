// libdogecoin file formats (docs/protocol.md#libdogecoins-files): the headers file (`src/headersdb_file.c`,
// version 3 with chainwork) and the wallet file (`src/wallet.c`, version 1). Pure encoders;
// the headers file is produced record by record so it can be streamed.
import { ByteWriter, fromHex, hexToHash } from '../doge';

export const FILE_MAGIC = Uint8Array.of(0xa8, 0xf0, 0x11, 0xc5);
export const RECORD_MAGIC = Uint8Array.of(0xc8, 0xf2, 0x69, 0x1e);
export const HEADERS_FILE_VERSION = 3;
export const WALLET_FILE_VERSION = 1;
export const HEADER_RECORD_SIZE = 148;

export const WALLET_REC_MASTERPUBKEY = 0;
export const WALLET_REC_ADDR = 1;
export const WALLET_REC_TX = 2;

/** Magic and u32 LE version 3: the first 8 bytes of the headers file. */
export function headersFileHeader(): Uint8Array {
  return new ByteWriter().bytes(FILE_MAGIC).u32le(HEADERS_FILE_VERSION).finish();
}

/** A chainwork value as 32 bytes, little-endian (libdogecoin's arith_uint256 in memory). */
export function chainworkBytes(work: bigint): Uint8Array {
  if (work < 0n || work >= 1n << 256n) throw new RangeError('chainwork out of range');
  const out = new Uint8Array(32);
  let v = work;
  for (let i = 0; i < 32; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

export interface HeaderRow {
  hash: string; // display-order hex
  height: number;
  chainwork: bigint;
  header: Uint8Array; // 80 bytes
}

/** One 148-byte record: hash (internal byte order), height (u32 LE), chainwork (32), header (80). */
export function writeHeaderRecord(out: Uint8Array, offset: number, row: HeaderRow): void {
  if (row.header.length !== 80) throw new RangeError(`header of block ${row.hash} is ${row.header.length} bytes, expected 80`);
  out.set(hexToHash(row.hash), offset);
  new DataView(out.buffer, out.byteOffset).setUint32(offset + 32, row.height >>> 0, true);
  out.set(chainworkBytes(row.chainwork), offset + 36);
  out.set(row.header, offset + 68);
}

/** Records for many rows in one buffer (one page of the stream). */
export function headerRecords(rows: readonly HeaderRow[]): Uint8Array {
  const out = new Uint8Array(rows.length * HEADER_RECORD_SIZE);
  rows.forEach((r, i) => writeHeaderRecord(out, i * HEADER_RECORD_SIZE, r));
  return out;
}

export interface WalletFileAddress {
  hash160: string; // hex
  /** libdogecoin's address type byte: 0 for the P2PKH addresses the wallet watches. */
  type: number;
  childIndex: number;
  ignore: boolean;
}

export interface WalletFileTx {
  txid: string; // display-order hex
  height: number; // 0 while unconfirmed, as libdogecoin
  raw: Uint8Array; // serialized tx
}

export interface WalletFileInput {
  genesisHash: string; // display-order hex
  /** The account's extended public key (dgub/tpub), or null for a single-address wallet. */
  xpub: string | null;
  addresses: readonly WalletFileAddress[];
  txs: readonly WalletFileTx[];
}

function record(w: ByteWriter, type: number, payload: Uint8Array): void {
  // Record magic, varint payload length (the type byte not included), type, payload.
  w.bytes(RECORD_MAGIC).varint(payload.length).u8(type).bytes(payload);
}

/** The whole wallet file: header (magic, version 1, genesis) and its records. */
export function encodeWalletFile(input: WalletFileInput): Uint8Array {
  const w = new ByteWriter().bytes(FILE_MAGIC).u32le(WALLET_FILE_VERSION).bytes(hexToHash(input.genesisHash));
  if (input.xpub) {
    const s = new TextEncoder().encode(input.xpub);
    record(w, WALLET_REC_MASTERPUBKEY, new ByteWriter().varBytes(s).varBytes(s).finish());
  }
  for (const a of input.addresses) {
    const h = fromHex(a.hash160);
    if (h.length !== 20) throw new RangeError('hash160 must be 20 bytes');
    record(
      w,
      WALLET_REC_ADDR,
      new ByteWriter()
        .bytes(h)
        .u8(a.type)
        .u32le(a.childIndex)
        .u8(a.ignore ? 1 : 0)
        .finish(),
    );
  }
  for (const t of input.txs) {
    record(w, WALLET_REC_TX, new ByteWriter().u32le(t.height).bytes(hexToHash(t.txid)).bytes(t.raw).finish());
  }
  return w.finish();
}
