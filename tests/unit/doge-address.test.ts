import { fixturePath } from '../helpers/fixtures';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AddressError,
  MAINNET,
  REGTEST,
  TESTNET,
  addressToScript,
  base58checkDecode,
  base58checkEncode,
  decodeAddress,
  decodeWif,
  encodeAddress,
  encodeWif,
  fromHex,
  hash160,
  hdFromSeed,
  derivePath,
  hdKeyToAddress,
  isValidAddress,
  isValidWif,
  pubkeyToAddress,
  scriptToAddress,
  toHex,
  wifToAddress,
  wifToPublicKey,
  type Network,
} from '../../lib/doge';

const fixture = (name: string) => JSON.parse(readFileSync(fixturePath(name), 'utf8'));

const NETS: Record<string, Network> = { main: MAINNET, test: TESTNET, regtest: REGTEST };
const ALL = [MAINNET, TESTNET, REGTEST];

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AddressError);
    return (e as AddressError).code;
  }
  throw new Error('expected an AddressError');
}

describe('base58_keys_valid.json (Dogecoin Core)', () => {
  const rows: [string, string, Record<string, unknown>][] = fixture('base58_keys_valid.json');

  it('has the 50 documented rows', () => {
    expect(rows).toHaveLength(50);
  });

  for (const [str, payloadHex, meta] of rows) {
    const net = meta.isTestnet ? TESTNET : MAINNET;
    const other = meta.isTestnet ? MAINNET : TESTNET;
    if (meta.isPrivkey) {
      it(`WIF ${str}`, () => {
        // Quirk (see .source.txt): compressed rows carry 65 hex digits; the key is the first 64.
        const keyHex = payloadHex.slice(0, 64);
        const k = decodeWif(str, net);
        expect(toHex(k.privateKey)).toBe(keyHex);
        expect(k.compressed).toBe(meta.isCompressed);
        expect(encodeWif(k.privateKey, k.compressed, net)).toBe(str);
        expect(isValidWif(str, net)).toBe(true);
        expect(codeOf(() => decodeWif(str, other))).toBe('version');
        expect(isValidAddress(str, net)).toBe(false);
      });
    } else {
      it(`address ${str}`, () => {
        const type = meta.addrType === 'pubkey' ? 'p2pkh' : 'p2sh';
        const a = decodeAddress(str, net);
        expect(a.type).toBe(type);
        expect(toHex(a.hash160)).toBe(payloadHex);
        expect(encodeAddress(type, fromHex(payloadHex), net)).toBe(str);
        expect(scriptToAddress(addressToScript(str, net), net)).toBe(str);
        expect(isValidAddress(str, net)).toBe(true);
        expect(isValidAddress(str, other)).toBe(false);
        expect(isValidWif(str, net)).toBe(false);
      });
    }
  }
});

describe('base58_keys_invalid.json (Dogecoin Core)', () => {
  const rows: [string][] = fixture('base58_keys_invalid.json');
  it('has 50 rows', () => expect(rows).toHaveLength(50));
  for (const [str] of rows) {
    it(`rejects ${JSON.stringify(str.slice(0, 20))}…`, () => {
      for (const net of ALL) {
        expect(isValidAddress(str, net)).toBe(false);
        expect(isValidWif(str, net)).toBe(false);
        expect(() => decodeAddress(str, net)).toThrow(AddressError);
        expect(() => decodeWif(str, net)).toThrow(AddressError);
      }
    });
  }
});

describe('doge-address-vectors.json', () => {
  const data = fixture('doge-address-vectors.json');

  it('counts', () => {
    expect(data.valid).toHaveLength(106);
    expect(data.pairs).toHaveLength(3);
    expect(data.invalid).toHaveLength(52);
    expect(data.valid.filter((v: { network: string }) => v.network === 'regtest').length).toBeGreaterThan(0);
  });

  for (const v of data.valid) {
    const net = NETS[v.network]!;
    it(`valid ${v.kind} ${v.network} ${v.string}`, () => {
      if (v.kind === 'wif') {
        const k = decodeWif(v.string, net);
        expect(toHex(k.privateKey)).toBe(v.privkey);
        expect(k.compressed).toBe(v.compressed);
        const pub = wifToPublicKey(k);
        expect(toHex(pub)).toBe(v.pubkey);
        expect(toHex(hash160(pub))).toBe(v.pubkey_hash160);
        expect(wifToAddress(v.string, net)).toBe(v.p2pkh_address_of_key);
        expect(base58checkDecode(v.string)![0]).toBe(parseInt(v.version_byte, 16));
        expect(encodeWif(k.privateKey, k.compressed, net)).toBe(v.string);
      } else {
        const a = decodeAddress(v.string, net);
        expect(a.type).toBe(v.kind);
        expect(toHex(a.hash160)).toBe(v.hash160);
        expect(toHex(addressToScript(v.string, net))).toBe(v.scriptPubKey);
        expect(scriptToAddress(fromHex(v.scriptPubKey), net)).toBe(v.string);
        expect(base58checkDecode(v.string)![0]).toBe(parseInt(v.version_byte, 16));
      }
    });
  }

  it('pair: WIF matches its address (libdogecoin verifyPrivPubKeypair)', () => {
    const [match, nonMatch] = data.pairs;
    expect(match.match).toBe(true);
    const k = decodeWif(match.wif, MAINNET);
    expect(toHex(k.privateKey)).toBe(match.privkey);
    expect(toHex(wifToPublicKey(k))).toBe(match.pubkey);
    expect(wifToAddress(match.wif, MAINNET)).toBe(match.address);
    expect(pubkeyToAddress(fromHex(match.pubkey), MAINNET)).toBe(match.address);

    expect(nonMatch.match).toBe(false);
    expect(isValidAddress(nonMatch.address, MAINNET)).toBe(true);
    expect(wifToAddress(nonMatch.wif, MAINNET)).not.toBe(nonMatch.address);
  });

  it('pair: BIP39 seed -> BIP44 addresses', () => {
    const p = data.pairs[2];
    for (const d of p.derivations) {
      const net = NETS[d.network]!;
      const master = hdFromSeed(fromHex(p.bip39_seed), net);
      expect(hdKeyToAddress(derivePath(master, d.path), net)).toBe(d.address);
    }
  });

  for (const v of data.invalid) {
    it(`invalid ${JSON.stringify(v.string.slice(0, 24))} (${v.reason})`, () => {
      for (const net of ALL) {
        expect(isValidAddress(v.string, net)).toBe(false);
        expect(isValidWif(v.string, net)).toBe(false);
      }
    });
  }
});

describe('address errors and edge cases', () => {
  const addr = 'DD4KSSuBJqcjuTcvUg1CgUKeurPUFeEZkE';

  it('reports checksum, length and version errors distinctly', () => {
    const flipped = addr.slice(0, -1) + (addr.endsWith('E') ? 'F' : 'E');
    expect(codeOf(() => decodeAddress(flipped, MAINNET))).toBe('base58');
    expect(codeOf(() => decodeAddress('0OIl', MAINNET))).toBe('base58');
    expect(codeOf(() => decodeAddress('', MAINNET))).toBe('base58');
    expect(codeOf(() => decodeAddress(addr, TESTNET))).toBe('version');
    const short = base58checkEncode(Uint8Array.of(0x1e, ...new Uint8Array(19)));
    expect(codeOf(() => decodeAddress(short, MAINNET))).toBe('length');
    expect(codeOf(() => decodeAddress(42 as unknown as string, MAINNET))).toBe('type');
  });

  it('distinguishes testnet and regtest P2PKH but shares P2SH', () => {
    const h = new Uint8Array(20).fill(7);
    const t = encodeAddress('p2pkh', h, TESTNET);
    const r = encodeAddress('p2pkh', h, REGTEST);
    expect(t[0]).toBe('n');
    expect(['m', 'n']).toContain(r[0]);
    expect(isValidAddress(t, REGTEST)).toBe(false);
    expect(isValidAddress(r, TESTNET)).toBe(false);
    const s = encodeAddress('p2sh', h, TESTNET);
    expect(decodeAddress(s, REGTEST)).toEqual({ type: 'p2sh', hash160: h });
  });

  it('mainnet prefixes', () => {
    const h = new Uint8Array(20).fill(0xab);
    expect(encodeAddress('p2pkh', h, MAINNET)[0]).toBe('D');
    expect(['9', 'A']).toContain(encodeAddress('p2sh', h, MAINNET)[0]);
    expect(() => encodeAddress('p2pkh', new Uint8Array(19), MAINNET)).toThrow(AddressError);
  });

  it('WIF: bad compression flag and out-of-range keys are rejected', () => {
    const key = new Uint8Array(32).fill(1);
    const good = base58checkEncode(Uint8Array.of(0x9e, ...key, 0x01));
    expect(decodeWif(good, MAINNET).compressed).toBe(true);
    const badFlag = base58checkEncode(Uint8Array.of(0x9e, ...key, 0x02));
    expect(codeOf(() => decodeWif(badFlag, MAINNET))).toBe('key');
    const zero = base58checkEncode(Uint8Array.of(0x9e, ...new Uint8Array(32)));
    expect(codeOf(() => decodeWif(zero, MAINNET))).toBe('key');
    const order = fromHex('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');
    expect(codeOf(() => decodeWif(base58checkEncode(Uint8Array.of(0x9e, ...order)), MAINNET))).toBe('key');
    expect(codeOf(() => decodeWif(base58checkEncode(Uint8Array.of(0x9e, ...key.slice(1))), MAINNET))).toBe('length');
  });

  it('scriptToAddress is null for non-address scripts', () => {
    expect(scriptToAddress(fromHex('6a0474657374'), MAINNET)).toBeNull();
    expect(scriptToAddress(fromHex('2102b73438165461b826b30a46078f211aa005d1e7e430b1e0ed461678a5fe516c73ac'), MAINNET)).toBeNull();
  });
});
