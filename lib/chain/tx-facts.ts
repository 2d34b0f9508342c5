// The facts about one tx that every path hands the payment core (docs/architecture.md#chain-backends):
// `/relay/pay`, each backend's mempool and block feeds, the rpc backend's P2P announcements,
// rescans. They are built here and nowhere else, so a path cannot skip a rule: the RBF signal in
// particular is required by the type and always includes the unconfirmed ancestors
// (docs/security.md).
import { hashToHex, sha256d, toHex, isCoinbase, parseTx, SEQUENCE_RBF_THRESHOLD, type RawTx } from '../doge';

/** An input of a tx the worker sees: the outpoint it spends and, when the backend has it, its scriptSig. */
export interface TxInput {
  txid: string; // display-order hex
  vout: number;
  /**
   * The scriptSig in hex. Every backend sets it (the refund rule reads from it whose coin the
   * input spends: lib/payments/refund-match.ts); an input without one is taken to spend anything.
   */
  scriptSig?: string;
}

export interface TxFacts {
  txid: string;
  inputs: TxInput[]; // empty for coinbase
  outputs: { n: number; value: bigint; script: string }[];
  /** The serialized transaction, when the backend has it (the wallet file stores wallet txs). */
  raw?: Uint8Array;
  /**
   * Replaceable the way Dogecoin Core 1.14 decides it (BIP125): an input's nSequence is below
   * 0xfffffffe, or an unconfirmed ancestor's is (replacing the ancestor evicts this tx). Such a
   * tx never gets 0-conf, whichever path brought it (docs/security.md).
   */
  signalsRbf: boolean;
  /**
   * The tx's position in its block (0 = coinbase). spv sets it from the merkleblock's match
   * index; when absent, the position in `txs` is used (rpc and devnet hand over every tx).
   */
  index?: number;
}

/** A tx as a backend read it, before its ancestry is known: raw bytes or the node's JSON. */
export interface TxShape {
  txid: string;
  coinbase: boolean;
  inputs: (TxInput & { sequence: number })[];
  outputs: { n: number; value: bigint; script: string }[];
  raw?: Uint8Array;
  index?: number;
}

/**
 * What is known of a tx's parents. `mined`: the tx is in a block, so it has no unconfirmed
 * ancestor. Otherwise, for each parent txid: true when it is unconfirmed and replaceable (it or
 * one of its unconfirmed ancestors signals), false when it is confirmed or unconfirmed and final.
 * A backend that cannot tell answers true (docs/security.md).
 */
export type Parents = 'mined' | ((parentTxid: string) => boolean);

/** Only the tx's own inputs: BIP125's direct signal. */
export function signalsDirectly(t: Pick<TxShape, 'coinbase' | 'inputs'>): boolean {
  return !t.coinbase && t.inputs.some((i) => i.sequence >>> 0 < SEQUENCE_RBF_THRESHOLD);
}

/** The one builder of TxFacts. */
export function txFacts(t: TxShape, parents: Parents): TxFacts {
  const own = signalsDirectly(t);
  const inherited = !t.coinbase && parents !== 'mined' && !own && t.inputs.some((i) => parents(i.txid));
  return {
    txid: t.txid,
    inputs: t.coinbase ? [] : t.inputs.map(({ sequence: _s, ...i }) => i),
    outputs: t.outputs,
    signalsRbf: own || inherited,
    ...(t.raw ? { raw: t.raw } : {}),
    ...(t.index !== undefined ? { index: t.index } : {}),
  };
}

/** A parsed tx's shape (txid given: the caller hashed the bytes it received). */
export function shapeOfParsed(txid: string, tx: RawTx, raw?: Uint8Array): TxShape {
  return {
    txid,
    coinbase: isCoinbase(tx),
    inputs: tx.inputs.map((i) => ({
      txid: hashToHex(i.prevTxid),
      vout: i.vout,
      scriptSig: toHex(i.scriptSig),
      sequence: i.sequence >>> 0,
    })),
    outputs: tx.outputs.map((o, n) => ({ n, value: o.value, script: toHex(o.script) })),
    ...(raw ? { raw } : {}),
  };
}

/** A serialized (legacy, witness-free) tx's shape. */
export function shapeOfRaw(raw: Uint8Array): TxShape {
  return shapeOfParsed(hashToHex(sha256d(raw)), parseTx(raw), raw);
}

/**
 * Orders a batch so that a parent comes before its children (the mempool feeds hand txs in any
 * order; a child's inherited signal needs its parent's first). Stable otherwise.
 */
export function parentsFirst<T extends { txid: string; inputs: { txid: string }[] }>(txs: T[]): T[] {
  const byId = new Map(txs.map((t) => [t.txid, t]));
  const out: T[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (t: T) => {
    if (state.has(t.txid)) return;
    state.set(t.txid, 'visiting');
    for (const i of t.inputs) {
      const p = byId.get(i.txid);
      if (p && p !== t) visit(p);
    }
    state.set(t.txid, 'done');
    out.push(t);
  };
  for (const t of txs) visit(t);
  return out;
}
