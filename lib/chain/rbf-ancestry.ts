// The unconfirmed txs a backend has seen that are replaceable (BIP125, directly or through an
// unconfirmed ancestor), for backends that cannot ask a node about a tx's ancestors (spv): a
// child of one inherits the signal (docs/security.md). A parent never seen here
// is answered by `unknown`: spv sees only the txs its filter matches, so it cannot tell a
// confirmed parent from an unconfirmed one it was never sent, and answers "replaceable".
import { parentsFirst, txFacts, type TxFacts, type TxShape } from './tx-facts';

/** Bound on remembered txs: a mempool larger than this forgets its oldest (as unknown parents). */
const MAX_REMEMBERED = 50_000;

export class RbfAncestry {
  /** Unconfirmed txids seen → replaceable; insertion order is age (the oldest is forgotten first). */
  private readonly seen = new Map<string, boolean>();

  constructor(
    private readonly unknown: (parentTxid: string) => boolean,
    private readonly max = MAX_REMEMBERED,
  ) {}

  /** Facts for unconfirmed txs, each remembered; parents in the batch are handled first. */
  mempool(shapes: TxShape[]): TxFacts[] {
    const facts = new Map<string, TxFacts>();
    for (const s of parentsFirst(shapes)) {
      const f = txFacts(s, (p) => this.seen.get(p) ?? this.unknown(p));
      this.remember(f.txid, f.signalsRbf);
      facts.set(s.txid, f);
    }
    return shapes.map((s) => facts.get(s.txid)!);
  }

  /** A tx known unconfirmed (one this backend broadcast): remembered like the ones it was sent. */
  remember(txid: string, replaceable: boolean): void {
    this.seen.delete(txid);
    this.seen.set(txid, replaceable);
    if (this.seen.size > this.max) this.seen.delete(this.seen.keys().next().value!);
  }

  /** Txs now in a block: confirmed, so a child inherits nothing from them. */
  mined(txids: Iterable<string>): void {
    for (const t of txids) this.remember(t, false);
  }
}
