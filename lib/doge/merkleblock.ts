/**
 * BIP37 `merkleblock`: partial merkle trees (CPartialMerkleTree) and the message itself.
 * On Dogecoin the message's header carries its AuxPoW like any serialised header.
 * @module
 */
import { ByteReader, ByteWriter, concatBytes, equalBytes, sha256d, type ReadErrorFactory } from './bytes';
import { HeaderDecodeError } from './errors';
import { readHeaderEntry, serializeHeaderEntry, type HeaderEntry } from './headers';

/** Core's sanity cap on a partial tree's transaction count (MAX_BLOCK_WEIGHT / MIN_TRANSACTION_WEIGHT). */
export const MAX_PARTIAL_TREE_TXS = Math.floor(4_000_000 / 240);

export interface PartialMerkleTree {
  readonly totalTransactions: number;
  /** Hashes in depth-first order, internal byte order. */
  readonly hashes: readonly Uint8Array[];
  /** Flag bits, least significant bit first within each byte. */
  readonly flags: Uint8Array;
}

export interface PartialMerkleMatches {
  /** Merkle root the tree commits to (internal byte order). */
  readonly root: Uint8Array;
  /** Matched txids (internal byte order) with their positions in the block. */
  readonly matches: readonly { readonly txid: Uint8Array; readonly index: number }[];
}

function width(n: number, height: number): number {
  return Math.floor((n + 2 ** height - 1) / 2 ** height);
}

function treeHeight(n: number): number {
  let h = 0;
  while (width(n, h) > 1) h++;
  return h;
}

/**
 * CPartialMerkleTree::ExtractMatches. Returns `null` for any malformed tree (bad counts,
 * unused bits or hashes, duplicate siblings). Compare `root` with the header's merkle root.
 */
export function extractMatches(tree: PartialMerkleTree): PartialMerkleMatches | null {
  const n = tree.totalTransactions;
  const bitCount = tree.flags.length * 8;
  if (n === 0 || n > MAX_PARTIAL_TREE_TXS) return null;
  if (tree.hashes.length > n || bitCount < tree.hashes.length) return null;
  let bitsUsed = 0;
  let hashesUsed = 0;
  let bad = false;
  const matches: { txid: Uint8Array; index: number }[] = [];
  const bit = (i: number) => (tree.flags[i >> 3]! >> (i & 7)) & 1;

  const walk = (height: number, pos: number): Uint8Array => {
    if (bad) return new Uint8Array(32);
    if (bitsUsed >= bitCount) {
      bad = true;
      return new Uint8Array(32);
    }
    const parentOfMatch = bit(bitsUsed++) === 1;
    if (height === 0 || !parentOfMatch) {
      if (hashesUsed >= tree.hashes.length) {
        bad = true;
        return new Uint8Array(32);
      }
      const h = tree.hashes[hashesUsed++]!;
      if (height === 0 && parentOfMatch) matches.push({ txid: h, index: pos });
      return h;
    }
    const left = walk(height - 1, pos * 2);
    let right = left;
    if (pos * 2 + 1 < width(n, height - 1)) {
      right = walk(height - 1, pos * 2 + 1);
      if (equalBytes(left, right)) bad = true;
    }
    return sha256d(concatBytes(left, right));
  };

  const root = walk(treeHeight(n), 0);
  if (bad) return null;
  if (Math.ceil(bitsUsed / 8) !== tree.flags.length) return null;
  if (hashesUsed !== tree.hashes.length) return null;
  return { root, matches };
}

/** CPartialMerkleTree(vTxid, vMatch): the tree proving `matched` positions of `txids`. */
export function buildPartialMerkleTree(txids: readonly Uint8Array[], matched: readonly boolean[]): PartialMerkleTree {
  const n = txids.length;
  if (n === 0 || matched.length !== n) throw new RangeError('need one match flag per txid');
  const bits: boolean[] = [];
  const hashes: Uint8Array[] = [];
  const calcHash = (height: number, pos: number): Uint8Array => {
    if (height === 0) return txids[pos]!;
    const left = calcHash(height - 1, pos * 2);
    const right = pos * 2 + 1 < width(n, height - 1) ? calcHash(height - 1, pos * 2 + 1) : left;
    return sha256d(concatBytes(left, right));
  };
  const build = (height: number, pos: number): void => {
    let parentOfMatch = false;
    for (let p = pos << height; p < Math.min((pos + 1) << height, n); p++) parentOfMatch ||= matched[p]!;
    bits.push(parentOfMatch);
    if (height === 0 || !parentOfMatch) hashes.push(calcHash(height, pos));
    else {
      build(height - 1, pos * 2);
      if (pos * 2 + 1 < width(n, height - 1)) build(height - 1, pos * 2 + 1);
    }
  };
  build(treeHeight(n), 0);
  const flags = new Uint8Array(Math.ceil(bits.length / 8));
  bits.forEach((b, i) => {
    if (b) flags[i >> 3]! |= 1 << (i & 7);
  });
  return { totalTransactions: n, hashes, flags };
}

export interface MerkleBlock {
  readonly entry: HeaderEntry;
  readonly tree: PartialMerkleTree;
}

const headerError: ReadErrorFactory = (code, message) => new HeaderDecodeError(code, message);

/** Parse a `merkleblock` payload. Throws {@link HeaderDecodeError}. */
export function parseMerkleBlock(payload: Uint8Array): MerkleBlock {
  const r = new ByteReader(payload, 0, headerError);
  const entry = readHeaderEntry(r);
  const totalTransactions = r.u32le('transaction count');
  const count = r.count(32, 'hash count');
  const hashes: Uint8Array[] = [];
  for (let i = 0; i < count; i++) hashes.push(r.bytesN(32, 'hash'));
  const flags = r.varBytes('flags');
  if (r.remaining !== 0) throw new HeaderDecodeError('trailing', `${r.remaining} trailing bytes after the merkleblock`);
  return { entry, tree: { totalTransactions, hashes, flags } };
}

export function encodeMerkleBlock(block: MerkleBlock): Uint8Array {
  const w = new ByteWriter().bytes(serializeHeaderEntry(block.entry)).u32le(block.tree.totalTransactions);
  w.varint(block.tree.hashes.length);
  for (const h of block.tree.hashes) w.bytes(h);
  return w.varBytes(block.tree.flags).finish();
}

/**
 * Matched txids of a merkleblock whose tree is well formed and commits to its header's merkle
 * root; `null` otherwise.
 */
export function verifyMerkleBlock(block: MerkleBlock): PartialMerkleMatches | null {
  const res = extractMatches(block.tree);
  if (!res) return null;
  return equalBytes(res.root, block.entry.header.raw.subarray(36, 68)) ? res : null;
}
