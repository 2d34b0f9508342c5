// Independent readers for the libdogecoin headers and wallet files (docs/protocol.md#libdogecoins-files), written
// for the tests from the format description, not from lib/node-api's encoders.
import { createHash } from 'node:crypto';

const MAGIC = 'a8f011c5';
const REC_MAGIC = 'c8f2691e';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const sha256d = (b: Uint8Array) => createHash('sha256').update(createHash('sha256').update(b).digest()).digest();
/** Internal byte order -> display hex. */
const display = (b: Uint8Array) => hex(Uint8Array.from(b).reverse());

export interface HeadersFileRecord {
  hash: string; // display hex, as stored (internal order) reversed
  height: number;
  chainwork: bigint; // little-endian 256-bit
  header: Uint8Array;
  /** display hex of sha256d(header) */
  computedHash: string;
  prevHash: string;
}

export function readHeadersFile(buf: Uint8Array): { magic: string; version: number; records: HeadersFileRecord[] } {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (buf.length < 8) throw new Error('headers file shorter than its header');
  const magic = hex(buf.subarray(0, 4));
  const version = dv.getUint32(4, true);
  if ((buf.length - 8) % 148 !== 0) throw new Error(`headers file body is ${buf.length - 8} bytes, not a multiple of 148`);
  const records: HeadersFileRecord[] = [];
  for (let off = 8; off < buf.length; off += 148) {
    const header = buf.slice(off + 68, off + 148);
    let work = 0n;
    for (let i = 31; i >= 0; i--) work = (work << 8n) | BigInt(buf[off + 36 + i]);
    records.push({
      hash: display(buf.subarray(off, off + 32)),
      height: dv.getUint32(off + 32, true),
      chainwork: work,
      header,
      computedHash: display(sha256d(header)),
      prevHash: display(header.subarray(4, 36)),
    });
  }
  return { magic, version, records };
}

function varint(buf: Uint8Array, pos: { p: number }): number {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const first = buf[pos.p++];
  if (first < 0xfd) return first;
  if (first === 0xfd) {
    const v = dv.getUint16(pos.p, true);
    pos.p += 2;
    return v;
  }
  if (first === 0xfe) {
    const v = dv.getUint32(pos.p, true);
    pos.p += 4;
    return v;
  }
  throw new Error('8-byte varint not expected in a wallet file');
}

export interface WalletFile {
  magic: string;
  version: number;
  genesis: string; // display hex
  masterPubkeys: string[][]; // each record's strings
  addresses: { hash160: string; type: number; childIndex: number; ignore: number }[];
  txs: { height: number; txid: string; raw: Uint8Array; computedTxid: string }[];
}

export function readWalletFile(buf: Uint8Array): WalletFile {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const out: WalletFile = {
    magic: hex(buf.subarray(0, 4)),
    version: dv.getUint32(4, true),
    genesis: display(buf.subarray(8, 40)),
    masterPubkeys: [],
    addresses: [],
    txs: [],
  };
  const pos = { p: 40 };
  while (pos.p < buf.length) {
    const m = hex(buf.subarray(pos.p, pos.p + 4));
    if (m !== REC_MAGIC) throw new Error(`bad record magic ${m} at ${pos.p}`);
    pos.p += 4;
    const len = varint(buf, pos);
    const type = buf[pos.p++];
    const payload = buf.subarray(pos.p, pos.p + len);
    if (payload.length !== len) throw new Error('truncated record');
    pos.p += len;
    if (type === 0) {
      const q = { p: 0 };
      const strs: string[] = [];
      while (q.p < payload.length) {
        const n = varint(payload, q);
        strs.push(Buffer.from(payload.subarray(q.p, q.p + n)).toString('utf8'));
        q.p += n;
      }
      out.masterPubkeys.push(strs);
    } else if (type === 1) {
      if (len !== 26) throw new Error(`address record of ${len} bytes`);
      const pv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
      out.addresses.push({
        hash160: hex(payload.subarray(0, 20)),
        type: payload[20],
        childIndex: pv.getUint32(21, true),
        ignore: payload[25],
      });
    } else if (type === 2) {
      const pv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
      const raw = payload.slice(36);
      out.txs.push({ height: pv.getUint32(0, true), txid: display(payload.subarray(4, 36)), raw, computedTxid: display(sha256d(raw)) });
    } else {
      throw new Error(`unknown record type ${type}`);
    }
  }
  return out;
}

export const FILE_MAGIC_HEX = MAGIC;
