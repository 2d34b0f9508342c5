// Watching the node's mempool (ChainBackend.mempoolNewTxs, mempoolDropped, inMempool): the txs the
// node announced over P2P (announcements.ts) or the fast poll found (mempool-poll.ts) first, then
// a `getrawmempool` diff; and which watched txs left the mempool without being mined or replaced.
//
// The diff is gated by a cheap change check (docs/live.md#a-node-that-does-not-whitelist-counter):
// `getmempoolinfo` (size, bytes, memory usage) and `getbestblockhash` in one request cost the node
// the same whatever its mempool's size, while `getrawmempool` lists every txid. The full list is
// asked only when that mark changed, and at least every FULL_DIFF_MS from the tick, in case two
// changes cancelled out in the mark.
import type { BlockTxSummary, Outpoint } from '../backend';
import { MempoolQueue } from '../mempool-queue';
import { RPC_CODES, RpcError, type RpcBatchItem } from './client';
import { arr, hash, obj, txShape } from './answers';
import type { TxShape } from '../tx-facts';
import type { RpcRbfAncestry } from './ancestry';
import { itemResult, type RpcNode } from './node';

/** Txs fetched per getrawtransaction batch (one batch in flight at a time). */
const FETCH_BATCH = 200;
/** The tick's own diff lists the whole mempool at least this often, whatever the mark says. */
const FULL_DIFF_MS = 10_000;

export class RpcMempoolWatch {
  /** Mempool txids already handed over (returned by newTxs or queued). */
  private seen = new Set<string>();
  /** dropped(): when each tx was first found missing (cleared when it is seen again). */
  private readonly missingSince = new Map<string, number>();
  /** The change check's mark at the last diff that succeeded; null: list the mempool next time. */
  private mark: string | null = null;
  /** When the last diff listed the whole mempool (0: never: the first one is the tick's). */
  private lastFullAt = 0;
  /** Diffs run one at a time (the fast poll and the tick share `seen`). */
  private lock: Promise<unknown> = Promise.resolve();
  /** Whether a fast poll keeps the mark fresh (then the tick's diff is gated too). */
  polling = false;
  /** Times the mempool was listed (getrawmempool), for the benchmark's figures. */
  lists = 0;

  /**
   * @param queue txs handed over between ticks (the P2P announcements' queue when there is one).
   * @param ancestry the RBF signal of each new tx's unconfirmed ancestors (docs/security.md).
   */
  constructor(
    private readonly node: RpcNode,
    readonly queue: MempoolQueue = new MempoolQueue(),
    private readonly ancestry: RpcRbfAncestry,
  ) {}

  /** Hands over the queued txs (announced, or found by the poll), and keeps the diff from fetching them again. */
  takeQueued(): BlockTxSummary[] {
    const txs = this.queue.drain();
    for (const t of txs) this.seen.add(t.txid);
    return txs;
  }

  async inMempool(txid: string): Promise<boolean> {
    try {
      await this.node.call('getmempoolentry', txid);
      return true;
    } catch (err) {
      // -5 "Transaction not in mempool"; -8 for a malformed txid.
      if (err instanceof RpcError && (err.code === RPC_CODES.INVALID_ADDRESS_OR_KEY || err.code === RPC_CODES.INVALID_PARAMETER))
        return false;
      throw err;
    }
  }

  /** The tick's call: everything new since the last call, the queue included. */
  async newTxs(): Promise<BlockTxSummary[]> {
    const fresh = await this.serial(async () => this.diff(!this.polling || Date.now() - this.lastFullAt >= FULL_DIFF_MS));
    return [...this.takeQueued(), ...fresh];
  }

  /**
   * The fast poll's call: new txs are queued (which wakes the worker, docs/live.md). Waits for
   * the tick's first diff, which hands over a node's whole mempool at once rather than through
   * the bounded queue.
   */
  async poll(): Promise<number> {
    if (this.lastFullAt === 0) return 0;
    return this.serial(async () => {
      const txs = await this.diff(false);
      for (const t of txs) this.queue.push(t);
      return txs.length;
    });
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const r = this.lock.then(fn);
    this.lock = r.catch(() => undefined);
    return r;
  }

  /** The mempool's mark: asked before the list, so a change after it is seen by the next check. */
  private async currentMark(): Promise<string> {
    const [info, best] = await this.node.batch([
      { method: 'getmempoolinfo', params: [] },
      { method: 'getbestblockhash', params: [] },
    ]);
    const i = obj(itemResult(info!), 'getmempoolinfo');
    return `${String(i.size)}/${String(i.bytes)}/${String(i.usage)}/${String(itemResult(best!))}`;
  }

  /** Lists the mempool (unless `force` is false and the mark is unchanged) and fetches the txids not handed over yet. */
  private async diff(force: boolean): Promise<BlockTxSummary[]> {
    const mark = await this.currentMark();
    if (!force && mark === this.mark) return [];
    const listed = arr(await this.node.call('getrawmempool'), 'getrawmempool');
    this.lists++;
    // Queued (announced over P2P, or found by the poll) and not drained yet: handed over through
    // the queue. A tx drained earlier that left the mempool and came back (a reorg) is fetched again.
    const pending = this.queue.pendingIds();
    const ids: string[] = [];
    const fresh: string[] = [];
    for (let i = 0; i < listed.length; i++) {
      const t = String(listed[i]);
      // Only the txids not seen before are checked: a large mempool's steady state is set lookups.
      if (this.seen.has(t)) ids.push(t);
      else {
        const id = hash(t, `getrawmempool[${i}]`);
        ids.push(id);
        if (!this.seen.has(id) && !pending.has(id)) fresh.push(id);
      }
    }
    const out: TxShape[] = [];
    const got = new Set<string>();
    for (let i = 0; i < fresh.length; i += FETCH_BATCH) {
      const items = await this.node.batch(fresh.slice(i, i + FETCH_BATCH).map((t) => ({ method: 'getrawtransaction', params: [t, true] })));
      items.forEach((item, j) => {
        // A tx that left the mempool meanwhile: skipped (a block shows it if it was mined).
        if (!item.ok) return;
        out.push(txShape(item.result, j).tx);
        got.add(fresh[i + j]!);
      });
    }
    // Their ancestors' signals first: a failure leaves them unseen (and the mark old), for the next call.
    const facts = await this.ancestry.facts(out);
    // Txs queued meanwhile (announced over P2P while this ran) stay seen.
    const queued = this.queue.pendingIds();
    this.seen = new Set(ids.filter((t) => this.seen.has(t) || got.has(t) || queued.has(t)));
    this.mark = mark;
    this.lastFullAt = Date.now();
    return facts;
  }
  async dropped(txs: { txid: string; inputs: Outpoint[] }[], processedTip: string, graceMs = 3_000): Promise<string[]> {
    // Each watched tx is asked for by id (getmempoolentry), not found in the whole list: the cost
    // follows the few txs awaiting a block, not the mempool's size (docs/live.md). The best block
    // is asked after them in the same batch (Core runs a batch in order): if it is still the one
    // the worker processed, a tx absent from the mempool was neither there nor in an unprocessed block.
    const ids = [...new Set(txs.map((t) => t.txid))];
    const items = await this.node.batch([
      ...ids.map((t) => ({ method: 'getmempoolentry', params: [t] })),
      { method: 'getbestblockhash', params: [] },
    ]);
    const pool = new Set(ids.filter((_, i) => inPool(items[i]!)));
    const best = String(itemResult(items[ids.length]!));
    const now = Date.now();
    const asked = new Set(ids);
    for (const t of [...this.missingSince.keys()]) if (!asked.has(t) || pool.has(t)) this.missingSince.delete(t);
    if (best !== processedTip) return [];
    const gone: { txid: string; inputs: Outpoint[] }[] = [];
    for (const t of txs) {
      if (pool.has(t.txid)) continue;
      const since = this.missingSince.get(t.txid);
      if (since === undefined) this.missingSince.set(t.txid, now);
      else if (now - since >= graceMs) gone.push(t);
    }
    const dropped: string[] = [];
    for (const t of gone) {
      const replaced = await this.wasReplaced(t.inputs);
      this.missingSince.delete(t.txid);
      if (!replaced) dropped.push(t.txid);
    }
    return dropped;
  }

  /**
   * Replaced: an input is spent by a mempool tx (it is in the chain's UTXO set or its tx is in
   * the mempool, yet the mempool-aware view has it spent). A parent that is itself gone (only
   * -txindex or the wallet remember it) is no conflict.
   */
  private async wasReplaced(inputs: Outpoint[]): Promise<boolean> {
    if (!inputs.length) return false;
    const probes = await this.node.batch(
      inputs.flatMap((o) => [
        { method: 'gettxout', params: [o.txid, o.vout, true] },
        { method: 'gettxout', params: [o.txid, o.vout, false] },
        { method: 'getmempoolentry', params: [o.txid] },
      ]),
    );
    return inputs.some((o, k) => {
      const withPool = probes[3 * k]!;
      const chainOnly = probes[3 * k + 1]!;
      const spentInPool = withPool.ok && withPool.result === null;
      return spentInPool && ((chainOnly.ok && chainOnly.result !== null) || inPool(probes[3 * k + 2]!));
    });
  }
}

/** A getmempoolentry answer: in the mempool, or not (-5 not in mempool, -8 a malformed txid); other errors are thrown. */
function inPool(item: RpcBatchItem): boolean {
  if (item.ok) return true;
  if (item.error.code === RPC_CODES.INVALID_ADDRESS_OR_KEY || item.error.code === RPC_CODES.INVALID_PARAMETER) return false;
  throw item.error;
}
