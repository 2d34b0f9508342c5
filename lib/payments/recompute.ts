// A payment's totals from the txs it counts (docs/api.md#payments-from-any-wallet): its
// amount_paid, txids and effective block (that of the least-confirmed tx needed to reach the
// total) are recomputed from its payment_tx rows, and the state moves through the table
// (table.ts) on chain.paid, or chain.double_spend when a block mines a tx that conflicts with one
// the payment needed. The chain sync (chain-txs.ts, chain-sync.ts, chain-drops.ts) calls it.
import type { Prisma } from '../db';
import { applyTransition, updateWithoutTransition } from './apply';
import { requiredDepth } from './transition';
import type { SyncContext } from './context';

/** The transaction every chain write runs in. */
export type ChainTx = Pick<Prisma, 'payment' | 'paymentTx' | 'vendorEvent' | '$queryRawUnsafe'>;
type Tx = ChainTx;

/** A tx a payment counts, as recompute needs it. */
interface Counted {
  txid: string;
  value: bigint;
  seenAt: Date;
  blockHeight: number | null;
  blockHash: string | null;
  conflictedBy: string | null;
  /** It carries every data output the payment asks for (always, for a payment without any). */
  commitsData?: boolean;
  /** Its replace-by-fee signal as last seen (the tx or an unconfirmed ancestor). */
  signalsRbf?: boolean;
}

/** The sum, the txids in order, the txs needed to reach the total and whether a needed one is conflicted. */
export function summarize(total: bigint, all: Counted[]) {
  const live = all.filter((t) => t.conflictedBy === null);
  const paid = live.reduce((s, t) => s + t.value, 0n);
  const needed: Counted[] = [];
  let acc = 0n;
  for (const t of live) {
    if (acc >= total) break;
    needed.push(t);
    acc += t.value;
  }
  const enough = acc >= total;
  let block: { height: number; hash: string } | null = null;
  if (enough && needed.every((t) => t.blockHeight !== null)) {
    const top = needed.reduce((a, b) => (b.blockHeight! > a.blockHeight! ? b : a));
    block = { height: top.blockHeight!, hash: top.blockHash! };
  }
  return { paid, txids: live.map((t) => t.txid), needed, enough, block, completedAt: enough ? needed[needed.length - 1].seenAt : null };
}

/**
 * Recomputes one payment from its payment_tx rows and applies the table. A needed tx that is
 * unmined and signals replace-by-fee (its row says so, or it is in `rbf`: txids just seen
 * unmined signalling it) makes the table require at least one confirmation.
 */
export async function recompute(t: Tx, ctx: SyncContext, id: string, now: Date, rbf: ReadonlySet<string> = new Set()): Promise<void> {
  const p = await t.payment.findUnique({ where: { id } });
  if (!p) return;
  const all = await t.paymentTx.findMany({ where: { paymentId: id }, orderBy: { seq: 'asc' } });
  // amount_paid counts every tx; only the txs that carry the payment's data outputs pay it
  // (docs/api.md#data_missing): they decide enough, the block and the double spends.
  const s = summarize(p.total, all);
  const paying = all.filter((x) => x.commitsData);
  const c = summarize(p.total, paying);
  const dataMissing = !c.enough && all.some((x) => !x.commitsData && x.conflictedBy === null);
  // What the payment relied on: the txs needed to reach the total, conflicts ignored.
  const relied = summarize(
    p.total,
    paying.map((x) => ({ ...x, conflictedBy: null })),
  );
  const neededConflicted = relied.enough && relied.needed.some((n) => all.some((x) => x.txid === n.txid && x.conflictedBy !== null));
  // The first tx counted, even when it pays another payment too (only /relay/pay claims keep a
  // txid to one payment: payment_claim_txid_key).
  const txid = p.txid ?? s.txids[0] ?? null;
  const data = {
    amountPaid: s.paid,
    paidTxids: s.txids,
    txid,
    ...(p.status === 'unpaid' && p.broadcastState === 'pending'
      ? {}
      : { blockHeight: c.block?.height ?? null, blockHash: c.block?.hash ?? null }),
    updatedAt: now,
  };
  const amounts = { total: p.total, paid: s.paid, before: p.amountPaid };
  // Only a tx the payment relies on (one of those needed to reach the total) can keep it from
  // 0-conf: more money in an RBF tx to a payment already paid does not put it at risk, and
  // raising its depth then left a confirmed payment below its required depth.
  const signalsRbf = c.needed.some((x) => (x.signalsRbf || rbf.has(x.txid)) && x.blockHeight === null && x.conflictedBy === null);
  const depth = { required: p.requiredConfirmations, rbf: signalsRbf };
  // Double spent only when what is left no longer reaches the total: a fee bump (RBF) whose
  // replacement pays the address as well leaves the payment paid.
  if (neededConflicted && !c.enough && (p.status === 'accepted' || p.status === 'confirmed') && p.exception !== 'marked_settled') {
    await applyTransition(t, { row: p, trigger: 'chain.double_spend', data, publicUrl: ctx.publicUrl, now });
    return;
  }
  // A confirmed payment that now relies on an unmined tx signalling RBF (its depth raised) goes
  // back to accepted first, in this transaction: never confirmed below its depth, even unseen.
  const late = c.completedAt !== null && c.completedAt.getTime() > p.expiresAt.getTime();
  const row = (await unconfirmBelowDepth(t, ctx, p, requiredDepth(depth)!, c.block, now, { amounts, late })) ?? p;
  const changed = s.paid !== p.amountPaid || s.txids.join() !== p.paidTxids.join();
  // A /pay broadcast in flight decides the state itself (its acceptance sees these amounts).
  const inFlight = p.status === 'unpaid' && p.broadcastState === 'pending';
  const completes = p.status === 'unpaid' && c.enough;
  if (!inFlight && (changed || completes)) {
    await applyTransition(t, {
      row,
      trigger: 'chain.paid',
      facts: { amounts, late, dataMissing, ...depth },
      data,
      publicUrl: ctx.publicUrl,
      now,
    });
    return;
  }
  const required = requiredDepth(depth)!;
  await updateWithoutTransition(t, id, row.status, {
    ...(p.status === 'declined' || inFlight ? { amountPaid: s.paid, paidTxids: s.txids, updatedAt: now } : data),
    ...(required !== row.requiredConfirmations ? { requiredConfirmations: required } : {}),
  });
}

/**
 * A confirmed payment whose required depth (`required`, raised by an RBF tx it now relies on)
 * is above its count: the table's chain.unconfirm, writing the new depth and count in the same
 * statement. The row after it, or null when nothing moved. A merchant's settlement stays.
 */
async function unconfirmBelowDepth(
  t: Tx,
  ctx: SyncContext,
  p: { id: string; status: string; exception: string | null; confirmations: number; blockHash: string | null },
  required: number,
  block: { height: number; hash: string } | null,
  now: Date,
  paid: { amounts: { total: bigint; paid: bigint; before: bigint }; late: boolean },
) {
  // Unmined (or mined elsewhere than the block it was counted in, until the next recount): 0.
  const conf = block !== null && block.hash === p.blockHash ? p.confirmations : 0;
  if (p.status !== 'confirmed' || p.exception === 'marked_settled' || conf >= required) return null;
  const data = {
    requiredConfirmations: required,
    confirmations: conf,
    blockHeight: block?.height ?? null,
    blockHash: block?.hash ?? null,
    updatedAt: now,
  };
  const a = await applyTransition(t, {
    row: p,
    trigger: 'chain.confirmations',
    // The amounts decide the exception it keeps (transition.ts, the keepOr rule); the amount events are the
    // recompute's own step after this one, so this step sees no new money (before = paid).
    facts: { reached: false, amounts: { ...paid.amounts, before: paid.amounts.paid }, late: paid.late },
    data,
    publicUrl: ctx.publicUrl,
    now,
  });
  return a ? t.payment.findUniqueOrThrow({ where: { id: p.id } }) : null;
}
