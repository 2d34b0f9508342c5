// Loose mempool txs a backend was handed (spv: the txs its bloom filter brings outside a
// merkleblock; rpc: the txs its node announces on the P2P side), kept until the chain worker
// drains them (docs/api.md#payments-from-any-wallet). A push wakes the worker's listeners
// (ChainBackend.onMempoolTx), so a tx is handled as it arrives (docs/live.md). Bounded: past
// `max` the oldest are dropped (a block still shows them, when mined). Each txid is queued
// once per `remember` txids.
import type { BlockTxSummary } from './backend';

export class MempoolQueue {
  private queue: BlockTxSummary[] = [];
  private seen = new Set<string>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly max = 10_000,
    private readonly remember = 50_000,
  ) {}

  push(tx: BlockTxSummary): void {
    if (this.seen.has(tx.txid)) return;
    if (this.seen.size >= this.remember) this.seen.clear();
    this.seen.add(tx.txid);
    this.queue.push(tx);
    if (this.queue.length > this.max) this.queue.splice(0, this.queue.length - this.max);
    for (const l of this.listeners) l();
  }

  /** Whether this txid was queued recently (it need not be fetched again). */
  has(txid: string): boolean {
    return this.seen.has(txid);
  }

  /** The txids pushed and not drained yet. */
  pendingIds(): Set<string> {
    return new Set(this.queue.map((t) => t.txid));
  }

  /** Calls `wake` after each push; returns the function that stops it. */
  onPush(wake: () => void): () => void {
    this.listeners.add(wake);
    return () => void this.listeners.delete(wake);
  }

  drain(): BlockTxSummary[] {
    const out = this.queue;
    this.queue = [];
    return out;
  }
}
