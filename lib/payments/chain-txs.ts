// Payments from any wallet (docs/api.md#payments-from-any-wallet): every tx that pays a payment's address, seen in the
// mempool or in a block, is kept in payment_tx, marked mined with its block, and each payment it
// touches is recomputed from those rows (recompute.ts).
import type { Db } from '../db';
import { scriptToAddress, fromHex, toHex, nulldataScript, type Network } from '../doge';
import type { BlockTxSummary } from '../chain';
import { recompute, type ChainTx as Tx } from './recompute';
import { refundPaidBy, type RefundCandidate } from './refund-match';
import { firstSeenOf } from './first-seen';
import { log } from '../log';
import type { SyncContext } from './context';

export interface BlockRef {
  height: number;
  hash: string;
}

interface PaidOutput {
  txid: string;
  value: bigint;
  inputs: string[];
  tx: BlockTxSummary;
}

/** Outputs to each address, summed per tx. */
function outputsByAddress(txs: BlockTxSummary[], network: Network): Map<string, PaidOutput[]> {
  const m = new Map<string, PaidOutput[]>();
  for (const t of txs) {
    const perAddr = new Map<string, bigint>();
    for (const o of t.outputs) {
      let a: string | null = null;
      try {
        a = scriptToAddress(fromHex(o.script), network);
      } catch {
        a = null;
      }
      if (a) perAddr.set(a, (perAddr.get(a) ?? 0n) + o.value);
    }
    for (const [a, value] of perAddr) {
      const list = m.get(a) ?? [];
      list.push({ txid: t.txid, value, inputs: t.inputs.map((i) => `${i.txid}:${i.vout}`), tx: t });
      m.set(a, list);
    }
  }
  return m;
}

interface Candidate {
  id: string;
  /** The payment's store: the rows recorded for it copy it. */
  storeId: number;
  address: string;
  status: string;
  broadcastState: string;
  txid: string | null;
  seq: bigint;
  /** Which of the txs being observed this payment already counts. */
  counted: string[];
  /** Those of them whose row records a replace-by-fee signal. */
  countedRbf: string[];
  /** The payment's `data` outputs (hex payloads, in order): a tx pays it only if it carries each. */
  data: string[];
  /** A refund (docs/api.md, Refunds) as the refund rule needs it, else null. */
  refund: (RefundCandidate & { submitted: string[] }) | null;
}

/**
 * Whether a tx carries every `data` output a payment asks for: one OP_RETURN output per payload,
 * each used once (as the relay checks a /pay tx, lib/relay/tx-checks.ts checkOutputs).
 */
export function carriesData(scripts: readonly string[], data: readonly string[]): boolean {
  const left = [...scripts];
  for (const d of data) {
    const want = toHex(nulldataScript(fromHex(d)));
    const i = left.indexOf(want);
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

/**
 * Which payment of an address a tx counts for: the oldest unpaid one, else the newest paid one
 * (more money to a paid payment is an overpayment), else the newest.
 */
function ownerOf(list: Candidate[]): Candidate {
  const unpaid = list.filter((p) => p.status === 'unpaid').sort((a, b) => (a.seq < b.seq ? -1 : 1));
  if (unpaid.length) return unpaid[0];
  const paid = list.filter((p) => p.status === 'accepted' || p.status === 'confirmed').sort((a, b) => (a.seq > b.seq ? -1 : 1));
  if (paid.length) return paid[0];
  return [...list].sort((a, b) => (a.seq > b.seq ? -1 : 1))[0];
}

/** The refund at an address that a tx pays (docs/security.md), or null. */
function refundFor(list: Candidate[], o: PaidOutput, seenAt: Date, network: Network): Candidate | null {
  const refunds = list.filter((c) => c.refund !== null);
  if (!refunds.length) return null;
  const submittedFor = refunds.find((c) => c.txid === o.txid || c.refund!.submitted.includes(o.txid))?.id ?? null;
  const tx = {
    txid: o.txid,
    outputs: o.tx.outputs,
    inputs: o.tx.inputs.map((i) => ({ prevout: `${i.txid}:${i.vout}`, scriptSig: i.scriptSig })),
    firstSeen: seenAt,
    submittedFor,
  };
  const hit = refundPaidBy(
    tx,
    refunds.map((c) => c.refund!),
    network,
  );
  return hit ? refunds.find((c) => c.id === hit.id)! : null;
}

/**
 * Records the txs (from the mempool when `block` is null, else from that block) that pay open
 * payments, marks the ones mined, finds double spends, and recomputes the payments touched.
 */
export async function observeTxs(ctx: SyncContext, txs: BlockTxSummary[], block: BlockRef | null): Promise<void> {
  const { db } = ctx;
  const now = ctx.now?.() ?? new Date();
  const touched = new Set<string>();
  const txids = txs.map((t) => t.txid);
  // Unmined txs that signal replace-by-fee: a payment relying on one never gets 0-conf.
  const rbf = new Set(block ? [] : txs.filter((t) => t.signalsRbf).map((t) => t.txid));
  // Every mempool tx's first sighting (the refund rule's "first seen": lib/payments/first-seen.ts).
  if (!block) firstSeenOf(db).note(txids, now);
  const byAddr = outputsByAddress(txs, ctx.network);
  const cands = byAddr.size ? await candidatesAt(db, [...byAddr.keys()], txids) : [];
  const rows = cands.length ? newPaymentTxs(ctx, txs, byAddr, cands, block, now) : [];
  // A paid payment's tx seen unmined again signalling RBF (back from a disconnected block): the
  // payment may rely on it, so it is recomputed with that fact, never left at 0-conf.
  for (const c of cands) if ((c.status === 'accepted' || c.status === 'confirmed') && c.counted.some((x) => rbf.has(x))) touched.add(c.id);
  const signals = block ? [] : changedSignals(txs, cands);
  // Nearly every mempool tx pays no payment: nothing to write.
  if (!rows.length && !touched.size && !signals.length && !(block && txids.length)) return;
  // What the txs are (mined, conflicted, paying) and how each payment moves, in one transaction:
  // no reader sees a tx counted, mined or double spent before its payment's amounts and state
  // follow (docs/architecture.md#invariants).
  await db.prisma.$transaction(async (t) => {
    if (block && txids.length) for (const id of await markMined(t, txs, block)) touched.add(id);
    if (rows.length) {
      const r = await t.paymentTx.createMany({ data: rows, skipDuplicates: true });
      if (r.count > 0) for (const x of rows) touched.add(x.paymentId);
    }
    if (signals.length) await noteSignals(t, signals);
    for (const id of touched) await recompute(t, ctx, id, now, rbf);
  }, CHAIN_TX);
}

/** Counted txs seen unmined again whose replace-by-fee signal is not the one their rows record. */
function changedSignals(txs: BlockTxSummary[], cands: Candidate[]): BlockTxSummary[] {
  const counted = new Set(cands.flatMap((c) => c.counted));
  const recorded = new Set(cands.flatMap((c) => c.countedRbf));
  return txs.filter((x) => counted.has(x.txid) && x.signalsRbf !== recorded.has(x.txid));
}

/**
 * Counted txs seen unmined again: their rows keep the signal as now seen (an ancestor mined
 * meanwhile, or back from a disconnected block), for the next disconnect to read.
 */
async function noteSignals(t: Tx, seen: BlockTxSummary[]): Promise<void> {
  await t.$queryRawUnsafe(
    `UPDATE payment_tx SET signals_rbf = s.rbf FROM unnest($1::text[], $2::boolean[]) AS s(txid, rbf)
      WHERE payment_tx.txid = s.txid AND payment_tx.block_height IS NULL AND payment_tx.signals_rbf <> s.rbf`,
    seen.map((x) => x.txid),
    seen.map((x) => x.signalsRbf),
  );
}

/** A chain write holds one transaction for every payment it moves: room for a large block on a busy PGlite. */
export const CHAIN_TX = { timeout: 60_000, maxWait: 30_000 } as const;

/** A block's txs: the ones payments count are marked mined, and the unmined ones it double spends conflicted. The payments touched. */
async function markMined(t: Tx, txs: BlockTxSummary[], block: BlockRef): Promise<string[]> {
  const txids = txs.map((t) => t.txid);
  const touched: string[] = [];
  // A /pay claim still broadcasting: its tx mined (the acceptance is guarded by these fields).
  await t.payment.updateMany({
    where: { txid: { in: txids }, status: 'unpaid', broadcastState: 'pending' },
    data: { blockHeight: block.height, blockHash: block.hash },
  });
  const mined = await t.$queryRawUnsafe<{ payment_id: string }[]>(
    `UPDATE payment_tx SET block_height = $1, block_hash = $2 WHERE txid = ANY($3::text[]) RETURNING payment_id`,
    block.height,
    block.hash,
    txids,
  );
  for (const r of mined) touched.push(String(r.payment_id));
  // Double spends: an unmined tx a payment counts whose input a tx of this block spends.
  const spent = txs.flatMap((t) => t.inputs.map((i) => `${i.txid}:${i.vout}`));
  if (spent.length) {
    const conflicted = await t.$queryRawUnsafe<{ payment_id: string; txid: string }[]>(
      `UPDATE payment_tx SET conflicted_by = $1
        WHERE block_height IS NULL AND conflicted_by IS NULL AND inputs && $2::text[] AND NOT (txid = ANY($3::text[]))
        RETURNING payment_id, txid`,
      block.hash,
      spent,
      txids,
    );
    for (const r of conflicted) {
      touched.push(String(r.payment_id));
      log.warn('a tx paying a payment was double spent in a block', {
        payment: String(r.payment_id),
        txid: String(r.txid),
        block: block.hash,
      });
    }
  }
  return touched;
}

/**
 * The payments at these addresses. One statement for all the txs' addresses, in plain SQL
 * (payment_address_idx): the worker sends every new mempool tx through here, nearly all of them
 * paying no payment. With each payment come the txs among these that it already counts.
 *
 * Why the statement has this shape (docs/performance.md, "The worker's address lookup"): the
 * relay's own txs come back here from the mempool, a second's worth at a time, so at 170 pays/s a
 * call held the database 30–120 ms, with every /relay/pay waiting behind it.
 * - Each address is looked up through the index, one probe each (`OFFSET 0` keeps the planner
 *   from turning the lookup into a scan of every payment, which it chose for `= ANY` on a few
 *   thousand rows: 340 addresses × 3,000 rows compared).
 * - A payment's txs are read whole by its id (a handful) and matched to this batch here, instead
 *   of probing the (payment_id, txid) index once for every txid of the batch for every payment.
 */
async function candidatesAt(db: Db, addresses: string[], txids: string[]): Promise<Candidate[]> {
  const batch = new Set(txids);
  return (
    await db.query<Record<string, unknown>>(
      `SELECT p.id, p.store_id, p.address, p.status, p.broadcast_state, p.txid, p.seq, p.refund_of, p.total::text AS total, p.created_at,
            ARRAY(SELECT t.txid FROM payment_tx t WHERE t.payment_id = p.id) AS txids,
            ARRAY(SELECT t.txid FROM payment_tx t WHERE t.payment_id = p.id AND t.signals_rbf) AS rbf_txids,
            ARRAY(SELECT o.data FROM payment_output o WHERE o.payment_id = p.id AND o.type = 'data' ORDER BY o.idx) AS data,
            CASE WHEN p.refund_of IS NOT NULL THEN ARRAY(SELECT s.txid FROM payment_submission s WHERE s.payment_id = p.id AND s.txid = ANY($2::text[])) END AS submitted,
            CASE WHEN p.refund_of IS NOT NULL THEN ARRAY(SELECT unnest(t.inputs) FROM payment_tx t WHERE t.payment_id = p.id) END AS spent
       FROM unnest($1::text[]) AS a(address)
       CROSS JOIN LATERAL (SELECT * FROM payment WHERE payment.address = a.address OFFSET 0) p`,
      [[...new Set(addresses)], txids],
    )
  ).map((r) => {
    const inBatch = (txs: unknown) => ((txs as unknown[] | null) ?? []).map(String).filter((txid) => batch.has(txid));
    const c = {
      id: String(r.id),
      storeId: Number(r.store_id),
      address: String(r.address),
      status: String(r.status),
      broadcastState: String(r.broadcast_state),
      txid: r.txid === null || r.txid === undefined ? null : String(r.txid),
      seq: BigInt(String(r.seq)),
      counted: inBatch(r.txids),
      countedRbf: inBatch(r.rbf_txids),
      data: ((r.data as unknown[] | null) ?? []).map((d) => String(d ?? '')),
    };
    const refund =
      r.refund_of === null || r.refund_of === undefined
        ? null
        : {
            id: c.id,
            address: c.address,
            amount: BigInt(String(r.total)),
            status: c.status,
            seq: c.seq,
            createdAt: r.created_at instanceof Date ? r.created_at : new Date(String(r.created_at)),
            spent: ((r.spent as unknown[] | null) ?? []).map(String),
            submitted: ((r.submitted as unknown[] | null) ?? []).map(String),
          };
    return { ...c, refund };
  });
}

interface NewPaymentTx {
  storeId: number;
  paymentId: string;
  txid: string;
  value: bigint;
  inputs: string[];
  seenAt: Date;
  blockHeight: number | null;
  blockHash: string | null;
  commitsData: boolean;
  signalsRbf: boolean;
}

/** The payment_tx rows to add: each output not yet counted, given to the payment it pays. */
function newPaymentTxs(
  ctx: SyncContext,
  txs: BlockTxSummary[],
  byAddr: Map<string, PaidOutput[]>,
  cands: Candidate[],
  block: BlockRef | null,
  now: Date,
): NewPaymentTx[] {
  const scripts = new Map(txs.map((t) => [t.txid, t.outputs.map((o) => o.script.toLowerCase())]));
  const perAddr = new Map<string, Candidate[]>();
  for (const c of cands) perAddr.set(c.address, [...(perAddr.get(c.address) ?? []), c]);
  // A tx that a payment at its address already counts (a /pay tx recorded at its acceptance,
  // or one seen in the mempool before its block) stays that payment's: it is never counted
  // again, nor for a second payment sharing the address (two refunds to one customer, or
  // STORE_ADDRESS). The worker sees every /pay tx come back from the mempool: it ends here.
  for (const [addr, list] of perAddr) {
    const counted = new Set(list.flatMap((c) => c.counted));
    const left = byAddr.get(addr)!.filter((o) => !counted.has(o.txid));
    if (left.length) byAddr.set(addr, left);
    else byAddr.delete(addr);
  }
  const rows: NewPaymentTx[] = [];
  const seen = firstSeenOf(ctx.db);
  for (const [addr, outs] of byAddr) {
    const list = perAddr.get(addr);
    if (!list) continue;
    const sales = list.filter((c) => c.refund === null);
    const owner = sales.length ? ownerOf(sales) : null;
    for (const o of outs) {
      // A refund only by the tx that pays it (lib/payments/refund-match.ts), else the sale at the address.
      const to =
        refundFor(list, o, seen.firstSeen(o.txid, now), ctx.network) ??
        (sales.length > 1 ? (sales.find((c) => c.txid === o.txid) ?? owner) : owner);
      if (!to) continue;
      // The /pay submission being broadcast records its own tx when accepted.
      if (to.broadcastState === 'pending' && to.txid === o.txid) continue;
      rows.push({
        storeId: to.storeId,
        paymentId: to.id,
        txid: o.txid,
        value: o.value,
        inputs: o.inputs,
        seenAt: now,
        blockHeight: block?.height ?? null,
        blockHash: block?.hash ?? null,
        commitsData: carriesData(scripts.get(o.txid) ?? [], to.data),
        signalsRbf: o.tx.signalsRbf,
      });
    }
  }
  return rows;
}
