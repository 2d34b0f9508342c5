// Feeds chain updates into the payment lifecycle (docs/relay.md): block inclusion, confirmation
// counts, confirmed/unconfirmed transitions on reorgs, expiry, and payments that arrive
// on-chain without /pay (fallback URI) or after expiry (paid_late).
import type { Db, Prisma } from '../db';
import type { BlockSummary, BlockTxSummary } from '../chain';
import { applyTransition, updateWithoutTransition } from './apply';
import { CHAIN_TX, observeTxs } from './chain-txs';
import { recompute } from './recompute';
import type { SyncContext } from './context';
import { isExpiryDue } from './predicates';
import { disconnectAncestry, type DisconnectAncestry, type DisconnectedTxs } from './disconnect-ancestry';

/**
 * A block connected: the txs it mines that pay payments (the /pay ones and plain-wallet ones,
 * each summed into its payment: payment-txs.ts), and the double spends it confirms.
 */
export async function onBlockConnected(ctx: SyncContext, b: BlockSummary): Promise<void> {
  await observeTxs(ctx, b.txs, { height: b.height, hash: b.hash });
}

/** Txs that entered the mempool (docs/api.md#payments-from-any-wallet). */
export async function onMempoolTxs(ctx: SyncContext, txs: BlockTxSummary[]): Promise<void> {
  if (txs.length) await observeTxs(ctx, txs, null);
}

/**
 * A block disconnected: its txs are unmined again (back in the mempool) and the payments it mined
 * drop to 0 confirmations. All in one transaction, each payment in one statement: a confirmed
 * payment below its required depth goes back through the table (chain.unconfirm, with its event)
 * in the same write that zeroes its count, so no reader ever sees `confirmed` with
 * `confirmations < required` (docs/architecture.md#invariants, and the database's CHECK).
 * A payment relying on a tx that signals replace-by-fee once unmined is recomputed in the same
 * transaction, so a 0-conf one needs a confirmation again at once: a tx of the block whose row
 * says so, and a tx whose unconfirmed parent now signals it, the parent being one of `block`'s
 * txs (disconnect-ancestry.ts). `block`: the block's txs as the backend reads them, or null when
 * it cannot, and then every tx the block unmines is taken as having a replaceable parent.
 */
export async function onBlockDisconnected(ctx: SyncContext, hash: string, block: DisconnectedTxs | null = null): Promise<void> {
  const now = ctx.now?.() ?? new Date();
  const ancestry = disconnectAncestry(block);
  await ctx.db.prisma.$transaction(async (t) => {
    const unmined = await t.$queryRawUnsafe<{ payment_id: string; txid: string; inputs: string[]; signals_rbf: boolean }[]>(
      `UPDATE payment_tx SET block_height = NULL, block_hash = NULL WHERE block_hash = $1 RETURNING payment_id, txid, inputs, signals_rbf`,
      hash,
    );
    const inherited = await noteInheritedSignals(
      t,
      ancestry,
      unmined.filter((r) => !r.signals_rbf && ancestry.unminedInherits(r)).map((r) => String(r.txid)),
    );
    const replaceable = [...new Set([...unmined.filter((r) => r.signals_rbf).map((r) => String(r.payment_id)), ...inherited])];
    // Locked first: a concurrent writer (a /pay acceptance, a mark) waits, so every guarded
    // write below finds the row as it was read.
    await t.$queryRawUnsafe(
      `SELECT id FROM payment WHERE block_hash = $1 OR id = ANY($2::text[]) ORDER BY id FOR UPDATE`,
      hash,
      replaceable,
    );
    const rows = await t.payment.findMany({ where: { blockHash: hash } });
    for (const p of rows) {
      const data = { blockHeight: null, blockHash: null, confirmations: 0 };
      // As the recount decides (updateConfirmations): unmined is 0 confirmations; a merchant's
      // settlement is final for the chain.
      if (p.status === 'confirmed' && p.requiredConfirmations > 0 && p.exception !== 'marked_settled') {
        await applyTransition(t, {
          row: p,
          trigger: 'chain.confirmations',
          facts: { reached: false },
          data,
          publicUrl: ctx.publicUrl,
          now,
        });
      } else {
        await updateWithoutTransition(t, p.id, p.status, { ...data, updatedAt: now });
      }
    }
    // Its depth raised by the table (at least 1), and back to accepted if it was confirmed.
    for (const id of replaceable) await recompute(t, ctx, id, now);
  }, CHAIN_TX);
}

/**
 * Records the RBF signal the disconnect gave unmined txs (`txids`: rows the block unmined whose
 * parent may signal; and every unmined row spending a replaceable tx of the block), so the next
 * recompute and disconnect read it. The payments those rows belong to.
 */
async function noteInheritedSignals(t: Pick<Prisma, '$queryRawUnsafe'>, ancestry: DisconnectAncestry, txids: string[]): Promise<string[]> {
  if (!txids.length && !ancestry.replaceableOutpoints.length) return [];
  const rows = await t.$queryRawUnsafe<{ payment_id: string }[]>(
    `UPDATE payment_tx SET signals_rbf = true
      WHERE block_height IS NULL AND conflicted_by IS NULL AND NOT signals_rbf AND (txid = ANY($1::text[]) OR inputs && $2::text[])
      RETURNING payment_id`,
    txids,
    ancestry.replaceableOutpoints,
  );
  return rows.map((r) => String(r.payment_id));
}

/**
 * Confirmations are counted up to this depth; deeper, a payment reports this many. Without a
 * bound, every new block rewrote every payment ever confirmed (10,000 paid payments meant
 * 10,000 writes a block, and PGlite runs in the web process: /relay/status stalled for a
 * minute, bench `status-rpc`). 100 blocks is far beyond any store's policy (at most 100).
 */
export const CONFIRMATIONS_TRACKED = 100;

/** Per database, the tip (`height:hash`) of the last recount (updateConfirmations). */
const recountedAt = new WeakMap<Db, string>();

/** Which payments a recount reads (updateConfirmations). */
const SCOPES = {
  // The whole history: every accepted and confirmed payment.
  all: `status IN ('accepted', 'confirmed')`,
  // Those whose count can move at a new tip (the partial index payment_confirming_idx).
  moving: `(status = 'accepted' OR (status = 'confirmed' AND confirmations < ${CONFIRMATIONS_TRACKED}))`,
  // Those whose count can move while the tip stays (payment_status_created_idx).
  accepted: `status = 'accepted'`,
} as const;

/**
 * Recomputes confirmations of the accepted/confirmed payments and applies transitions.
 *
 * Without `tipHash`, or on the first recount of this process, it reads the whole history.
 * Otherwise only the payments whose count can move: at a new tip, the accepted ones and the
 * confirmed ones not yet counted to CONFIRMATIONS_TRACKED (a confirmed payment counted to the
 * maximum stays there as the chain grows; a block disconnected under it resets its count,
 * onBlockDisconnected); at the same tip as the last recount (the worker polls every second,
 * blocks come every minute), the accepted ones only (one mined by a /pay broadcast meanwhile).
 * Reading the whole history on every poll stalled /relay/status on PGlite (bench `status-rpc`).
 */
export async function updateConfirmations(ctx: SyncContext, tipHeight: number, tipHash?: string): Promise<void> {
  const { db } = ctx;
  const now = ctx.now?.() ?? new Date();
  const tipKey = tipHash === undefined ? null : `${tipHeight}:${tipHash}`;
  const last = recountedAt.get(db);
  const scope = tipKey === null || last === undefined ? SCOPES.all : last === tipKey ? SCOPES.accepted : SCOPES.moving;
  const conf = `LEAST(CASE WHEN block_height IS NULL THEN 0 ELSE GREATEST($1::int - block_height + 1, 0) END, ${CONFIRMATIONS_TRACKED})`;
  const open = `${scope} AND exception IS DISTINCT FROM 'marked_settled'`;
  // 1. The (few) payments that cross their required depth, either way: through the state machine.
  const due = await db.query<{ id: string }>(
    `SELECT id FROM (SELECT id, status, required_confirmations AS req, ${conf} AS conf FROM payment WHERE ${open}) c
     WHERE (status = 'accepted' AND conf >= req) OR (status = 'confirmed' AND conf < req)`,
    [tipHeight],
  );
  if (due.length) {
    const rows = await db.prisma.payment.findMany({
      where: {
        id: { in: due.map((d) => String(d.id)) },
        status: { in: ['accepted', 'confirmed'] },
        OR: [{ exception: null }, { exception: { not: 'marked_settled' } }],
      },
    });
    for (const p of rows) {
      const c = Math.min(p.blockHeight === null ? 0 : Math.max(tipHeight - p.blockHeight + 1, 0), CONFIRMATIONS_TRACKED);
      const reach = c >= p.requiredConfirmations;
      if ((p.status === 'accepted' && reach) || (p.status === 'confirmed' && !reach)) {
        // Table rows chain.confirm / chain.unconfirm (docs/relay.md).
        await db.prisma.$transaction((t) =>
          applyTransition(t, {
            row: p,
            trigger: 'chain.confirmations',
            facts: { reached: reach },
            data: { confirmations: c },
            publicUrl: ctx.publicUrl,
            now,
          }),
        );
      } else if (c !== p.confirmations) {
        await updateWithoutTransition(db.prisma, p.id, p.status, { confirmations: c, updatedAt: now });
      }
    }
  }
  // 2. Every other count that moved, in one statement (no state changes: the status and the
  // required depth are re-checked in the same statement, so a concurrent transition is kept).
  await db.query(
    `UPDATE payment SET confirmations = ${conf}, updated_at = $2
      WHERE ${open} AND confirmations <> ${conf}
        AND ((status = 'accepted' AND ${conf} < required_confirmations) OR (status = 'confirmed' AND ${conf} >= required_confirmations))`,
    [tipHeight, now],
  );
  if (tipKey !== null) recountedAt.set(db, tipKey);
}

/**
 * Emits payment.expired once for each unpaid payment past its timeout (table row timer.expired).
 * "Once" is the row's own fact: the transition sets expired_at, and the row is guarded by it.
 */
export async function expirePayments(ctx: SyncContext): Promise<number> {
  const { db } = ctx;
  const now = ctx.now?.() ?? new Date();
  // Refunds (docs/api.md#refunds) report no expiry: they stay payable, and are not offered again here.
  // Found in plain SQL (payment_expiry_due_idx): the worker asks every second and, most of the
  // time, nothing is due; the full rows are read through the ORM only when something is.
  const ids = await db.query<{ id: string }>(
    `SELECT p.id FROM payment p WHERE p.status = 'unpaid' AND p.expired_at IS NULL AND p.broadcast_state = 'none' AND p.refund_of IS NULL
        AND p.expires_at < $1
      ORDER BY p.expires_at LIMIT 200`,
    [now],
  );
  if (!ids.length) return 0;
  const rows = await db.prisma.payment.findMany({ where: { id: { in: ids.map((r) => String(r.id)) } } });
  const due = rows.filter((p) => isExpiryDue(p, now));
  for (const p of due) {
    await db.prisma.$transaction((t) =>
      applyTransition(t, { row: p, trigger: 'timer.expiry', guard: { expiredAt: null }, publicUrl: ctx.publicUrl, now }),
    );
  }
  return due.length;
}
