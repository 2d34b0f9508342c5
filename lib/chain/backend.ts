// The interface every chain backend (spv, rpc, devnet) implements (docs/architecture.md#chain-backends). The chain
// worker and the relay depend only on this.
import type { TxFacts } from './tx-facts';

export type { TxFacts, TxInput } from './tx-facts';

/** The backend cannot be reached right now: callers answer 503 and change no state. */
export class BackendUnavailableError extends Error {
  constructor(
    message: string,
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'BackendUnavailableError';
  }
}

/**
 * Matches by name as well as by class: Next.js may bundle this module into more than one
 * chunk (instrumentation vs route handlers), and a class check alone would then miss.
 */
export function isBackendUnavailable(e: unknown): e is BackendUnavailableError {
  return e instanceof BackendUnavailableError || (e instanceof Error && e.name === 'BackendUnavailableError');
}

export interface Outpoint {
  txid: string; // display-order hex
  vout: number;
}

/** What the backend knows about one input being spent. */
export type InputLookup =
  | { state: 'unspent'; value: bigint; script: string } // script: hex scriptPubKey
  | { state: 'spent' } // exists but already spent (chain or mempool)
  | { state: 'missing' }; // unknown outpoint

export type BroadcastResult =
  { ok: true; txid: string } | { ok: false; reason: string; code?: 'double_spend' | 'missing_inputs' | 'rejected' | 'already_known' };

export interface TipInfo {
  height: number;
  hash: string;
}

/** A tx as the worker sees it: built by txFacts (tx-facts.ts) on every path, RBF signal included. */
export type BlockTxSummary = TxFacts;

export interface BlockSummary {
  hash: string;
  prevHash: string;
  height: number;
  time: number;
  header: Uint8Array; // the 80-byte header
  size: number; // serialized block size in bytes
  txCount: number;
  totalTxSize: number; // sum of serialized tx sizes
  /** The transactions the backend can see: all of them (rpc, devnet) or the filtered ones (spv). */
  txs: BlockTxSummary[];
}

export interface ChainBackend {
  readonly name: 'spv' | 'rpc' | 'devnet';
  /** True when the backend can look up input values (the relay's fee rule needs it). */
  readonly canLookupInputs: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
  tip(): Promise<TipInfo>;
  /** Hash of the best-chain block at height, or null above the tip. */
  blockHashAt(height: number): Promise<string | null>;
  block(hash: string): Promise<BlockSummary>;
  /** Look up inputs, mempool-aware. Throws BackendUnavailableError. */
  lookupInputs(outpoints: Outpoint[]): Promise<InputLookup[]>;
  /** Broadcast a raw tx. Network rejections are results; unreachability throws BackendUnavailableError. */
  broadcast(txHex: string): Promise<BroadcastResult>;
  /**
   * The facts of a tx the backend holds unconfirmed (a /relay/pay tx it just broadcast), its RBF
   * signal including its unconfirmed ancestors' (tx-facts.ts). Throws BackendUnavailableError.
   */
  mempoolTxFacts(raw: Uint8Array): Promise<TxFacts>;
  /** Whether the tx is currently in the backend's mempool (or known unconfirmed). */
  inMempool(txid: string): Promise<boolean>;
  /**
   * The txs that entered the mempool since the previous call (the first call: the whole
   * mempool), so that payments from any wallet are seen in seconds (docs/api.md#payments-from-any-wallet). rpc diffs
   * getrawmempool, devnet reads its own mempool, spv returns the txs its bloom filter brought.
   * Called by the chain worker only, at least every 2 s.
   */
  mempoolNewTxs?(): Promise<BlockTxSummary[]>;
  /**
   * Mempool txs pushed to the backend (P2P: spv's filter, rpc's announcement connection), so
   * that a plain-wallet payment is handled as it arrives, not at the next tick (docs/live.md).
   * `onMempoolTx` calls `wake` (synchronously, often: the caller coalesces) when one arrived;
   * `takePushedTxs` hands over those not yet handed over, by this or by mempoolNewTxs.
   */
  onMempoolTx?(wake: () => void): () => void;
  takePushedTxs?(): BlockTxSummary[];
  /**
   * Of these txs (the worker counts them as unmined), the ones the node dropped: not in its
   * mempool, while its best block is `processedTip` (so no unprocessed block can hold them), in
   * two checks at least `graceMs` apart, and not replaced (no input spent by a mempool tx: a
   * replacement is a double spend, decided when a block mines it). rpc only.
   */
  mempoolDropped?(txs: { txid: string; inputs: Outpoint[] }[], processedTip: string, graceMs?: number): Promise<string[]>;
  /** Connected peers (1 for rpc when reachable). */
  peers(): Promise<number>;
  /**
   * Backends that keep chain_header themselves (spv): the follower then walks the stored best
   * chain with a processed-block cursor instead of copying the backend's chain.
   */
  readonly ownsHeaderStore?: boolean;
  /** Several blocks at once (spv: one getdata of filtered blocks). */
  blocks?(hashes: string[]): Promise<BlockSummary[]>;
  /** Reload what the backend watches (spv: the bloom filter) when the wallet changed. */
  refreshWatch?(): Promise<boolean>;
  /** Header sync progress for /api/health and the back office. */
  syncStatus?(): SyncStatus;
}

export interface SyncStatus {
  headerHeight: number;
  /** Best height the peers announced. */
  peerHeight: number;
  peers: number;
  headersPerSec: number;
  synced: boolean;
}
