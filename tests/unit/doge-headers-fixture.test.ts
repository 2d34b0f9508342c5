// Every mainnet header of tests/fixtures/doge-mainnet-headers.json parsed, checked and serialised
// back; the AuxPoW-only blob; and corruption of any checked byte detected.
import { describe, expect, it } from 'vitest';
import {
  HeaderCheckError,
  HeaderDecodeError,
  MAINNET,
  chainIdOf,
  chainMerkleRoot,
  checkAuxpow,
  checkHeader,
  fromHex,
  hashToHex,
  headerHash,
  hexToHash,
  isAuxpowVersion,
  isValidHeader,
  makeHeader,
  parseAuxpow,
  parseHeader,
  parseHeaderEntry,
  parseHeaderWithAuxpow,
  powHash,
  hashMeetsTarget,
  serializeAuxpow,
  serializeHeaderEntry,
  toHex,
  type AuxPow,
  type HeaderEntry,
} from '../../lib/doge';
import { mainnetHeaders, entries, full, plain, baseOnly, checkCode, decodeCode } from '../helpers/doge-header-fixtures';

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
    expect(mainnetHeaders.auxpow_only).toHaveLength(1);
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
  const blob = mainnetHeaders.auxpow_only[0];
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
