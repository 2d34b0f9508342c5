// AuxPoW (merge-mined) proofs: each rule checkAuxpow enforces, failed one at a time on a mainnet
// proof, and synthetic regtest proofs built as a devnet would merge-mine.
import { describe, expect, it } from 'vitest';
import {
  MAINNET,
  ByteWriter,
  chainMerkleRoot,
  checkAuxpow,
  checkHeader,
  encodeHeadersMessage,
  fromHex,
  getExpectedIndex,
  hashToHex,
  headerHash,
  makeHeader,
  parseAuxpow,
  parseHeaderEntry,
  parseHeadersMessage,
  powHash,
  hashMeetsTarget,
  merkleBranchRoot,
  REGTEST,
  encodeTx,
  p2pkhScript,
  serializeAuxpow,
  serializeHeaderEntry,
  toHex,
  type AuxPow,
} from '../../lib/doge';
import { full, checkCode } from '../helpers/doge-header-fixtures';

describe('targeted AuxPoW rule failures', () => {
  const e = full.find((x) => x.auxpow_data!.chain_branch.length > 0 && x.auxpow_data!.coinbase_branch.length > 0)!;
  const entry = parseHeaderEntry(e.hex);
  const aux = entry.auxpow!;
  const child = headerHash(entry.header.raw);

  /** Same proof with a new coinbase scriptSig, parent merkle root recomputed to stay consistent. */
  function withScript(script: Uint8Array): AuxPow {
    const tx = { ...aux.coinbaseTx, inputs: [{ ...aux.coinbaseTx.inputs[0]!, scriptSig: script }] };
    const reparsed = parseAuxpow(serializeAuxpow({ ...aux, coinbaseTx: tx })).auxpow;
    const root = merkleBranchRoot(reparsed.coinbaseTxid, reparsed.coinbaseBranch, 0);
    const parentHeader = makeHeader({ ...aux.parentHeader, merkleRoot: hashToHex(root) });
    return { ...reparsed, parentHeader };
  }

  const script = aux.coinbaseTx.inputs[0]!.scriptSig;
  const rootBytes = chainMerkleRoot(child, aux.chainBranch, aux.chainIndex);
  const at = toHex(script).indexOf(toHex(rootBytes)) / 2;

  it('the unmodified proof passes, and withScript keeps it valid', () => {
    expect(at).toBeGreaterThan(4);
    checkAuxpow(aux, child, 0x62, true);
    checkAuxpow(withScript(script), child, 0x62, true);
  });

  it('not-generate', () => {
    expect(checkCode(() => checkAuxpow({ ...aux, coinbaseIndex: 1 }, child, 0x62, true))).toBe('not-generate');
  });

  it('parent-chain-id (strict only)', () => {
    const parentHeader = makeHeader({ ...aux.parentHeader, version: 0x00620002 });
    expect(checkCode(() => checkAuxpow({ ...aux, parentHeader }, child, 0x62, true))).toBe('parent-chain-id');
    // Not strict: moves on to the merkle checks (the parent header changed but not its merkle root).
    checkAuxpow({ ...aux, parentHeader }, child, 0x62, false);
  });

  it('chain-branch-too-long', () => {
    const chainBranch = Array(31).fill(new Uint8Array(32));
    expect(checkCode(() => checkAuxpow({ ...aux, chainBranch }, child, 0x62, true))).toBe('chain-branch-too-long');
  });

  it('coinbase-merkle', () => {
    const coinbaseBranch = aux.coinbaseBranch.map((h, i) => (i === 0 ? Uint8Array.from(h).fill(7) : h));
    expect(checkCode(() => checkAuxpow({ ...aux, coinbaseBranch }, child, 0x62, true))).toBe('coinbase-merkle');
  });

  it('no-chain-root', () => {
    const other = Uint8Array.from(child);
    other[31]! ^= 1;
    expect(checkCode(() => checkAuxpow(aux, other, 0x62, true))).toBe('no-chain-root');
  });

  it('multiple-headers', () => {
    const s = Uint8Array.of(...script, 0xfa, 0xbe, 0x6d, 0x6d);
    expect(checkCode(() => checkAuxpow(withScript(s), child, 0x62, true))).toBe('multiple-headers');
  });

  it('header-not-before-root', () => {
    const s = Uint8Array.from(script);
    s[at - 1] = 0x00; // break the marker right before the root, add one earlier
    const moved = Uint8Array.of(0xfa, 0xbe, 0x6d, 0x6d, 0x00, ...s);
    expect(checkCode(() => checkAuxpow(withScript(moved), child, 0x62, true))).toBe('header-not-before-root');
  });

  it('root-too-late without a marker; accepted within the first 20 bytes', () => {
    const tail = script.subarray(at); // root, size, nonce, rest
    const late = Uint8Array.of(...new Uint8Array(21).fill(0x51), ...tail);
    expect(checkCode(() => checkAuxpow(withScript(late), child, 0x62, true))).toBe('root-too-late');
    const early = Uint8Array.of(...new Uint8Array(20).fill(0x51), ...tail);
    checkAuxpow(withScript(early), child, 0x62, true);
  });

  it('no-size-nonce', () => {
    const s = script.subarray(0, at + 32 + 7);
    expect(checkCode(() => checkAuxpow(withScript(s), child, 0x62, true))).toBe('no-size-nonce');
  });

  it('merkle-size', () => {
    const s = Uint8Array.from(script);
    s[at + 32] ^= 0x01;
    expect(checkCode(() => checkAuxpow(withScript(s), child, 0x62, true))).toBe('merkle-size');
  });

  it('chain-index (nonce)', () => {
    const s = Uint8Array.from(script);
    s[at + 36] ^= 0x01;
    expect(checkCode(() => checkAuxpow(withScript(s), child, 0x62, true))).toBe('chain-index');
  });

  it('getExpectedIndex matches the fixture slots', () => {
    for (const f of full) {
      const a = parseHeaderEntry(f.hex).auxpow!;
      const sc = a.coinbaseTx.inputs[0]!.scriptSig;
      const r = chainMerkleRoot(headerHash(fromHex(f.hex).subarray(0, 80)), a.chainBranch, a.chainIndex);
      const p = toHex(sc).indexOf(toHex(r)) / 2 + 32;
      const nonce = new DataView(sc.buffer, sc.byteOffset + p + 4, 4).getUint32(0, true);
      expect(getExpectedIndex(nonce, 0x62, a.chainBranch.length)).toBe(f.auxpow_data!.chain_index);
    }
    expect(getExpectedIndex(0, 0x62, 0)).toBe(0);
    // 32-bit wrap-around arithmetic: ((0*1103515245+12345+98)*1103515245+12345) mod 2^32 mod 2^30
    expect(getExpectedIndex(0, 98, 30)).toBe(Number(((12443n * 1103515245n + 12345n) % 2n ** 32n) % 2n ** 30n));
  });
});

describe('synthetic regtest AuxPoW (how a devnet would merge-mine)', () => {
  const fill = (n: number) => new Uint8Array(32).fill(n);
  const u32 = (n: number) => new ByteWriter().u32le(n).finish();

  /** Child header committed in a parent coinbase; parent mined to `mineBits`. */
  function build(opts: { childBits: number; mineBits: number; h: number; nonce: number; chainId?: number; parentVersion?: number }) {
    const chainId = opts.chainId ?? 0x62;
    const header = makeHeader({
      version: (chainId << 16) | 0x100 | 4,
      prevHash: hashToHex(fill(1)),
      merkleRoot: hashToHex(fill(2)),
      time: 1_700_000_000,
      bits: opts.childBits,
      nonce: 0,
    });
    const chainBranch = Array.from({ length: opts.h }, (_, i) => fill(10 + i));
    const chainIndex = getExpectedIndex(opts.nonce, chainId, opts.h);
    const root = chainMerkleRoot(headerHash(header.raw), chainBranch, chainIndex);
    const scriptSig = Uint8Array.of(0x03, 0x01, 0x02, 0x03, 0xfa, 0xbe, 0x6d, 0x6d, ...root, ...u32(2 ** opts.h), ...u32(opts.nonce));
    const coinbaseTx = {
      version: 1,
      inputs: [{ prevTxid: new Uint8Array(32), vout: 0xffffffff, scriptSig, sequence: 0xffffffff }],
      outputs: [{ value: 50n * 10n ** 8n, script: p2pkhScript(new Uint8Array(20).fill(3)) }],
      locktime: 0,
    };
    const coinbaseTxid = headerHash(encodeTx(coinbaseTx));
    const coinbaseBranch = [fill(20), fill(21)];
    const merkleRoot = hashToHex(merkleBranchRoot(coinbaseTxid, coinbaseBranch, 0));
    let parentHeader = makeHeader({
      version: opts.parentVersion ?? 2,
      prevHash: hashToHex(fill(5)),
      merkleRoot,
      time: 1_700_000_001,
      bits: 0x207fffff,
      nonce: 0,
    });
    for (let n = 1; !hashMeetsTarget(powHash(parentHeader.raw), opts.mineBits); n++)
      parentHeader = makeHeader({ ...parentHeader, nonce: n });
    const auxpow: AuxPow = {
      coinbaseTx,
      coinbaseTxid,
      parentBlockHash: fill(9),
      coinbaseBranch,
      coinbaseIndex: 0,
      chainBranch,
      chainIndex,
      parentHeader,
    };
    return { header, auxpow };
  }

  it('validates, serialises and round-trips through a headers message', () => {
    for (const h of [0, 1, 3, 6]) {
      const entry = build({ childBits: 0x207fffff, mineBits: 0x207fffff, h, nonce: 1234 + h });
      checkHeader(entry, REGTEST, { height: 25 });
      const bytes = serializeHeaderEntry(entry);
      const [back] = parseHeadersMessage(encodeHeadersMessage([bytes]));
      expect(toHex(serializeHeaderEntry(back!))).toBe(toHex(bytes));
      checkHeader(back!, REGTEST);
      // Mainnet rejects it: regtest bits exceed the mainnet pow limit.
      expect(checkCode(() => checkHeader(entry, MAINNET))).toBe('bad-bits');
    }
  });

  it("proof of work is the parent's scrypt against the child's bits", () => {
    // Parent mined only to the easy target, child demands far more.
    const entry = build({ childBits: 0x1f7fffff, mineBits: 0x207fffff, h: 2, nonce: 99 });
    expect(hashMeetsTarget(powHash(entry.auxpow.parentHeader.raw), 0x1f7fffff)).toBe(false);
    checkAuxpow(entry.auxpow, headerHash(entry.header.raw), 0x62, true);
    expect(checkCode(() => checkHeader(entry, REGTEST))).toBe('pow');
    const mined = build({ childBits: 0x1f7fffff, mineBits: 0x1f7fffff, h: 2, nonce: 99 });
    checkHeader(mined, REGTEST);
  });

  it('early AuxPoW, parent chain ID and wrong slot', () => {
    const entry = build({ childBits: 0x207fffff, mineBits: 0x207fffff, h: 2, nonce: 5 });
    expect(checkCode(() => checkHeader(entry, REGTEST, { height: 19 }))).toBe('early-auxpow');
    const sameChain = build({ childBits: 0x207fffff, mineBits: 0x207fffff, h: 2, nonce: 5, parentVersion: 0x00620002 });
    expect(checkCode(() => checkHeader(sameChain, REGTEST))).toBe('parent-chain-id');
    const slot = entry.auxpow.chainIndex;
    const moved = { ...entry, auxpow: { ...entry.auxpow, chainIndex: slot ^ 1 } };
    expect(['no-chain-root', 'chain-index']).toContain(checkCode(() => checkHeader(moved, REGTEST)));
    // A child with another chain ID: rejected on regtest (strict), accepted where not strict.
    const foreign = build({ childBits: 0x207fffff, mineBits: 0x207fffff, h: 1, nonce: 5, chainId: 0x63 });
    expect(checkCode(() => checkHeader(foreign, REGTEST))).toBe('chain-id');
    checkHeader(foreign, { ...REGTEST, strictChainId: false });
  });
});
