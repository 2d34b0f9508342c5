// The spv node's side of P2P tx relay: the mempool txs peers relay to us (their inv, our
// getdata, the tx their filter matched: a plain-wallet payment seen in seconds), and our own
// broadcasts relayed to them (our inv, their getdata, their reject, their inv back as the
// evidence that a mempool holds it: broadcast.ts).
import { type RawTx } from '../../doge';
import { type Peer, INV_TX, decodeReject, encodeInv, type InvItem } from '../../p2p';
import { shapeOfParsed, shapeOfRaw, type TxFacts } from '../tx-facts';
import { RbfAncestry } from '../rbf-ancestry';
import type { BlockTxSummary, BroadcastResult } from '../backend';
import { MempoolQueue } from '../mempool-queue';
import { announceAndAwait, newOutgoing, type AnnounceContext, type Outgoing } from './broadcast';

export class TxRelay {
  private mempool = new Map<string, number>(); // txid -> first seen (ms)
  private loose = new MempoolQueue();
  /**
   * The unconfirmed txs the filter brought, replaceable or not. A parent never seen is taken as
   * replaceable: spv cannot tell a confirmed parent from one its filter did not match
   * (docs/security.md).
   */
  private ancestry = new RbfAncestry(() => true);
  private outgoing = new Map<string, Outgoing>();

  /**
   * Broadcast a tx (the peers are connected): registered so that getdata is served, announced,
   * and the evidence awaited (broadcast.ts). `context` is read once the tx is registered.
   */
  async broadcast(raw: Uint8Array, txid: string, context: () => AnnounceContext): Promise<BroadcastResult> {
    for (const [k, v] of this.outgoing) if (Date.now() - v.at > 3_600_000) this.outgoing.delete(k);
    const known = this.outgoing.get(txid);
    // A peer already announced it (a retry after a 503 whose evidence came late, or a tx the
    // wallet's own filter saw): that is the evidence.
    const seenAt = this.mempool.get(txid);
    if (known?.seen || (seenAt !== undefined && Date.now() - seenAt < 600_000)) return { ok: true, txid };
    const o = known ?? newOutgoing(raw);
    this.outgoing.set(txid, o);
    const r = await announceAndAwait(context(), txid, o);
    if (r.ok) this.mempool.set(txid, Date.now());
    return r;
  }

  /** The txids of our broadcasts still waiting for their evidence (a reloaded filter keeps them). */
  *unseenBroadcasts(): Iterable<string> {
    for (const [txid, o] of this.outgoing) if (!o.seen && Date.now() - o.at < 60_000) yield txid;
  }

  /** A peer's `inv` of txs: ours announced back is evidence; the others are asked for. */
  onInv(p: Peer, items: InvItem[]): void {
    for (const i of items) {
      const o = i.type === INV_TX ? this.outgoing.get(i.hash) : undefined;
      if (o) {
        // Ours, announced back: that peer holds it in its mempool.
        o.seen = true;
        o.wake();
        this.mempool.set(i.hash, Date.now());
      }
    }
    const want = items.filter((i) => i.type === INV_TX && !this.mempool.has(i.hash));
    if (want.length) p.send('getdata', encodeInv(want.slice(0, 1000)));
  }

  /** A peer's `getdata`: our broadcasts are served, anything else is notfound. */
  onGetData(p: Peer, items: InvItem[]): void {
    const missing: InvItem[] = [];
    for (const i of items) {
      const o = i.type === INV_TX ? this.outgoing.get(i.hash) : undefined;
      if (!o) {
        missing.push(i);
        continue;
      }
      p.send('tx', o.raw);
      o.requestedBy.add(p.id);
    }
    if (missing.length) p.send('notfound', encodeInv(missing));
  }

  /** A peer's `reject` of one of our broadcasts still waiting for evidence. */
  onReject(payload: Uint8Array): void {
    const r = decodeReject(payload);
    const o = r.hash ? this.outgoing.get(r.hash) : undefined;
    if (o && !o.seen) {
      o.reject = `${r.reason} (code ${r.code})`;
      o.wake();
    }
  }

  /** A `tx` no block matched: a mempool tx the filter brought. */
  onMempoolTx(txid: string, tx: RawTx, payload: Uint8Array): void {
    if (this.mempool.size > 50_000) this.mempool.clear();
    if (!this.mempool.has(txid)) this.mempool.set(txid, Date.now());
    this.loose.push(this.ancestry.mempool([shapeOfParsed(txid, tx, payload)])[0]!); // a plain-wallet payment, seen in seconds
  }

  /** A fetched block mined these txs: no longer in the mempool, no longer replaceable ancestors. */
  mined(txids: string[]): void {
    for (const txid of txids) this.mempool.delete(txid);
    this.ancestry.mined(txids);
  }

  inMempool(txid: string): boolean {
    return this.mempool.has(txid) || !!this.outgoing.get(txid)?.seen;
  }

  /** A tx this node broadcast: its facts from what the filter brought of its ancestors. */
  mempoolTxFacts(raw: Uint8Array): TxFacts {
    return this.ancestry.mempool([shapeOfRaw(raw)])[0]!;
  }

  /** The filter-matching mempool txs received since the last call. */
  drain(): BlockTxSummary[] {
    return this.loose.drain();
  }

  /** Calls `wake` as each filter-matching mempool tx arrives; returns the function that stops it. */
  onPush(wake: () => void): () => void {
    return this.loose.onPush(wake);
  }
}
