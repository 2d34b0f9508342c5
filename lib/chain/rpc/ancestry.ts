// rpc: a mempool tx's RBF signal includes its unconfirmed ancestors' (docs/security.md).
// Dogecoin Core 1.14 replaces a tx whose ancestor signals, evicting the tx with it, so the node is
// asked for the ancestors it holds (`getmempoolancestors`); each ancestor's own signal is read
// once (`getrawtransaction`, always answered for a mempool tx) and remembered. The node knows its
// whole mempool: no parent is unknown to it, unlike spv's filtered view.
import { arr, hash, txShape } from './answers';
import type { RpcNode } from './node';
import { signalsDirectly, txFacts, type TxFacts, type TxShape } from '../tx-facts';

/** Ancestors' own signals remembered, at most (the oldest forgotten first; forgotten ones are asked again). */
const MAX_REMEMBERED = 50_000;

export class RpcRbfAncestry {
  /** txid → whether its own inputs signal (a fact of the tx, true whether or not it is mined). */
  private readonly own = new Map<string, boolean>();

  constructor(private readonly node: RpcNode) {}

  /**
   * Facts for txs that were in the node's mempool. A tx the node no longer holds (mined or
   * dropped since) cannot be asked: it is taken as replaceable unless it signals nothing and
   * spends nothing unconfirmed that is known, the safe side for 0-conf.
   */
  async facts(shapes: TxShape[]): Promise<TxFacts[]> {
    for (const s of shapes) this.remember(s.txid, signalsDirectly(s));
    const ask = shapes.filter((s) => !s.coinbase && s.inputs.length && !signalsDirectly(s));
    if (!ask.length) return shapes.map((s) => txFacts(s, () => false));
    const answers = await this.node.batch(ask.map((s) => ({ method: 'getmempoolancestors', params: [s.txid] })));
    const ancestors = new Map<string, string[] | null>();
    answers.forEach((a, j) => {
      ancestors.set(
        ask[j]!.txid,
        a.ok ? arr(a.result, 'getmempoolancestors').map((t, k) => hash(String(t), `getmempoolancestors[${k}]`)) : null,
      );
    });
    await this.learn([...new Set([...ancestors.values()].flatMap((a) => a ?? []))].filter((t) => !this.own.has(t)));
    return shapes.map((s) => {
      const a = ancestors.get(s.txid);
      // null: the node no longer holds it, so cannot list its ancestors: replaceable, to be safe.
      const inherited = a === undefined ? false : a === null ? true : a.some((t) => this.own.get(t) ?? true);
      return txFacts(s, () => inherited);
    });
  }

  /** Reads the ancestors' own signals; one that left the mempool meanwhile stays unknown (replaceable). */
  private async learn(txids: string[]): Promise<void> {
    if (!txids.length) return;
    const got = await this.node.batch(txids.map((t) => ({ method: 'getrawtransaction', params: [t, true] })));
    got.forEach((g, j) => {
      if (g.ok) this.remember(txids[j]!, signalsDirectly(txShape(g.result, j).tx));
    });
  }

  private remember(txid: string, signals: boolean): void {
    this.own.delete(txid);
    this.own.set(txid, signals);
    if (this.own.size > MAX_REMEMBERED) this.own.delete(this.own.keys().next().value!);
  }
}
