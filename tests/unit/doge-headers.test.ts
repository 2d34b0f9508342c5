import { fixturePath } from '../helpers/fixtures';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  HeaderCheckError,
  HeaderDecodeError,
  MAINNET,
  TESTNET,
  ByteWriter,
  chainIdOf,
  chainMerkleRoot,
  checkAuxpow,
  checkHeader,
  encodeHeadersMessage,
  fromHex,
  getExpectedIndex,
  hashToHex,
  headerHash,
  hexToHash,
  isAuxpowVersion,
  isLegacyVersion,
  isValidHeader,
  makeHeader,
  parseAuxpow,
  parseHeader,
  parseHeaderEntry,
  parseHeaderWithAuxpow,
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
  type HeaderEntry,
} from '../../lib/doge';

const fixture = (name: string) => JSON.parse(readFileSync(fixturePath(name), 'utf8'));

interface FxHeader {
  height: number;
  hash: string;
  hex: string;
  auxpow: boolean;
  format: 'header80' | 'header80+auxpow' | 'header80_only_auxpow_data_absent';
  version: number;
  prev_hash: string;
  merkle_root: string;
  time: number;
  bits: string;
  nonce: number;
  auxpow_data?: {
    parent_coinbase_txid: string;
    parent_coinbase_hex: string;
    hashBlock_field: string;
    coinbase_branch: string[];
    coinbase_index: number;
    chain_branch: string[];
    chain_index: number;
    parent_header_hex: string;
    parent_hash_sha256d: string;
    parent_scrypt_hash: string;
    parent_version: number;
    parent_time: number;
    parent_bits: string;
    chain_merkle_root_in_parent_coinbase: string;
  };
}

const data = fixture('doge-mainnet-headers.json');
const entries: FxHeader[] = data.entries;
const full = entries.filter((e) => e.format === 'header80+auxpow');
const plain = entries.filter((e) => e.format === 'header80');
const baseOnly = entries.filter((e) => e.format === 'header80_only_auxpow_data_absent');

function checkCode(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(HeaderCheckError);
    return (e as HeaderCheckError).code;
  }
  throw new Error('expected a HeaderCheckError');
}

function decodeCode(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(HeaderDecodeError);
    return (e as HeaderDecodeError).code;
  }
  throw new Error('expected a HeaderDecodeError');
}

/** Parse + check; true when the corruption was caught by either step (and only by our errors). */
function detected(bytes: Uint8Array, height?: number): boolean {
  let entry: HeaderEntry;
  try {
    entry = parseHeaderEntry(bytes);
  } catch (e) {
    if (e instanceof HeaderDecodeError) return true;
    throw e;
  }
  return !isValidHeader(entry, MAINNET, { height });
}

describe('fixture shape', () => {
  it('has plain, full AuxPoW and base-only AuxPoW headers', () => {
    expect(entries.length).toBe(plain.length + full.length + baseOnly.length);
    expect(plain.length).toBeGreaterThanOrEqual(20);
    expect(full.length).toBeGreaterThanOrEqual(6);
    expect(baseOnly.length).toBeGreaterThanOrEqual(5);
    expect(data.auxpow_only).toHaveLength(1);
  });
});

describe('every fixture header', () => {
  for (const e of entries) {
    it(`${e.height} (${e.format})`, () => {
      const bytes = fromHex(e.hex);
      const h = parseHeader(bytes.subarray(0, 80));
      expect(h.hash).toBe(e.hash);
      expect(h.version).toBe(e.version);
      expect(h.prevHash).toBe(e.prev_hash);
      expect(h.merkleRoot).toBe(e.merkle_root);
      expect(h.time).toBe(e.time);
      expect(h.bits).toBe(parseInt(e.bits, 16));
      expect(h.nonce).toBe(e.nonce);
      expect(toHex(h.raw)).toBe(e.hex.slice(0, 160));
      expect(isAuxpowVersion(h.version)).toBe(e.auxpow);
      expect(toHex(makeHeader(h).raw)).toBe(toHex(h.raw));

      if (e.format === 'header80') {
        const entry = parseHeaderEntry(bytes);
        expect(entry.auxpow).toBeUndefined();
        checkHeader(entry, MAINNET, { height: e.height });
      } else if (e.format === 'header80+auxpow') {
        const { header, auxpow, bytesRead } = parseHeaderWithAuxpow(bytes, 0);
        expect(bytesRead).toBe(bytes.length);
        expect(header.hash).toBe(e.hash);
        const a = auxpow!;
        const ad = e.auxpow_data!;
        expect(hashToHex(a.coinbaseTxid)).toBe(ad.parent_coinbase_txid);
        expect(hashToHex(a.parentBlockHash)).toBe(ad.hashBlock_field);
        expect(a.coinbaseBranch.map(hashToHex)).toEqual(ad.coinbase_branch);
        expect(a.coinbaseIndex).toBe(ad.coinbase_index);
        expect(a.chainBranch.map(hashToHex)).toEqual(ad.chain_branch);
        expect(a.chainIndex).toBe(ad.chain_index);
        expect(toHex(a.parentHeader.raw)).toBe(ad.parent_header_hex);
        expect(a.parentHeader.hash).toBe(ad.parent_hash_sha256d);
        expect(a.parentHeader.version).toBe(ad.parent_version);
        expect(a.parentHeader.time).toBe(ad.parent_time);
        expect(a.parentHeader.bits).toBe(parseInt(ad.parent_bits, 16));
        expect(hashToHex(powHash(a.parentHeader.raw))).toBe(ad.parent_scrypt_hash);
        expect(toHex(chainMerkleRoot(headerHash(header.raw), a.chainBranch, a.chainIndex))).toBe(ad.chain_merkle_root_in_parent_coinbase);
        expect(ad.parent_coinbase_hex).toContain('fabe6d6d' + ad.chain_merkle_root_in_parent_coinbase);
        expect(chainIdOf(header.version)).toBe(0x62);
        // Full validation, with and without the height rules.
        checkHeader({ header, auxpow }, MAINNET, { height: e.height });
        checkHeader({ header, auxpow }, MAINNET);
        expect(toHex(serializeHeaderEntry({ header, auxpow }))).toBe(e.hex);
      } else {
        // 80-byte base of an AuxPoW block: the version promises AuxPoW data that is absent.
        expect(bytes.length).toBe(80);
        expect(decodeCode(() => parseHeaderEntry(bytes))).toBe('truncated');
        expect(checkCode(() => checkHeader({ header: h }, MAINNET, { height: e.height }))).toBe('auxpow-missing');
      }
    });
  }

  it('consecutive fixture entries link by prevHash', () => {
    const byHeight = new Map(entries.map((e) => [e.height, e]));
    let links = 0;
    for (const e of entries) {
      const prev = byHeight.get(e.height - 1);
      if (!prev) continue;
      expect(e.prev_hash).toBe(prev.hash);
      expect(parseHeader(fromHex(e.hex).subarray(0, 80)).prevHash).toBe(parseHeader(fromHex(prev.hex).subarray(0, 80)).hash);
      links++;
    }
    expect(links).toBeGreaterThanOrEqual(15);
  });
});

describe('auxpow_only blob (block 403931, libdohj auxpow_header.bin)', () => {
  const blob = data.auxpow_only[0];
  const bytes = fromHex(blob.auxpow_hex);

  it('parses completely and validates against the child hash', () => {
    const { auxpow, bytesRead } = parseAuxpow(bytes);
    expect(bytesRead).toBe(bytes.length);
    expect(hashToHex(auxpow.coinbaseTxid)).toBe(blob.parent_coinbase_txid);
    expect(auxpow.parentHeader.hash).toBe(blob.parent_hash_sha256d);
    expect(hashToHex(powHash(auxpow.parentHeader.raw))).toBe(blob.parent_scrypt_hash);
    expect(toHex(serializeAuxpow(auxpow))).toBe(blob.auxpow_hex);
    const child = hexToHash(blob.child_block_hash);
    checkAuxpow(auxpow, child, 0x62, true);
    expect(hashMeetsTarget(powHash(auxpow.parentHeader.raw), parseInt(blob.child_bits, 16), MAINNET.powLimit)).toBe(true);
    // A different child hash is not committed to.
    const other = Uint8Array.from(child);
    other[0]! ^= 1;
    expect(checkCode(() => checkAuxpow(auxpow, other, 0x62, true))).toBe('no-chain-root');
    // Another chain ID selects another slot (or collides with the parent's).
    expect(() => checkAuxpow(auxpow, child, 0x63, true)).toThrow(HeaderCheckError);
  });

  it('flipping any byte except the unchecked hashBlock field is detected', () => {
    const child = hexToHash(blob.child_block_hash);
    const bits = parseInt(blob.child_bits, 16);
    const { auxpow } = parseAuxpow(bytes);
    const txLen =
      serializeAuxpow(auxpow).length - 32 - (1 + 32 * auxpow.coinbaseBranch.length + 4) - (1 + 32 * auxpow.chainBranch.length + 4) - 80;
    const valid = (b: Uint8Array): boolean => {
      try {
        const { auxpow: a, bytesRead } = parseAuxpow(b);
        if (bytesRead !== b.length) return false;
        checkAuxpow(a, child, 0x62, true);
        return checkProofOfWorkOfParent(a, bits);
      } catch (e) {
        if (e instanceof HeaderDecodeError || e instanceof HeaderCheckError) return false;
        throw e;
      }
    };
    expect(valid(bytes)).toBe(true);
    for (let i = 0; i < bytes.length; i++) {
      const b = Uint8Array.from(bytes);
      b[i]! ^= 0x01;
      const inHashBlock = i >= txLen && i < txLen + 32;
      expect(valid(b), `byte ${i}`).toBe(inHashBlock);
    }
  });
});

function checkProofOfWorkOfParent(a: AuxPow, bits: number): boolean {
  return hashMeetsTarget(powHash(a.parentHeader.raw), bits, MAINNET.powLimit);
}

describe('corruption is detected', () => {
  it('every byte of every full AuxPoW entry (header and proof), except hashBlock', () => {
    let flips = 0;
    for (const e of full) {
      const bytes = fromHex(e.hex);
      const { auxpow } = parseHeaderWithAuxpow(bytes);
      const hashBlockAt = bytes.length - 80 - (1 + 32 * auxpow!.chainBranch.length + 4) - (1 + 32 * auxpow!.coinbaseBranch.length + 4) - 32;
      expect(toHex(bytes.subarray(hashBlockAt, hashBlockAt + 32))).toBe(toHex(auxpow!.parentBlockHash));
      expect(detected(bytes, e.height)).toBe(false);
      for (let i = 0; i < bytes.length; i++) {
        if (i >= hashBlockAt && i < hashBlockAt + 32) continue;
        for (const mask of [0x01, 0x80]) {
          const b = Uint8Array.from(bytes);
          b[i]! ^= mask;
          expect(detected(b, e.height), `height ${e.height} byte ${i} ^ ${mask}`).toBe(true);
          flips++;
        }
      }
    }
    expect(flips).toBeGreaterThan(5000);
  });

  it('the hashBlock field is not checked (Dogecoin Core parity)', () => {
    const e = full[0]!;
    const bytes = fromHex(e.hex);
    const { auxpow } = parseHeaderWithAuxpow(bytes);
    const at = bytes.length - 80 - (1 + 32 * auxpow!.chainBranch.length + 4) - (1 + 32 * auxpow!.coinbaseBranch.length + 4) - 32;
    const b = Uint8Array.from(bytes);
    b[at]! ^= 0xff;
    expect(detected(b, e.height)).toBe(false);
  });

  it("each byte of every plain header's prevHash and nonce", () => {
    for (const e of plain) {
      const bytes = fromHex(e.hex);
      for (const i of [...Array(32).keys()].map((k) => 4 + k).concat([76, 77, 78, 79])) {
        const b = Uint8Array.from(bytes);
        b[i]! ^= 0x01;
        expect(detected(b), `height ${e.height} byte ${i}`).toBe(true);
      }
    }
  });
});

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

describe('block-level rules (checkHeader)', () => {
  const genesis = parseHeaderEntry(entries.find((e) => e.height === 0)!.hex);
  const legacy250k = parseHeaderEntry(entries.find((e) => e.height === 250000)!.hex);
  const pre = parseHeaderEntry(entries.find((e) => e.height === 371336)!.hex);
  const aux = parseHeaderEntry(full[0]!.hex);

  it('versions', () => {
    expect(isLegacyVersion(1)).toBe(true);
    expect(isLegacyVersion(2)).toBe(true);
    expect(isLegacyVersion(0x00620002)).toBe(false);
    expect(chainIdOf(0x00620102)).toBe(0x62);
    expect(isAuxpowVersion(0x00620102)).toBe(true);
    expect(isAuxpowVersion(0x00620002)).toBe(false);
  });

  it('late-legacy and early-auxpow by height', () => {
    checkHeader(legacy250k, MAINNET, { height: 250000 });
    expect(checkCode(() => checkHeader(legacy250k, MAINNET, { height: 371337 }))).toBe('late-legacy');
    expect(checkCode(() => checkHeader(aux, MAINNET, { height: 371336 }))).toBe('early-auxpow');
    // 371336's version carries the chain ID without AuxPoW: fine before the start height.
    checkHeader(pre, MAINNET, { height: 371336 });
    checkHeader(genesis, MAINNET, { height: 0 });
  });

  it('strict chain ID', () => {
    const wrong = makeHeader({ ...pre.header, version: 0x00630002 });
    expect(checkCode(() => checkHeader({ header: wrong }, MAINNET))).toBe('chain-id');
    // Testnet does not enforce it: the changed header then fails on proof of work.
    expect(checkCode(() => checkHeader({ header: wrong }, TESTNET))).toBe('pow');
  });

  it('auxpow-unexpected and auxpow-missing', () => {
    expect(checkCode(() => checkHeader({ header: pre.header, auxpow: aux.auxpow }, MAINNET))).toBe('auxpow-unexpected');
    expect(checkCode(() => checkHeader({ header: aux.header }, MAINNET))).toBe('auxpow-missing');
  });

  it('pow and bad-bits', () => {
    const harder = makeHeader({ ...genesis.header, bits: 0x1d0ffff0 });
    expect(checkCode(() => checkHeader({ header: harder }, MAINNET))).toBe('pow');
    const aboveLimit = makeHeader({ ...genesis.header, bits: 0x1f0ffff0 });
    expect(checkCode(() => checkHeader({ header: aboveLimit }, MAINNET))).toBe('bad-bits');
  });
});

describe('headers message', () => {
  const run = entries.filter((e) => e.height >= 0 && e.height <= 10);
  const auxRun = entries.filter((e) => e.height >= 400000 && e.height <= 400002);

  it('round-trips consecutive plain headers and links them', () => {
    expect(run).toHaveLength(11);
    const payload = encodeHeadersMessage(run.map((e) => fromHex(e.hex)));
    expect(payload[0]).toBe(11);
    const parsed = parseHeadersMessage(payload);
    expect(parsed.map((p) => p.header.hash)).toEqual(run.map((e) => e.hash));
    for (let i = 1; i < parsed.length; i++) expect(parsed[i]!.header.prevHash).toBe(parsed[i - 1]!.header.hash);
    for (const p of parsed) checkHeader(p, MAINNET);
  });

  it('round-trips consecutive AuxPoW headers with their proofs', () => {
    expect(auxRun).toHaveLength(3);
    const payload = encodeHeadersMessage(auxRun.map((e) => serializeHeaderEntry(parseHeaderEntry(e.hex))));
    const parsed = parseHeadersMessage(payload);
    expect(parsed).toHaveLength(3);
    parsed.forEach((p, i) => {
      expect(p.header.hash).toBe(auxRun[i]!.hash);
      expect(p.auxpow).toBeDefined();
      expect(toHex(serializeHeaderEntry(p))).toBe(auxRun[i]!.hex);
      checkHeader(p, MAINNET, { height: auxRun[i]!.height });
      if (i > 0) expect(p.header.prevHash).toBe(parsed[i - 1]!.header.hash);
    });
  });

  it('mixes plain and AuxPoW entries', () => {
    const mixed = [...plain.slice(0, 3), ...full].map((e) => fromHex(e.hex));
    const parsed = parseHeadersMessage(encodeHeadersMessage(mixed));
    expect(parsed.map((p) => p.auxpow !== undefined)).toEqual([false, false, false, ...full.map(() => true)]);
  });

  it('rejects truncation at every offset, trailing bytes, tx counts and oversize counts', () => {
    const payload = encodeHeadersMessage(auxRun.map((e) => fromHex(e.hex)));
    for (let k = 0; k < payload.length; k++) {
      expect(['truncated', 'count']).toContain(decodeCode(() => parseHeadersMessage(payload.subarray(0, k))));
    }
    expect(decodeCode(() => parseHeadersMessage(Uint8Array.of(...payload, 0)))).toBe('trailing');
    const withTx = Uint8Array.from(payload);
    withTx[1 + fromHex(auxRun[0]!.hex).length] = 1;
    expect(decodeCode(() => parseHeadersMessage(withTx))).toBe('tx-count');
    expect(decodeCode(() => parseHeadersMessage(new ByteWriter().varint(2001).finish()))).toBe('too-many');
    expect(decodeCode(() => parseHeadersMessage(new ByteWriter().varint(2000).finish()))).toBe('count');
    expect(decodeCode(() => parseHeadersMessage(Uint8Array.of(0xfd, 0x01, 0x00)))).toBe('varint');
    expect(parseHeadersMessage(Uint8Array.of(0))).toEqual([]);
    expect(() => encodeHeadersMessage(Array(2001).fill(fromHex(run[0]!.hex)))).toThrow(RangeError);
  });

  it('a 2000-header message is accepted', () => {
    const one = fromHex(run[1]!.hex);
    const parsed = parseHeadersMessage(encodeHeadersMessage(Array(2000).fill(one)));
    expect(parsed).toHaveLength(2000);
    expect(parsed[1999]!.header.hash).toBe(run[1]!.hash);
  });

  it('parseHeaderWithAuxpow reads at an offset', () => {
    const a = fromHex(plain[0]!.hex);
    const b = fromHex(full[0]!.hex);
    const buf = Uint8Array.of(...a, ...b, 0xee);
    const first = parseHeaderWithAuxpow(buf, 0);
    expect(first.bytesRead).toBe(80);
    expect(first.auxpow).toBeUndefined();
    const second = parseHeaderWithAuxpow(buf, 80);
    expect(second.bytesRead).toBe(b.length);
    expect(second.header.hash).toBe(full[0]!.hash);
    expect(decodeCode(() => parseHeaderEntry(buf.subarray(80)))).toBe('trailing');
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
