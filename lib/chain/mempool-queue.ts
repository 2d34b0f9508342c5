// Loose mempool txs a backend was handed (spv: the txs its bloom filter brings outside a
// merkleblock), kept until the chain worker drains them through ChainBackend.mempoolNewTxs
// (docs/api.md#payments-from-any-wallet). Bounded: past `max` the oldest are dropped (a block still
// shows them, when mined). Each txid is queued once per `remember` txids.
//
// spv wiring (lib/chain/spv/backend.ts, left to its owner): in onTx's non-block branch,
// `this.loose.push({ ...summarize(txid, tx), raw: payload })`, and
// `async mempoolNewTxs() { return this.loose.drain(); }` on the backend object.
import type { BlockTxSummary } from './backend';

export class MempoolQueue {
  private queue: BlockTxSummary[] = [];
  private seen = new Set<string>();

  constructor(private readonly max = 10_000, private readonly remember = 50_000) {}

  push(tx: BlockTxSummary): void {
    if (this.seen.has(tx.txid)) return;
    if (this.seen.size >= this.remember) this.seen.clear();
    this.seen.add(tx.txid);
    this.queue.push(tx);
    if (this.queue.length > this.max) this.queue.splice(0, this.queue.length - this.max);
  }

  drain(): BlockTxSummary[] {
    const out = this.queue;
    this.queue = [];
    return out;
  }
}
