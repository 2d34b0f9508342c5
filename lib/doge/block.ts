/**
 * Full blocks: header entry (with AuxPoW), then the transactions.
 * @module
 */
import { ByteReader, ByteWriter, equalBytes, fromHex, hashToHex, isHex, sha256d, type ReadErrorFactory } from './bytes';
import { HeaderDecodeError } from './errors';
import { readHeaderEntry, serializeHeaderEntry, type HeaderEntry } from './headers';
import { merkleRootMutated } from './merkle';
import { readTx, writeTx, type RawTx } from './tx';

const MIN_TX_BYTES = 60;

export interface BlockTx {
  readonly tx: RawTx;
  /** Display hex. */
  readonly txid: string;
  /** Serialised bytes. */
  readonly raw: Uint8Array;
}

export interface Block {
  readonly entry: HeaderEntry;
  readonly txs: readonly BlockTx[];
}

const headerError: ReadErrorFactory = (code, message) => new HeaderDecodeError(code, message);

/** Parse a serialised block (hex or bytes). Throws {@link HeaderDecodeError}. */
export function parseBlock(input: Uint8Array | string): Block {
  let bytes: Uint8Array;
  if (typeof input === 'string') {
    if (!isHex(input)) throw new HeaderDecodeError('hex', 'block hex is not valid hex');
    bytes = fromHex(input);
  } else bytes = input;
  const r = new ByteReader(bytes, 0, headerError);
  const entry = readHeaderEntry(r);
  const n = r.count(MIN_TX_BYTES, 'transaction count');
  const txs: BlockTx[] = [];
  for (let i = 0; i < n; i++) {
    const start = r.offset;
    const tx = readTx(r);
    const raw = bytes.slice(start, r.offset);
    txs.push({ tx, raw, txid: hashToHex(sha256d(raw)) });
  }
  if (r.remaining !== 0) throw new HeaderDecodeError('trailing', `${r.remaining} trailing bytes after the block`);
  return { entry, txs };
}

export function encodeBlock(entry: HeaderEntry, txs: readonly RawTx[]): Uint8Array {
  const w = new ByteWriter().bytes(serializeHeaderEntry(entry)).varint(txs.length);
  for (const tx of txs) writeTx(w, tx);
  return w.finish();
}

/** The transactions hash to the header's merkle root, with no CVE-2012-2459 duplication. */
export function checkBlockMerkleRoot(block: Block): boolean {
  if (block.txs.length === 0) return false;
  const { root, mutated } = merkleRootMutated(block.txs.map((t) => sha256d(t.raw)));
  return !mutated && equalBytes(root, block.entry.header.raw.subarray(36, 68));
}
