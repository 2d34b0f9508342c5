// What a disconnected block does to the RBF signal of the txs it leaves unconfirmed
// (docs/security.md): its txs go back to the mempool, so a tx spending one of them now has an
// unconfirmed parent, and inherits the parent's replace-by-fee signal. A tx first seen in that
// block, or seen in the mempool while its parent was mined, recorded no such signal: without
// this rule, a payment relying on it kept its 0-conf until the next mempool report.
import type { BlockTxSummary } from '../chain/backend';

/**
 * The disconnected block's txs as the backend could read them. `txCount` is the block's own
 * count: fewer txs than that (spv's filtered blocks) means some parents are unknown.
 */
export interface DisconnectedTxs {
  txs: readonly BlockTxSummary[];
  txCount: number;
}

/** A payment_tx row left unmined: its txid and the outpoints it spends (`txid:vout`). */
export interface UnminedRow {
  txid: string;
  inputs: string[];
}

export interface DisconnectAncestry {
  /** Whether a row this block unmined now has a replaceable (or unknown) unconfirmed parent. */
  unminedInherits(row: UnminedRow): boolean;
  /**
   * The outpoints of the block's replaceable txs: an unmined row spending one (a tx already in
   * the mempool whose parent this block held) inherits the signal.
   */
  replaceableOutpoints: string[];
}

const parentOf = (outpoint: string) => outpoint.slice(0, outpoint.lastIndexOf(':'));

/**
 * The block's txs that are replaceable once unmined, as Dogecoin Core decides it (BIP125): own
 * signal, or a parent in the same block that is. A parent outside the block stays confirmed (the
 * blocks below are still connected), unless the block is known only in part (or not at all), when
 * any parent the block's known txs do not hold may have been in it, and is taken as replaceable,
 * the way spv answers a parent it never saw (lib/chain/rbf-ancestry.ts).
 */
export function disconnectAncestry(block: DisconnectedTxs | null): DisconnectAncestry {
  const txs = block?.txs ?? [];
  const complete = block !== null && txs.length >= block.txCount;
  const byId = new Map(txs.map((t) => [t.txid, t]));
  const replaceable = new Map<string, boolean>();
  const outside = !complete;
  const decide = (txid: string, path: Set<string>): boolean => {
    const known = replaceable.get(txid);
    if (known !== undefined) return known;
    const t = byId.get(txid);
    if (!t) return outside;
    if (path.has(txid)) return false; // a cycle cannot happen in a valid block
    path.add(txid);
    const r = t.signalsRbf || t.inputs.some((i) => decide(i.txid, path));
    replaceable.set(txid, r);
    return r;
  };
  for (const t of txs) decide(t.txid, new Set());
  return {
    unminedInherits: (row) => row.inputs.some((o) => decide(parentOf(o), new Set())),
    replaceableOutpoints: txs.filter((t) => replaceable.get(t.txid)).flatMap((t) => t.outputs.map((o) => `${t.txid}:${o.n}`)),
  };
}
