// What a disconnected block does to the RBF signal of the txs it leaves unconfirmed
// (docs/security.md): its txs go back to the mempool, so a tx spending one of them now has an
// unconfirmed parent, and inherits the parent's replace-by-fee signal. A tx first seen in that
// block, or seen in the mempool while its parent was mined, recorded no such signal: without
// this rule, a payment relying on it kept its 0-conf until the next mempool report.
import { type BlockTxSummary, parentsFirst } from '../chain';

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
  // A parent the block does not hold: confirmed below when the block is known whole, else unknown.
  const outside = !(block !== null && txs.length >= block.txCount);
  const replaceable = new Map<string, boolean>();
  const parentReplaceable = (txid: string) => replaceable.get(txid) ?? outside;
  // A block summary's signalsRbf is the tx's own signal (a mined tx inherits none); parents first,
  // so each tx reads its in-block parent's verdict.
  for (const t of parentsFirst([...txs])) replaceable.set(t.txid, t.signalsRbf || t.inputs.some((i) => parentReplaceable(i.txid)));
  return {
    unminedInherits: (row) => row.inputs.some((o) => parentReplaceable(parentOf(o))),
    replaceableOutpoints: txs.filter((t) => replaceable.get(t.txid)).flatMap((t) => t.outputs.map((o) => `${t.txid}:${o.n}`)),
  };
}
