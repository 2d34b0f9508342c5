import { fixturePath } from '../helpers/fixtures';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  HeaderDecodeError,
  MAX_PARTIAL_TREE_TXS,
  buildPartialMerkleTree,
  checkBlockMerkleRoot,
  encodeBlock,
  encodeMerkleBlock,
  encodeTx,
  extractMatches,
  fromHex,
  hashToHex,
  hexToHash,
  makeHeader,
  merkleBranch,
  merkleBranchRoot,
  merkleRoot,
  merkleRootMutated,
  parseBlock,
  parseHeaderEntry,
  parseMerkleBlock,
  parseTx,
  serializeHeaderEntry,
  toHex,
  verifyMerkleBlock,
  ByteWriter,
  type HeaderEntry,
  type PartialMerkleTree,
} from '../../lib/doge';

const fixture = (name: string) => JSON.parse(readFileSync(fixturePath(name), 'utf8'));

const headers = fixture('doge-mainnet-headers.json').entries;
const txs: { hex: string; txid: string }[] = fixture('doge-mainnet-txs.json').transactions;
const block5556718 = headers.find((e: { height: number }) => e.height === 5556718);
const txids5556718: Uint8Array[] = block5556718.txids.map(hexToHash);

function decodeCode(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(HeaderDecodeError);
    return (e as HeaderDecodeError).code;
  }
  throw new Error('expected a HeaderDecodeError');
}

const plainHeader = (merkleRootHex: string) =>
  makeHeader({ version: 1, prevHash: '00'.repeat(32), merkleRoot: merkleRootHex, time: 1, bits: 0x207fffff, nonce: 0 });

describe('merkle root and branches', () => {
  it('block 5556718: five txids hash to the header merkle root', () => {
    expect(txids5556718).toHaveLength(5);
    expect(hashToHex(merkleRoot(txids5556718))).toBe(block5556718.merkle_root);
    // Order matters.
    const swapped = [txids5556718[1]!, txids5556718[0]!, ...txids5556718.slice(2)];
    expect(hashToHex(merkleRoot(swapped))).not.toBe(block5556718.merkle_root);
  });

  it('every leaf has a branch to the root', () => {
    const root = merkleRoot(txids5556718);
    txids5556718.forEach((leaf, i) => {
      const branch = merkleBranch(txids5556718, i);
      expect(branch).toHaveLength(3);
      expect(toHex(merkleBranchRoot(leaf, branch, i))).toBe(toHex(root));
      expect(toHex(merkleBranchRoot(leaf, branch, i ^ 4))).not.toBe(toHex(root));
    });
  });

  it('one leaf is its own root; empty gives zero', () => {
    expect(toHex(merkleRoot([txids5556718[0]!]))).toBe(toHex(txids5556718[0]!));
    expect(merkleBranch([txids5556718[0]!], 0)).toEqual([]);
    expect(toHex(merkleRoot([]))).toBe('00'.repeat(32));
    expect(() => merkleBranch(txids5556718, 5)).toThrow(RangeError);
  });

  it('flags CVE-2012-2459 duplication', () => {
    const [a, b, c] = txids5556718 as [Uint8Array, Uint8Array, Uint8Array];
    const three = merkleRootMutated([a, b, c]);
    const four = merkleRootMutated([a, b, c, c]);
    expect(toHex(three.root)).toBe(toHex(four.root));
    expect(three.mutated).toBe(false);
    expect(four.mutated).toBe(true);
  });
});

describe('partial merkle trees (BIP37)', () => {
  const root = merkleRoot(txids5556718);

  it('every subset of the five txids round-trips', () => {
    for (let mask = 0; mask < 32; mask++) {
      const matched = txids5556718.map((_, i) => ((mask >> i) & 1) === 1);
      const tree = buildPartialMerkleTree(txids5556718, matched);
      const res = extractMatches(tree)!;
      expect(res).not.toBeNull();
      expect(toHex(res.root)).toBe(toHex(root));
      expect(res.matches.map((m) => m.index)).toEqual(matched.flatMap((m, i) => (m ? [i] : [])));
      for (const m of res.matches) expect(toHex(m.txid)).toBe(toHex(txids5556718[m.index]!));
    }
  });

  it('larger trees', () => {
    const leaves = Array.from({ length: 37 }, (_, i) => new Uint8Array(32).fill(i + 1));
    const r = merkleRoot(leaves);
    for (const picks of [[0], [36], [5, 17, 30], leaves.map((_, i) => i)]) {
      const tree = buildPartialMerkleTree(
        leaves,
        leaves.map((_, i) => picks.includes(i)),
      );
      const res = extractMatches(tree)!;
      expect(toHex(res.root)).toBe(toHex(r));
      expect(res.matches.map((m) => m.index)).toEqual(picks);
    }
  });

  it('malformed trees are rejected', () => {
    const tree = buildPartialMerkleTree(txids5556718, [false, true, false, false, true]);
    const bad = (t: Partial<PartialMerkleTree>) => extractMatches({ ...tree, ...t });
    expect(bad({})).not.toBeNull();
    expect(bad({ totalTransactions: 0 })).toBeNull();
    expect(bad({ totalTransactions: MAX_PARTIAL_TREE_TXS + 1 })).toBeNull();
    expect(bad({ hashes: [...tree.hashes, new Uint8Array(32)] })).toBeNull(); // unused hash
    expect(bad({ hashes: tree.hashes.slice(0, -1) })).toBeNull(); // missing hash
    expect(bad({ flags: Uint8Array.of(...tree.flags, 0) })).toBeNull(); // unused flag byte
    expect(bad({ flags: new Uint8Array(0) })).toBeNull();
    expect(bad({ hashes: Array(6).fill(new Uint8Array(32)) })).toBeNull(); // more hashes than txs
    // A different tree size changes the shape: never the same root.
    const other = bad({ totalTransactions: 6 });
    expect(other === null || toHex(other.root) !== toHex(root)).toBe(true);
    // Changing a hash changes the root.
    const h = tree.hashes.map((x) => Uint8Array.from(x));
    h[0]![0]! ^= 1;
    expect(toHex(bad({ hashes: h })!.root)).not.toBe(toHex(root));
  });

  it('identical sibling subtrees are rejected (CVE-2012-2459)', () => {
    const a = txids5556718[0]!;
    expect(extractMatches(buildPartialMerkleTree([a, a], [true, true]))).toBeNull();
    expect(extractMatches(buildPartialMerkleTree([a, txids5556718[1]!], [true, true]))).not.toBeNull();
  });
});

describe('merkleblock messages', () => {
  const header = plainHeader(block5556718.merkle_root);
  const entry: HeaderEntry = { header };

  it('round-trips and verifies against the header', () => {
    const tree = buildPartialMerkleTree(txids5556718, [true, false, false, true, false]);
    const bytes = encodeMerkleBlock({ entry, tree });
    const mb = parseMerkleBlock(bytes);
    expect(mb.entry.header.hash).toBe(header.hash);
    expect(mb.tree.totalTransactions).toBe(5);
    expect(toHex(encodeMerkleBlock(mb))).toBe(toHex(bytes));
    const res = verifyMerkleBlock(mb)!;
    expect(res.matches.map((m) => hashToHex(m.txid))).toEqual([block5556718.txids[0], block5556718.txids[3]]);
    // Another header's merkle root: rejected.
    expect(verifyMerkleBlock({ ...mb, entry: { header: plainHeader('11'.repeat(32)) } })).toBeNull();
  });

  it('carries the AuxPoW of AuxPoW headers', () => {
    const auxEntry = parseHeaderEntry(headers.find((e: { format: string }) => e.format === 'header80+auxpow').hex);
    const tree = buildPartialMerkleTree(txids5556718, [false, false, true, false, false]);
    const bytes = encodeMerkleBlock({ entry: auxEntry, tree });
    const mb = parseMerkleBlock(bytes);
    expect(mb.entry.auxpow).toBeDefined();
    expect(toHex(serializeHeaderEntry(mb.entry))).toBe(toHex(serializeHeaderEntry(auxEntry)));
    expect(verifyMerkleBlock(mb)).toBeNull(); // the tree is not of that block
  });

  it('rejects truncation and trailing bytes', () => {
    const bytes = encodeMerkleBlock({ entry, tree: buildPartialMerkleTree(txids5556718, [true, true, true, true, true]) });
    for (let k = 0; k < bytes.length; k++)
      expect(['truncated', 'count']).toContain(decodeCode(() => parseMerkleBlock(bytes.subarray(0, k))));
    expect(decodeCode(() => parseMerkleBlock(Uint8Array.of(...bytes, 0)))).toBe('trailing');
  });
});

describe('blocks', () => {
  const rawTxs = txs.map((t) => parseTx(t.hex));
  const leaves = txs.map((t) => hexToHash(t.txid));
  const header = plainHeader(hashToHex(merkleRoot(leaves)));

  it('encode / parse / merkle check', () => {
    const bytes = encodeBlock({ header }, rawTxs);
    const b = parseBlock(bytes);
    expect(b.txs.map((t) => t.txid)).toEqual(txs.map((t) => t.txid));
    expect(b.txs.map((t) => toHex(t.raw))).toEqual(txs.map((t) => t.hex));
    expect(checkBlockMerkleRoot(b)).toBe(true);
    expect(parseBlock(toHex(bytes)).entry.header.hash).toBe(header.hash);
    // Drop a tx: the root no longer matches.
    expect(checkBlockMerkleRoot({ ...b, txs: b.txs.slice(1) })).toBe(false);
    // Duplicate the last tx of an odd list: same root, but mutated.
    const odd = b.txs.slice(0, 3);
    const oddBlock = parseBlock(
      encodeBlock(
        { header: plainHeader(hashToHex(merkleRoot(odd.map((t) => hexToHash(t.txid))))) },
        odd.map((t) => t.tx),
      ),
    );
    expect(checkBlockMerkleRoot(oddBlock)).toBe(true);
    expect(checkBlockMerkleRoot({ ...oddBlock, txs: [...oddBlock.txs, oddBlock.txs[2]!] })).toBe(false);
  });

  it('AuxPoW blocks carry the proof between header and transactions', () => {
    const auxHex = headers.find((e: { format: string }) => e.format === 'header80+auxpow').hex;
    const auxEntry = parseHeaderEntry(auxHex);
    const bytes = encodeBlock(auxEntry, rawTxs.slice(0, 2));
    expect(toHex(bytes).startsWith(auxHex + '02')).toBe(true);
    const b = parseBlock(bytes);
    expect(b.entry.auxpow).toBeDefined();
    expect(b.txs).toHaveLength(2);
  });

  it('rejects trailing bytes, impossible counts and witness transactions', () => {
    const bytes = encodeBlock({ header }, rawTxs.slice(0, 1));
    expect(decodeCode(() => parseBlock(Uint8Array.of(...bytes, 0)))).toBe('trailing');
    const huge = new ByteWriter().bytes(header.raw).varint(100000).bytes(new Uint8Array(100)).finish();
    expect(decodeCode(() => parseBlock(huge))).toBe('count');
    const legacy = encodeTx(rawTxs[0]!);
    const witnessTx = Uint8Array.of(...legacy.subarray(0, 4), 0, 1, ...legacy.subarray(4, -4), 1, 1, 0xaa, ...legacy.subarray(-4));
    const wb = new ByteWriter().bytes(header.raw).varint(1).bytes(witnessTx).finish();
    expect(decodeCode(() => parseBlock(wb))).toBe('witness');
    expect(decodeCode(() => parseBlock('xyz'))).toBe('hex');
    expect(fromHex(toHex(bytes))).toEqual(bytes);
  });
});
