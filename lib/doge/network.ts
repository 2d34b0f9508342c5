/**
 * Dogecoin network parameters (Dogecoin Core 1.14 `chainparams.cpp`, libdogecoin `chainparams.c`).
 * @module
 */
import { isHex } from './bytes';
import { MAINNET_CHECKPOINTS, TESTNET_CHECKPOINTS, type Checkpoint } from './checkpoints';
import { NetworkError } from './errors';

export type NetworkName = 'mainnet' | 'testnet' | 'regtest';

export interface Network {
  readonly name: NetworkName;
  /** Base58 version bytes. */
  readonly pubKeyHash: number;
  readonly scriptHash: number;
  readonly wif: number;
  /** BIP32 extended key version bytes (dgub/dgpv on mainnet, tpub/tprv otherwise). */
  readonly bip32: { readonly public: number; readonly private: number };
  /** BIP44 coin type (3 on mainnet, 1 on test networks). */
  readonly bip44CoinType: number;
  /** P2P message start, as hex of the 4 wire bytes. */
  readonly magic: string;
  readonly port: number;
  readonly rpcPort: number;
  /** Genesis block hash, display (RPC) byte order. */
  readonly genesisHash: string;
  /** True when `genesisHash` was overridden (a foreign regtest chain, e.g. Litecoin's). */
  readonly genesisOverridden: boolean;
  /** First height whose blocks must be merge-mined (AuxPoW version); legacy blocks rejected from here. */
  readonly auxpowStartHeight: number;
  /** AuxPoW chain ID carried in `version >> 16`. */
  readonly auxpowChainId: number;
  /** Enforce the chain ID on non-legacy headers and forbid it on AuxPoW parents. */
  readonly strictChainId: boolean;
  /** Highest allowed target, and its compact form. */
  readonly powLimit: bigint;
  readonly powLimitBits: number;
  /** Target block spacing in seconds. */
  readonly targetSpacing: number;
  readonly dnsSeeds: readonly string[];
  readonly checkpoints: readonly Checkpoint[];
}

const POW_LIMIT_MAIN = (1n << 236n) - 1n; // 0x00000fff...ff
const POW_LIMIT_REGTEST = (1n << 255n) - 1n; // 0x7fff...ff

export const MAINNET: Network = Object.freeze({
  name: 'mainnet',
  pubKeyHash: 0x1e,
  scriptHash: 0x16,
  wif: 0x9e,
  bip32: Object.freeze({ public: 0x02facafd, private: 0x02fac398 }),
  bip44CoinType: 3,
  magic: 'c0c0c0c0',
  port: 22556,
  rpcPort: 22555,
  genesisHash: '1a91e3dace36e2be3bf030a65679fe821aa1d6ef92e7c9902eb318182c355691',
  genesisOverridden: false,
  auxpowStartHeight: 371337,
  auxpowChainId: 0x62,
  strictChainId: true,
  powLimit: POW_LIMIT_MAIN,
  powLimitBits: 0x1e0fffff,
  targetSpacing: 60,
  dnsSeeds: Object.freeze(['seed.multidoge.org', 'seed2.multidoge.org']),
  checkpoints: MAINNET_CHECKPOINTS,
} as const);

export const TESTNET: Network = Object.freeze({
  name: 'testnet',
  pubKeyHash: 0x71,
  scriptHash: 0xc4,
  wif: 0xf1,
  bip32: Object.freeze({ public: 0x043587cf, private: 0x04358394 }),
  bip44CoinType: 1,
  magic: 'fcc1b7dc',
  port: 44556,
  rpcPort: 44555,
  genesisHash: 'bb0a78264637406b6360aad926284d544d7049f45189db5664f3c4d07350559e',
  genesisOverridden: false,
  auxpowStartHeight: 158100,
  auxpowChainId: 0x62,
  strictChainId: false,
  powLimit: POW_LIMIT_MAIN,
  powLimitBits: 0x1e0fffff,
  targetSpacing: 60,
  dnsSeeds: Object.freeze(['testseed.jrn.me.uk']),
  checkpoints: TESTNET_CHECKPOINTS,
} as const);

export const REGTEST: Network = Object.freeze({
  name: 'regtest',
  pubKeyHash: 0x6f,
  scriptHash: 0xc4,
  wif: 0xef,
  bip32: Object.freeze({ public: 0x043587cf, private: 0x04358394 }),
  bip44CoinType: 1,
  magic: 'fabfb5da',
  port: 18444,
  rpcPort: 18332,
  genesisHash: '3d2160a3b5dc4a9d62e7e66a295f70313ac808440ef7400d6c0772171ce973a5',
  genesisOverridden: false,
  auxpowStartHeight: 20,
  auxpowChainId: 0x62,
  strictChainId: true,
  powLimit: POW_LIMIT_REGTEST,
  powLimitBits: 0x207fffff,
  targetSpacing: 60,
  dnsSeeds: Object.freeze([]),
  checkpoints: Object.freeze([]),
} as const);

export const NETWORKS: Readonly<Record<NetworkName, Network>> = Object.freeze({
  mainnet: MAINNET,
  testnet: TESTNET,
  regtest: REGTEST,
});

export function isNetworkName(name: unknown): name is NetworkName {
  return name === 'mainnet' || name === 'testnet' || name === 'regtest';
}

export interface NetworkOptions {
  /**
   * Genesis hash override (display hex). Only regtest may take a different genesis: it is how
   * the tests run against a Litecoin regtest node. A different genesis is a foreign chain, so
   * its checkpoints are dropped and, unless `strictChainId` says otherwise, the chain ID is not
   * enforced (Litecoin blocks carry no Dogecoin chain ID).
   */
  genesisHash?: string;
  /** Override the chain-ID rule. */
  strictChainId?: boolean;
}

/** Network parameters by name, with an optional genesis override. Always returns a frozen object. */
export function getNetwork(name: NetworkName, opts: NetworkOptions = {}): Network {
  if (!isNetworkName(name)) throw new NetworkError('unknown-network', `unknown network ${String(name)}`);
  const base = NETWORKS[name];
  let net: Network = base;
  if (opts.genesisHash !== undefined) {
    if (!isHex(opts.genesisHash, 32)) throw new NetworkError('genesis', 'genesis hash must be 64 hex digits');
    const genesisHash = opts.genesisHash.toLowerCase();
    if (genesisHash !== base.genesisHash) {
      if (name !== 'regtest') throw new NetworkError('genesis', `a genesis override is only allowed on regtest, not ${name}`);
      net = { ...base, genesisHash, genesisOverridden: true, strictChainId: false, checkpoints: [] };
    }
  }
  if (opts.strictChainId !== undefined && opts.strictChainId !== net.strictChainId) net = { ...net, strictChainId: opts.strictChainId };
  return net === base ? base : Object.freeze(net);
}
