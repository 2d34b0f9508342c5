import { fixturePath } from '../helpers/fixtures';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  MAINNET,
  MAINNET_CHECKPOINTS,
  NETWORKS,
  NetworkError,
  REGTEST,
  TESTNET,
  TESTNET_CHECKPOINTS,
  HeaderCheckError,
  checkHeader,
  getNetwork,
  toHex,
  isNetworkName,
  makeHeader,
  type NetworkName,
} from '../../lib/doge';

const fixture = (name: string) => JSON.parse(readFileSync(fixturePath(name), 'utf8'));

const LITECOIN_REGTEST_GENESIS = '530827f38f93b43ed12af0b3ad25a288dc02ed74d6d7857862df51fc56c416f9';
const GENESIS_MERKLE = '5b2a3f53f605d62c53e62932dac6925e3d74afa5a4b459745c36d42d0ed26a69';

function errCode(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(NetworkError);
    return (e as NetworkError).code;
  }
  throw new Error('expected a NetworkError');
}

describe('chain parameters', () => {
  it('mainnet', () => {
    expect(MAINNET).toMatchObject({
      name: 'mainnet',
      pubKeyHash: 0x1e,
      scriptHash: 0x16,
      wif: 0x9e,
      bip32: { public: 0x02facafd, private: 0x02fac398 },
      magic: 'c0c0c0c0',
      port: 22556,
      rpcPort: 22555,
      genesisHash: '1a91e3dace36e2be3bf030a65679fe821aa1d6ef92e7c9902eb318182c355691',
      auxpowStartHeight: 371337,
      auxpowChainId: 0x62,
      strictChainId: true,
      powLimitBits: 0x1e0fffff,
      targetSpacing: 60,
      bip44CoinType: 3,
    });
    expect(MAINNET.dnsSeeds).toEqual(['seed.multidoge.org', 'seed2.multidoge.org']);
  });

  it('testnet', () => {
    expect(TESTNET).toMatchObject({
      name: 'testnet',
      pubKeyHash: 0x71,
      scriptHash: 0xc4,
      wif: 0xf1,
      bip32: { public: 0x043587cf, private: 0x04358394 },
      magic: 'fcc1b7dc',
      port: 44556,
      rpcPort: 44555,
      genesisHash: 'bb0a78264637406b6360aad926284d544d7049f45189db5664f3c4d07350559e',
      auxpowStartHeight: 158100,
      auxpowChainId: 0x62,
      strictChainId: false,
      targetSpacing: 60,
    });
    expect(TESTNET.dnsSeeds).toEqual(['testseed.jrn.me.uk']);
  });

  it('regtest', () => {
    expect(REGTEST).toMatchObject({
      name: 'regtest',
      pubKeyHash: 0x6f,
      scriptHash: 0xc4,
      wif: 0xef,
      bip32: { public: 0x043587cf, private: 0x04358394 },
      magic: 'fabfb5da',
      port: 18444,
      rpcPort: 18332,
      genesisHash: '3d2160a3b5dc4a9d62e7e66a295f70313ac808440ef7400d6c0772171ce973a5',
      auxpowStartHeight: 20,
      auxpowChainId: 0x62,
      strictChainId: true,
      powLimitBits: 0x207fffff,
      targetSpacing: 60,
    });
    expect(REGTEST.dnsSeeds).toEqual([]);
    expect(REGTEST.checkpoints).toEqual([]);
  });

  it('genesis hashes are the hashes of the genesis headers, which meet their proof of work', () => {
    const genesis = (time: number, bits: number, nonce: number) =>
      makeHeader({ version: 1, prevHash: '00'.repeat(32), merkleRoot: GENESIS_MERKLE, time, bits, nonce });
    const cases: [typeof MAINNET, ReturnType<typeof genesis>][] = [
      [MAINNET, genesis(1386325540, 0x1e0ffff0, 99943)],
      [TESTNET, genesis(1391503289, 0x1e0ffff0, 997879)],
      [REGTEST, genesis(1296688602, 0x207fffff, 2)],
    ];
    for (const [net, h] of cases) {
      expect(h.hash).toBe(net.genesisHash);
      checkHeader({ header: h }, net, { height: 0 });
    }
    const headers = fixture('doge-mainnet-headers.json').entries;
    expect(headers.find((e: { height: number }) => e.height === 0).hex).toBe(toHex(cases[0]![1].raw));
  });

  it('parameter objects are frozen', () => {
    for (const n of Object.values(NETWORKS)) {
      expect(Object.isFrozen(n)).toBe(true);
      expect(Object.isFrozen(n.bip32)).toBe(true);
      expect(Object.isFrozen(n.checkpoints)).toBe(true);
    }
    expect(() => {
      (MAINNET as { port: number }).port = 1;
    }).toThrow(TypeError);
  });
});

describe('getNetwork', () => {
  it('by name', () => {
    for (const name of ['mainnet', 'testnet', 'regtest'] as NetworkName[]) {
      expect(getNetwork(name)).toBe(NETWORKS[name]);
      expect(isNetworkName(name)).toBe(true);
    }
    expect(isNetworkName('main')).toBe(false);
    expect(errCode(() => getNetwork('litecoin' as NetworkName))).toBe('unknown-network');
  });

  it('regtest genesis override for a Litecoin regtest node', () => {
    const n = getNetwork('regtest', { genesisHash: LITECOIN_REGTEST_GENESIS });
    expect(n.genesisHash).toBe(LITECOIN_REGTEST_GENESIS);
    expect(n.genesisOverridden).toBe(true);
    expect(n.strictChainId).toBe(false); // Litecoin versions carry no Dogecoin chain ID
    expect(n.checkpoints).toEqual([]);
    expect(n.magic).toBe('fabfb5da');
    expect(n.pubKeyHash).toBe(0x6f);
    expect(Object.isFrozen(n)).toBe(true);
    expect(REGTEST.genesisHash).not.toBe(LITECOIN_REGTEST_GENESIS); // built-in untouched
    expect(getNetwork('regtest', { genesisHash: LITECOIN_REGTEST_GENESIS.toUpperCase() }).genesisHash).toBe(LITECOIN_REGTEST_GENESIS);
    expect(getNetwork('regtest', { genesisHash: LITECOIN_REGTEST_GENESIS, strictChainId: true }).strictChainId).toBe(true);
  });

  it('Litecoin-style headers pass on the overridden network only', () => {
    // A BIP9-version (0x20000000) regtest header: no Dogecoin chain ID.
    let h = makeHeader({
      version: 0x20000000,
      prevHash: LITECOIN_REGTEST_GENESIS,
      merkleRoot: '11'.repeat(32),
      time: 1700000000,
      bits: 0x207fffff,
      nonce: 0,
    });
    const ltc = getNetwork('regtest', { genesisHash: LITECOIN_REGTEST_GENESIS });
    for (let n = 1; ; n++) {
      try {
        checkHeader({ header: h }, ltc, { height: 1 });
        break;
      } catch (e) {
        expect((e as HeaderCheckError).code).toBe('pow');
        h = makeHeader({ ...h, nonce: n });
      }
    }
    checkHeader({ header: h }, ltc, { height: 500 });
    expect(() => checkHeader({ header: h }, REGTEST, { height: 1 })).toThrow(/chain ID/);
  });

  it('same genesis is a no-op; a different one is refused off regtest; bad hex refused', () => {
    expect(getNetwork('mainnet', { genesisHash: MAINNET.genesisHash })).toBe(MAINNET);
    expect(errCode(() => getNetwork('mainnet', { genesisHash: LITECOIN_REGTEST_GENESIS }))).toBe('genesis');
    expect(errCode(() => getNetwork('testnet', { genesisHash: LITECOIN_REGTEST_GENESIS }))).toBe('genesis');
    expect(errCode(() => getNetwork('regtest', { genesisHash: 'abc' }))).toBe('genesis');
    expect(errCode(() => getNetwork('regtest', { genesisHash: 'zz'.repeat(32) }))).toBe('genesis');
  });

  it('strictChainId override alone', () => {
    const t = getNetwork('testnet', { strictChainId: true });
    expect(t.strictChainId).toBe(true);
    expect(t.genesisHash).toBe(TESTNET.genesisHash);
    expect(TESTNET.strictChainId).toBe(false);
  });
});

describe('checkpoints', () => {
  const fx = fixture('doge-checkpoints.json');
  const norm = (c: { height: number; hash: string; time: number; bits: string }) => ({
    height: c.height,
    hash: c.hash,
    time: c.time,
    bits: parseInt(c.bits, 16),
  });

  it('equal the fixture (libdogecoin chainparams.c)', () => {
    expect(MAINNET_CHECKPOINTS.map((c) => ({ ...c }))).toEqual(fx.mainnet.map(norm));
    expect(TESTNET_CHECKPOINTS.map((c) => ({ ...c }))).toEqual(fx.testnet.map(norm));
    expect(MAINNET.checkpoints).toBe(MAINNET_CHECKPOINTS);
    expect(TESTNET.checkpoints).toBe(TESTNET_CHECKPOINTS);
  });

  it('are ascending, start at genesis, and agree with fixture headers', () => {
    for (const [net, cps] of [
      [MAINNET, MAINNET_CHECKPOINTS],
      [TESTNET, TESTNET_CHECKPOINTS],
    ] as const) {
      expect(cps[0]!.height).toBe(0);
      expect(cps[0]!.hash).toBe(net.genesisHash);
      for (let i = 1; i < cps.length; i++) expect(cps[i]!.height).toBeGreaterThan(cps[i - 1]!.height);
    }
    const headers: { height: number; hash: string; time: number; bits: string }[] = fixture('doge-mainnet-headers.json').entries;
    let matched = 0;
    for (const cp of MAINNET_CHECKPOINTS) {
      const h = headers.find((e) => e.height === cp.height);
      if (!h) continue;
      expect(h.hash).toBe(cp.hash);
      expect(h.time).toBe(cp.time);
      expect(parseInt(h.bits, 16)).toBe(cp.bits);
      matched++;
    }
    expect(matched).toBeGreaterThanOrEqual(3);
  });
});
