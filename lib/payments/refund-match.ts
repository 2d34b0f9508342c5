// Which refund a transaction pays (docs/security.md "Which transaction pays a refund"). Pure.
//
// A refund pays the customer, at an address the store does not control: money arriving there
// proves nothing by itself (the customer's own change lands there too). A tx pays a refund only
// when all of these hold:
// - the sum of its outputs to the refund's address is exactly the refund's amount;
// - none of its inputs spends a coin of that address;
// - it was submitted through /relay/pay for that refund, or first seen after the refund was created.
// Among several refunds to one address that qualify: the one the tx was submitted for, else the
// oldest unpaid one; else (a fee bump, RBF) the paid one whose counted tx it replaces; else the
// oldest cancelled one (so that the merchant sees the money sent to it). Otherwise none. The
// candidates are the refunds to one address: a tx paying refunds at two addresses is asked once
// per address.
//
// Whose coin an input spends is read from the input itself, the same way on every backend
// (devnet, rpc and spv all hand over each input's scriptSig, while only some can look a spent
// prevout up): spending a P2PKH coin pushes, last, the public key whose HASH160 is the address's
// hash; spending a P2SH coin pushes, last, the redeem script whose HASH160 is. So an input with
// a push-only scriptSig spends a coin of an address exactly when the HASH160 of its last push
// is that address's hash. An input whose scriptSig is not push-only (non-standard: no node
// relays it) or is unknown may spend anything: it disqualifies the tx.
import { decodeAddress, decodeScript, fromHex, hash160, scriptToAddress, toHex, OP, type Network } from '../doge';

export interface MatchInput {
  /** "txid:vout" */
  prevout: string;
  /** The input's scriptSig in hex; undefined when the backend did not hand it over. */
  scriptSig?: string;
}

export interface MatchTx {
  txid: string;
  outputs: { value: bigint; script: string }[];
  inputs: MatchInput[];
  /** When the worker (or /relay/pay) first saw the tx. */
  firstSeen: Date;
  /** The refund whose /relay/pay submission this tx is, if any. */
  submittedFor: string | null;
}

export interface RefundCandidate {
  id: string;
  address: string;
  /** The refund's amount (koinu). */
  amount: bigint;
  status: string;
  createdAt: Date;
  /** Creation order (payment.seq): the oldest first. */
  seq: bigint;
  /** The outpoints spent by the txs this refund already counts ("txid:vout"). */
  spent: string[];
}

/**
 * HASH160 (hex) of the coin an input spends, from its scriptSig; null when it cannot be told
 * (no scriptSig, not push-only, or empty): such an input may spend any address's coin.
 */
export function spenderHash(scriptSig: string | undefined): string | null {
  if (scriptSig === undefined || scriptSig === '' || !/^([0-9a-fA-F]{2})+$/.test(scriptSig)) return null;
  let ops;
  try {
    ops = decodeScript(fromHex(scriptSig));
  } catch {
    return null;
  }
  if (!ops.length || ops.some((o) => o.op > OP.OP_16)) return null;
  const last = ops[ops.length - 1]!;
  if (!last.data || last.data.length === 0) return null;
  return toHex(hash160(last.data));
}

/** The sum a tx pays to an address. */
export function paidTo(tx: Pick<MatchTx, 'outputs'>, address: string, network: Network): bigint {
  let sum = 0n;
  for (const o of tx.outputs) {
    let a: string | null = null;
    try {
      a = scriptToAddress(fromHex(o.script), network);
    } catch {
      a = null;
    }
    if (a === address) sum += o.value;
  }
  return sum;
}

/** Why a tx does not pay a refund. */
export interface NotPaid {
  reason: 'amount' | 'own_coins' | 'seen_before';
  message: string;
}

/** Why a tx does not pay a refund (null when it does), for /relay/pay's answer and the logs. */
export function whyNot(tx: MatchTx, r: RefundCandidate, network: Network): NotPaid | null {
  const paid = paidTo(tx, r.address, network);
  if (paid !== r.amount) return { reason: 'amount', message: `it pays ${paid} koinu to ${r.address}, not the refund's exact ${r.amount}` };
  const own = toHex(decodeAddress(r.address, network).hash160);
  for (const [i, x] of tx.inputs.entries()) {
    const h = spenderHash(x.scriptSig);
    if (h === null) return { reason: 'own_coins', message: `input ${i} has no standard scriptSig: it may spend coins of ${r.address}` };
    if (h === own)
      return { reason: 'own_coins', message: `input ${i} spends coins of ${r.address}: the customer's own money is not a refund` };
  }
  if (tx.submittedFor !== r.id && tx.firstSeen.getTime() <= r.createdAt.getTime()) {
    return { reason: 'seen_before', message: 'it was first seen before the refund was created' };
  }
  return null;
}

const oldest = (a: RefundCandidate, b: RefundCandidate) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0);

/** The refund among `candidates` (refunds to one or more addresses) that `tx` pays, or null. */
export function refundPaidBy(tx: MatchTx, candidates: readonly RefundCandidate[], network: Network): RefundCandidate | null {
  const ok = candidates.filter((r) => whyNot(tx, r, network) === null);
  if (!ok.length) return null;
  const submitted = ok.find((r) => r.id === tx.submittedFor);
  if (submitted) return submitted;
  const unpaid = ok.filter((r) => r.status === 'unpaid').sort(oldest);
  if (unpaid.length) return unpaid[0]!;
  const spends = new Set(tx.inputs.map((i) => i.prevout));
  const replaced = ok
    .filter((r) => (r.status === 'accepted' || r.status === 'confirmed') && r.spent.some((o) => spends.has(o)))
    .sort(oldest);
  if (replaced.length) return replaced[0]!;
  const cancelled = ok.filter((r) => r.status === 'declined').sort(oldest);
  return cancelled[0] ?? null;
}
