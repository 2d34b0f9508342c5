// The `devnet` chain backend (docs/architecture.md#chain-backends): DevnetChain behind the ChainBackend interface,
// mining on a timer and on request, persisted in DATA_DIR/devnet so that a restart (e.g. of
// `npm run demo`) continues the same chain: the demo wallet key, every block (one hex line
// each, append-only) and the mempool. Never runs on mainnet.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hash160, toHex, encodeAddress, pubkeyToAddress, type Network, encodeWif } from '../../doge';
import { log } from '../../log';
import type { BlockTxSummary, ChainBackend, InputLookup, Outpoint } from '../backend';
import { txSummary } from './chain';
import { shapeOfRaw, txFacts } from '../tx-facts';
import { DevnetStore, type DevnetState } from './store';
import { DevnetBroadcaster } from './broadcast';

export interface DevnetOptions {
  network: Network;
  /** Directory for the chain files (DATA_DIR/devnet). */
  dir: string;
  /** Mine a block every this many seconds; 0 = only on request. */
  blockSeconds: number;
}

export interface DevnetWalletInfo {
  address: string;
  /**
   * The address the demo wallet gives as its `refund` address with /relay/pay: not its own. A
   * refund is never paid by a tx that spends its address's coins (docs/security.md), and in the
   * demo the same wallet plays the customer and the merchant who pays the refund back.
   */
  refundAddress: string;
  wif: string;
  balance: bigint;
  utxos: { txid: string; vout: number; amount: bigint; script: string; address: string; confirmations: number }[];
}

/** The devnet-only controls used by the demo (and its tests). */
export interface DevnetControls {
  mine(blocks?: number): Promise<string[]>;
  demoWallet(): DevnetWalletInfo;
}

export type DevnetBackend = ChainBackend & DevnetControls;

/** The devnet controls of a backend, or null for any other backend (duck-typed across bundles). */
export function asDevnet(chain: ChainBackend): DevnetBackend | null {
  return chain.name === 'devnet' && typeof (chain as Partial<DevnetControls>).mine === 'function' ? (chain as DevnetBackend) : null;
}

/** The demo customer's refund address: hash160 of "counter devnet refunds", whose key nobody holds. */
const REFUND_HASH = hash160(new TextEncoder().encode('counter devnet refunds'));

/** The backend: the files (store.ts), the ordered broadcast (broadcast.ts) and a miner on a timer. */
export function createDevnetBackend(opts: DevnetOptions): DevnetBackend {
  if (opts.network.name === 'mainnet') throw new Error('the devnet backend never runs with DOGE_NETWORK=mainnet');
  const store = new DevnetStore(opts.dir);
  const broadcaster = new DevnetBroadcaster(store);
  const chain = () => store.load().chain;
  let timer: ReturnType<typeof setInterval> | undefined;
  /** The mempool txids mempoolNewTxs has already returned (docs/api.md#payments-from-any-wallet: its own mempool). */
  let mempoolSeen = new Set<string>();

  const backend: DevnetBackend = {
    name: 'devnet',
    canLookupInputs: true,
    async start() {
      store.load();
      if (opts.blockSeconds > 0 && !timer) timer = startMiner(store, opts.blockSeconds);
      log.info('devnet chain ready', {
        height: chain().tip!.height,
        blockSeconds: opts.blockSeconds,
        wallet: backend.demoWallet().address,
      });
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await broadcaster.close();
    },
    async tip() {
      const t = chain().tip!;
      return { height: t.height, hash: t.hash };
    },
    async blockHashAt(height: number) {
      if (!Number.isSafeInteger(height) || height < 0) throw new RangeError(`invalid block height ${height}`);
      return chain().blocks[height]?.hash ?? null;
    },
    async block(hash: string) {
      const b = chain().blockByHash(hash);
      if (!b) throw new Error(`devnet has no block ${hash}`);
      return chain().summary(b);
    },
    async lookupInputs(outpoints: Outpoint[]): Promise<InputLookup[]> {
      const c = chain();
      return outpoints.map((o) => c.lookup(o));
    },
    broadcast: (txHex: string) => broadcaster.broadcast(txHex),
    async inMempool(txid: string) {
      return chain().mempool.has(txid.toLowerCase());
    },
    async mempoolNewTxs(): Promise<BlockTxSummary[]> {
      const c = chain();
      const pool = c.mempool;
      const fresh = [...pool.values()].filter((t) => !mempoolSeen.has(t.txid));
      mempoolSeen = new Set(pool.keys());
      return fresh.map((t) => txSummary(t, (parent) => c.replaceable(parent)));
    },
    async mempoolTxFacts(raw: Uint8Array) {
      const c = chain();
      return txFacts(shapeOfRaw(raw), (parent) => c.replaceable(parent));
    },
    async peers() {
      return 1;
    },
    async mine(blocks = 1) {
      const n = Math.max(1, Math.min(100, Math.floor(blocks)));
      const hashes: string[] = [];
      for (let i = 0; i < n; i++) hashes.push(store.mineOne());
      return hashes;
    },
    demoWallet: () => demoWallet(store.load(), opts.network),
  };
  return backend;
}

/** Mines a block every `seconds`; a failure is logged and the next tick tries again. */
function startMiner(store: DevnetStore, seconds: number): ReturnType<typeof setInterval> {
  const timer = setInterval(() => {
    try {
      store.mineOne();
    } catch (e) {
      log.error('devnet: mining failed', { error: e as Error });
    }
  }, seconds * 1000);
  timer.unref?.();
  return timer;
}

function demoWallet({ chain: c, walletKey, walletScript }: DevnetState, network: Network): DevnetWalletInfo {
  const tip = c.tip!.height;
  const address = pubkeyToAddress(secp256k1.getPublicKey(walletKey, true), network);
  const utxos = c.coinsOf(walletScript).map((u) => ({
    txid: u.txid,
    vout: u.vout,
    amount: u.value,
    script: toHex(walletScript),
    address,
    confirmations: u.height < 0 ? 0 : tip - u.height + 1,
  }));
  const refundAddress = encodeAddress('p2pkh', REFUND_HASH, network);
  return { address, refundAddress, wif: encodeWif(walletKey, true, network), balance: utxos.reduce((s, u) => s + u.amount, 0n), utxos };
}
