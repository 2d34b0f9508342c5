/**
 * Merged-mining proofs (CAuxPow): parsing, serialisation and Dogecoin Core's `CAuxPow::check`.
 * @module
 */
import { ByteReader, ByteWriter, equalBytes, reverse, type ReadErrorFactory } from './bytes';
import { HeaderCheckError, HeaderDecodeError } from './errors';
import { chainIdOf, readHeader, type BlockHeader } from './header';
import { merkleBranchRoot } from './merkle';
import { readTx, txHash, writeTx, type RawTx } from './tx';

/** The merged-mining marker that precedes the chain merkle root in the parent coinbase. */
export const MERGED_MINING_HEADER: Uint8Array = Uint8Array.of(0xfa, 0xbe, 0x6d, 0x6d);
export const MAX_CHAIN_BRANCH_LENGTH = 30;

export interface AuxPow {
  /** The parent chain's coinbase transaction. */
  readonly coinbaseTx: RawTx;
  /** Its txid, internal byte order. */
  readonly coinbaseTxid: Uint8Array;
  /** The CMerkleTx `hashBlock` field (not checked by consensus). Internal byte order. */
  readonly parentBlockHash: Uint8Array;
  /** Coinbase -> parent merkle root. */
  readonly coinbaseBranch: readonly Uint8Array[];
  readonly coinbaseIndex: number;
  /** Our block hash -> chain merkle root. */
  readonly chainBranch: readonly Uint8Array[];
  readonly chainIndex: number;
  readonly parentHeader: BlockHeader;
}

const headerError: ReadErrorFactory = (code, message) => new HeaderDecodeError(code, message);

function readBranch(r: ByteReader, what: string): { branch: Uint8Array[]; index: number } {
  const n = r.count(32, `${what} length`);
  const branch: Uint8Array[] = [];
  for (let i = 0; i < n; i++) branch.push(r.bytesN(32, `${what} hash`));
  const index = r.i32le(`${what} index`);
  return { branch, index };
}

/** Read a CAuxPow at the reader's cursor. */
export function readAuxpow(r: ByteReader): AuxPow {
  const coinbaseTx = readTx(r, { allowWitness: true });
  const parentBlockHash = r.bytesN(32, 'auxpow parent block hash');
  const cb = readBranch(r, 'coinbase branch');
  const ch = readBranch(r, 'chain branch');
  const parentHeader = readHeader(r);
  return {
    coinbaseTx,
    coinbaseTxid: txHash(coinbaseTx),
    parentBlockHash,
    coinbaseBranch: cb.branch,
    coinbaseIndex: cb.index,
    chainBranch: ch.branch,
    chainIndex: ch.index,
    parentHeader,
  };
}

/** Parse a CAuxPow at `offset`. Throws {@link HeaderDecodeError}. */
export function parseAuxpow(bytes: Uint8Array, offset = 0): { auxpow: AuxPow; bytesRead: number } {
  const r = new ByteReader(bytes, offset, headerError);
  const auxpow = readAuxpow(r);
  return { auxpow, bytesRead: r.offset - offset };
}

export function writeAuxpow(w: ByteWriter, a: AuxPow): void {
  writeTx(w, a.coinbaseTx);
  w.bytes(a.parentBlockHash);
  w.varint(a.coinbaseBranch.length);
  for (const h of a.coinbaseBranch) w.bytes(h);
  w.i32le(a.coinbaseIndex);
  w.varint(a.chainBranch.length);
  for (const h of a.chainBranch) w.bytes(h);
  w.i32le(a.chainIndex);
  w.bytes(a.parentHeader.raw);
}

export function serializeAuxpow(a: AuxPow): Uint8Array {
  const w = new ByteWriter();
  writeAuxpow(w, a);
  return w.finish();
}

/**
 * CAuxPow::getExpectedIndex: the slot a chain must occupy in the chain merkle tree of height
 * `h`, fixed by the coinbase nonce and the chain ID (32-bit LCG arithmetic, as in Core).
 */
export function getExpectedIndex(nonce: number, chainId: number, h: number): number {
  let rand = nonce >>> 0;
  rand = (Math.imul(rand, 1103515245) + 12345) >>> 0;
  rand = (rand + chainId) >>> 0;
  rand = (Math.imul(rand, 1103515245) + 12345) >>> 0;
  return rand % 2 ** h;
}

function indexOf(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  outer: for (let i = from; i + needle.length <= hay.length; i++) {
    for (let k = 0; k < needle.length; k++) if (hay[i + k] !== needle[k]) continue outer;
    return i;
  }
  return -1;
}

/** Chain merkle root as it must appear in the parent coinbase (display order bytes). */
export function chainMerkleRoot(childHash: Uint8Array, chainBranch: readonly Uint8Array[], chainIndex: number): Uint8Array {
  return reverse(merkleBranchRoot(childHash, chainBranch, chainIndex));
}

/**
 * CAuxPow::check. `childHash` is our block's hash in internal byte order, `chainId` our block's
 * chain ID (`version >> 16`). Proof of work on the parent header is checked separately
 * (see `checkHeader`). Throws {@link HeaderCheckError}.
 */
export function checkAuxpow(aux: AuxPow, childHash: Uint8Array, chainId: number, strictChainId: boolean): void {
  const fail = (code: ConstructorParameters<typeof HeaderCheckError>[0], msg: string): never => {
    throw new HeaderCheckError(code, msg);
  };
  if (aux.coinbaseIndex !== 0) fail('not-generate', 'AuxPoW coinbase index is not 0');
  if (strictChainId && chainIdOf(aux.parentHeader.version) === chainId) fail('parent-chain-id', 'AuxPoW parent block has our chain ID');
  if (aux.chainBranch.length > MAX_CHAIN_BRANCH_LENGTH) fail('chain-branch-too-long', 'AuxPoW chain merkle branch too long');

  const root = chainMerkleRoot(childHash, aux.chainBranch, aux.chainIndex);
  const parentMerkle = merkleBranchRoot(aux.coinbaseTxid, aux.coinbaseBranch, aux.coinbaseIndex);
  if (!equalBytes(parentMerkle, aux.parentHeader.raw.subarray(36, 68)))
    fail('coinbase-merkle', 'AuxPoW coinbase is not in the parent block merkle tree');

  const script = aux.coinbaseTx.inputs[0]!.scriptSig;
  const head = indexOf(script, MERGED_MINING_HEADER);
  let pc = indexOf(script, root);
  if (pc < 0) fail('no-chain-root', 'AuxPoW chain merkle root not in the parent coinbase');
  if (head >= 0) {
    if (indexOf(script, MERGED_MINING_HEADER, head + 1) >= 0)
      fail('multiple-headers', 'multiple merged-mining headers in the parent coinbase');
    if (head + MERGED_MINING_HEADER.length !== pc)
      fail('header-not-before-root', 'merged-mining header is not just before the chain merkle root');
  } else if (pc > 20) {
    fail('root-too-late', 'AuxPoW chain merkle root must start in the first 20 bytes of the parent coinbase');
  }

  pc += root.length;
  if (script.length - pc < 8) fail('no-size-nonce', 'AuxPoW missing chain merkle tree size and nonce');
  const view = new DataView(script.buffer, script.byteOffset + pc, 8);
  const size = view.getUint32(0, true);
  const h = aux.chainBranch.length;
  if (size !== 2 ** h) fail('merkle-size', 'AuxPoW merkle branch size does not match the parent coinbase');
  const nonce = view.getUint32(4, true);
  if (aux.chainIndex !== getExpectedIndex(nonce, chainId, h)) fail('chain-index', 'AuxPoW wrong chain index');
}
