import { fixturePath } from '../helpers/fixtures';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  Bip32Error,
  HDKey,
  MAINNET,
  REGTEST,
  TESTNET,
  base58checkDecode,
  base58checkEncode,
  deriveAddress,
  deriveAddresses,
  derivePath,
  derivePublic,
  encodeWif,
  fromHex,
  hdFromSeed,
  hdKeyToAddress,
  isValidXpub,
  parseExtendedKey,
  parsePublicPath,
  parseXpub,
  serializeXpub,
  toHex,
} from '../../lib/doge';

const fixture = (name: string) => JSON.parse(readFileSync(fixturePath(name), 'utf8'));

const data = fixture('doge-bip32-vectors.json');
const [coreSet, libSet, addrSet] = data.sets;

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(Bip32Error);
    return (e as Bip32Error).code;
  }
  throw new Error('expected a Bip32Error');
}

interface Node {
  path: string;
  dgub: string;
  dgpv: string;
  depth?: number;
  chain_code?: string;
  public_key?: string;
  private_key?: string;
  p2pkh_address?: string;
  wif_compressed?: string;
  parent_fingerprint_in_serialization?: string;
}

function checkNode(master: HDKey, d: Node) {
  const k = derivePath(master, d.path);
  expect(k.privateExtendedKey).toBe(d.dgpv);
  expect(serializeXpub(k)).toBe(d.dgub);
  expect(d.dgub.startsWith('dgub')).toBe(true);
  expect(d.dgpv.startsWith('dgpv')).toBe(true);
  if (d.depth !== undefined) expect(k.depth).toBe(d.depth);
  if (d.chain_code) expect(toHex(k.chainCode!)).toBe(d.chain_code);
  if (d.public_key) expect(toHex(k.publicKey!)).toBe(d.public_key);
  if (d.private_key) expect(toHex(k.privateKey!)).toBe(d.private_key);
  if (d.p2pkh_address) expect(hdKeyToAddress(k, MAINNET)).toBe(d.p2pkh_address);
  if (d.wif_compressed) expect(encodeWif(k.privateKey!, true, MAINNET)).toBe(d.wif_compressed);
  if (d.parent_fingerprint_in_serialization)
    expect(k.parentFingerprint.toString(16).padStart(8, '0')).toBe(d.parent_fingerprint_in_serialization);

  // Parsing both serialisations back gives the same node.
  const pub = parseXpub(d.dgub, MAINNET);
  expect(toHex(pub.publicKey!)).toBe(toHex(k.publicKey!));
  expect(pub.privateKey).toBeNull();
  expect(serializeXpub(pub)).toBe(d.dgub);
  const prv = parseExtendedKey(d.dgpv, MAINNET);
  expect(prv.privateExtendedKey).toBe(d.dgpv);
  expect(codeOf(() => parseXpub(d.dgpv, MAINNET))).toBe('private');
  expect(codeOf(() => parseXpub(d.dgub, TESTNET))).toBe('version');
}

/** Every non-hardened step between consecutive nodes must also work from the parent dgub. */
function checkPublicSteps(nodes: Node[]) {
  let checked = 0;
  for (let i = 1; i < nodes.length; i++) {
    const step = nodes[i]!.path.split('/').pop()!;
    const isChild = nodes[i]!.path === `${nodes[i - 1]!.path}/${step}`;
    if (!isChild || /['h]$/.test(step)) continue;
    const parent = parseXpub(nodes[i - 1]!.dgub, MAINNET);
    expect(serializeXpub(derivePublic(parent, [Number(step)]))).toBe(nodes[i]!.dgub);
    checked++;
  }
  return checked;
}

describe('Dogecoin Core bip32_tests.cpp (BIP32 vectors 1 and 2 as dgub/dgpv)', () => {
  for (const v of coreSet.vectors) {
    describe(v.name, () => {
      const master = hdFromSeed(fromHex(v.seed), MAINNET);
      for (const d of v.derivations) it(d.path, () => checkNode(master, d));
      it('public derivation of the non-hardened steps', () => {
        expect(checkPublicSteps(v.derivations)).toBeGreaterThanOrEqual(2);
      });
    });
  }
});

describe('libdogecoin bip32_tests.c', () => {
  const master = hdFromSeed(fromHex(libSet.seed), MAINNET);
  for (const d of libSet.derivations) it(d.path, () => checkNode(master, d));
  it('public derivation of the non-hardened steps', () => {
    expect(checkPublicSteps(libSet.derivations)).toBeGreaterThanOrEqual(2);
  });

  it('public CKD: child 124 of a dgub, and no hardened child', () => {
    for (const c of libSet.public_ckd) {
      const parent = parseXpub(c.parent_dgub, MAINNET);
      expect(serializeXpub(derivePublic(parent, [c.child_index]))).toBe(c.child_dgub);
      expect(serializeXpub(derivePublic(parent, `m/${c.child_index}`))).toBe(c.child_dgub);
      expect(codeOf(() => derivePublic(parent, [0x80000001]))).toBe('hardened');
      expect(codeOf(() => derivePublic(parent, "1'"))).toBe('hardened');
    }
  });

  describe('seed2', () => {
    const m2 = hdFromSeed(fromHex(libSet.seed2.seed), MAINNET);
    for (const d of libSet.seed2.derivations) {
      it(d.path, () => {
        const k = derivePath(m2, d.path);
        expect(k.privateExtendedKey).toBe(d.dgpv);
        expect(serializeXpub(k)).toBe(d.dgub);
      });
    }
    it("m/0'/0 also comes from public derivation of the m/0' dgub", () => {
      const [, hard, child] = libSet.seed2.derivations;
      expect(serializeXpub(derivePublic(parseXpub(hard.dgub, MAINNET), '0'))).toBe(child.dgub);
    });
  });
});

describe("libdogecoin address_tests.c (BIP44 m/44'/3'/…)", () => {
  const master = parseExtendedKey(addrSet.master_dgpv, MAINNET);
  for (const d of addrSet.derivations) {
    it(d.path, () => {
      const k = derivePath(master, d.path);
      expect(k.privateExtendedKey).toBe(d.dgpv);
      expect(serializeXpub(k)).toBe(d.dgub);
      expect(toHex(k.publicKey!)).toBe(d.public_key);
      expect(encodeWif(k.privateKey!, true, MAINNET)).toBe(d.wif);
      expect(hdKeyToAddress(k, MAINNET)).toBe(d.p2pkh_address);
    });
  }

  it('watch-only: receive/change addresses from the account dgub alone', () => {
    const byPath = new Map<string, string>(
      addrSet.derivations.map((d: { path: string; p2pkh_address: string }) => [d.path, d.p2pkh_address]),
    );
    for (const account of [0, 1]) {
      const accountXpub = parseXpub(serializeXpub(derivePath(master, `m/44'/3'/${account}'`)), MAINNET);
      for (const chain of [0, 1]) {
        for (const index of [0, 1]) {
          const expected = byPath.get(`m/44'/3'/${account}'/${chain}/${index}`);
          if (!expected) continue;
          expect(deriveAddress(accountXpub, index, MAINNET, chain)).toBe(expected);
        }
      }
    }
    const acct0 = parseXpub(serializeXpub(derivePath(master, "m/44'/3'/0'")), MAINNET);
    expect(deriveAddresses(acct0, MAINNET, 0, 2)).toEqual([byPath.get("m/44'/3'/0'/0/0"), byPath.get("m/44'/3'/0'/0/1")]);
    expect(deriveAddress(acct0, 0, MAINNET)).not.toBe(deriveAddress(acct0, 1, MAINNET));
  });

  it('addresses of the extended keys themselves', () => {
    for (const a of addrSet.other_asserts) {
      expect(hdKeyToAddress(parseExtendedKey(a.dgpv, MAINNET), MAINNET)).toBe(a.p2pkh_address_of_this_key);
    }
  });
});

describe('network checks and errors', () => {
  const seed = fromHex('000102030405060708090a0b0c0d0e0f');

  it('testnet and regtest use tpub and accept each other; mainnet does not', () => {
    const t = hdFromSeed(seed, TESTNET);
    const tpub = serializeXpub(derivePath(t, "m/44'/1'/0'"));
    expect(tpub.startsWith('tpub')).toBe(true);
    expect(isValidXpub(tpub, TESTNET)).toBe(true);
    expect(isValidXpub(tpub, REGTEST)).toBe(true);
    expect(codeOf(() => parseXpub(tpub, MAINNET))).toBe('version');
    const m = hdFromSeed(seed, MAINNET);
    // Same key material, different version bytes: same public keys and derived hashes.
    expect(toHex(derivePublic(parseXpub(tpub, REGTEST), '0/0').publicKey!)).toBe(toHex(derivePath(m, "m/44'/1'/0'/0/0").publicKey!));
    expect(deriveAddress(parseXpub(tpub, REGTEST), 0, REGTEST)[0]).toMatch(/[mn]/);
  });

  it('rejects malformed keys with typed errors', () => {
    const dgub = coreSet.vectors[0].derivations[0].dgub as string;
    expect(codeOf(() => parseXpub(dgub.slice(0, -1) + (dgub.endsWith('P') ? 'Q' : 'P'), MAINNET))).toBe('format');
    const raw = base58checkDecode(dgub)!;
    expect(codeOf(() => parseXpub(base58checkEncode(raw.slice(0, 77)), MAINNET))).toBe('format');
    // Public version bytes with private key data.
    const mixed = Uint8Array.from(raw);
    mixed.set(new Uint8Array(33), 45);
    mixed[77] = 1;
    expect(codeOf(() => parseXpub(base58checkEncode(mixed), MAINNET))).toBe('key');
    // A point not on the curve.
    const offCurve = Uint8Array.from(raw);
    offCurve[45] = 0x02;
    offCurve.fill(0xff, 46);
    expect(codeOf(() => parseXpub(base58checkEncode(offCurve), MAINNET))).toBe('key');
    expect(isValidXpub('nonsense', MAINNET)).toBe(false);
  });

  it('parses public paths', () => {
    expect(parsePublicPath('m/0/5')).toEqual([0, 5]);
    expect(parsePublicPath('0/5')).toEqual([0, 5]);
    expect(parsePublicPath('m')).toEqual([]);
    expect(parsePublicPath('')).toEqual([]);
    expect(codeOf(() => parsePublicPath("m/0'/5"))).toBe('hardened');
    expect(codeOf(() => parsePublicPath('m/2147483648'))).toBe('hardened');
    expect(codeOf(() => parsePublicPath('m/x'))).toBe('path');
    expect(codeOf(() => parsePublicPath('m/0//1'))).toBe('path');
  });

  it('derivePublic of a private key gives the neutered child', () => {
    const m = hdFromSeed(seed, MAINNET);
    const viaPrivate = derivePath(m, 'm/0/7');
    const viaPublic = derivePublic(m, 'm/0/7');
    expect(viaPublic.privateKey).toBeNull();
    expect(serializeXpub(viaPublic)).toBe(serializeXpub(viaPrivate));
  });
});
