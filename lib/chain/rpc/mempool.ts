// Watching the node's mempool (ChainBackend.mempoolNewTxs, mempoolDropped, inMempool): the txs the
// node announced over P2P (announcements.ts) first, then a `getrawmempool` diff as the safety
// net; and which watched txs left the mempool without being mined or replaced.
import type { BlockTxSummary, Outpoint } from '../backend';
import { RPC_CODES, RpcError } from './client';
import { arr, hash, txShape } from './answers';
import type { TxShape } from '../tx-facts';
import type { RpcRbfAncestry } from './ancestry';
import type { RpcNode } from './node';
import type { TxAnnouncements } from './announcements';

/** Txs fetched per getrawtransaction batch. */
const FETCH_BATCH = 200;

export class RpcMempoolWatch {
  /** Mempool txids newTxs has already returned. */
  private seen = new Set<string>();
  /** dropped(): when each tx was first found missing (cleared when it is seen again). */
  private readonly missingSince = new Map<string, number>();

  constructor(private readonly node: RpcNode, private readonly announced: TxAnnouncements | null, private readonly ancestry: RpcRbfAncestry) {}

  /** Hands over the txs the node announced, and keeps the getrawmempool diff from fetching them again. */
  takeAnnounced(): BlockTxSummary[] {
    const txs = this.announced?.queue.drain() ?? [];
    for (const t of txs) this.seen.add(t.txid);
    return txs;
  }

  async inMempool(txid: string): Promise<boolean> {
    try {
      await this.node.call('getmempoolentry', txid);
      return true;
    } catch (err) {
      // -5 "Transaction not in mempool"; -8 for a malformed txid.
      if (err instanceof RpcError && (err.code === RPC_CODES.INVALID_ADDRESS_OR_KEY || err.code === RPC_CODES.INVALID_PARAMETER)) return false;
      throw err;
    }
  }

  async newTxs(): Promise<BlockTxSummary[]> {
    const pushed = this.takeAnnounced();
    // Diff getrawmempool against the previous call: only the new txids are fetched.
    const ids = arr(await this.node.call('getrawmempool'), 'getrawmempool').map((t, i) => hash(String(t), `getrawmempool[${i}]`));
    const fresh = ids.filter((t) => !this.seen.has(t));
    const out: TxShape[] = [];
    const got = new Set<string>();
    for (let i = 0; i < fresh.length; i += FETCH_BATCH) {
      const items = await this.node.batch(fresh.slice(i, i + FETCH_BATCH).map((t) => ({ method: 'getrawtransaction', params: [t, true] })));
      items.forEach((item, j) => {
        // A tx that left the mempool meanwhile: skipped (a block shows it if it was mined).
        if (!item.ok) return;
        out.push(txShape(item.result, j).tx);
        got.add(fresh[i + j]);
      });
    }
    // Their ancestors' signals first: a failure leaves them unseen, for the next call.
    const facts = await this.ancestry.facts(out);
    this.seen = new Set(ids.filter((t) => this.seen.has(t) || got.has(t)));
    return [...pushed, ...facts];
  }

  async dropped(txs: { txid: string; inputs: Outpoint[] }[], processedTip: string, graceMs = 3_000): Promise<string[]> {
    const pool = new Set(arr(await this.node.call('getrawmempool'), 'getrawmempool').map((t) => String(t)));
    // Asked after the mempool: if the best block is still the one the worker processed, a tx
    // absent from that mempool was neither there nor in an unprocessed block.
    const best = String(await this.node.call('getbestblockhash'));
    const now = Date.now();
    const asked = new Set(txs.map((t) => t.txid));
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
      const replaced = await this.wasReplaced(t.inputs, pool);
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
  private async wasReplaced(inputs: Outpoint[], pool: Set<string>): Promise<boolean> {
    if (!inputs.length) return false;
    const probes = await this.node.batch(inputs.flatMap((o) => [
      { method: 'gettxout', params: [o.txid, o.vout, true] },
      { method: 'gettxout', params: [o.txid, o.vout, false] },
    ]));
    return inputs.some((o, k) => {
      const withPool = probes[2 * k]!;
      const chainOnly = probes[2 * k + 1]!;
      const spentInPool = withPool.ok && withPool.result === null;
      return spentInPool && ((chainOnly.ok && chainOnly.result !== null) || pool.has(o.txid));
    });
  }
}
