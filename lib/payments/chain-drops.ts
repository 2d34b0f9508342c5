// Counted txs that the node dropped unmined (docs/api.md#payments-from-any-wallet): they stop
// counting, and their payments move through the table in the same transaction.
import type { Db } from '../db';
import type { ChainBackend } from '../chain';
import { log } from '../log';
import { CHAIN_TX } from './chain-txs';
import { recompute } from './recompute';
import type { SyncContext } from './context';

/**
 * The txs counted for open payments that are neither mined nor conflicted (a /pay broadcast in
 * flight aside), with the outpoints they spend: the ones a node could drop from its mempool.
 */
export async function unminedCounted(db: Db): Promise<{ txid: string; inputs: string[] }[]> {
  const rows = await db.query<{ txid: string; inputs: string[] }>(
    `SELECT DISTINCT ON (t.txid) t.txid, t.inputs FROM payment_tx t JOIN payment p ON p.id = t.payment_id
      WHERE t.block_height IS NULL AND t.conflicted_by IS NULL
        AND (p.status = 'accepted' OR (p.status = 'unpaid' AND p.broadcast_state <> 'pending'))`,
  );
  return rows.map((r) => ({ txid: String(r.txid), inputs: (r.inputs ?? []).map(String) }));
}

/**
 * Finds the counted txs the node dropped (ChainBackend.mempoolDropped) and drops them
 * (dropTxs). A tx replaced by a conflicting one (an input spent by a mempool tx) is not a drop:
 * it stays counted until a block mines the conflict, which declines an accepted payment with
 * double_spent (docs/api.md#payments-from-any-wallet). Backends that cannot tell (spv, devnet) do nothing.
 */
export async function dropVanishedTxs(ctx: SyncContext, chain: ChainBackend, processedTip: string): Promise<void> {
  if (!chain.mempoolDropped) return;
  const counted = await unminedCounted(ctx.db);
  if (!counted.length) return;
  const txs = counted.map((c) => ({
    txid: c.txid,
    inputs: c.inputs.map((o) => ({ txid: o.split(':')[0]!, vout: Number(o.split(':')[1]) })),
  }));
  const drop = await chain.mempoolDropped(txs, processedTip);
  await dropTxs(ctx, drop);
}

/**
 * Txs the node dropped unmined and unconflicted (docs/api.md#payments-from-any-wallet: amount_paid counts txs in the
 * mempool and in the chain): they stop counting, and their payments are recomputed through the
 * table (an accepted payment left short: chain.short_again). A tx that comes back is counted
 * again when the mempool or a block shows it.
 */
export async function dropTxs(ctx: SyncContext, txids: string[]): Promise<void> {
  if (!txids.length) return;
  const now = ctx.now?.() ?? new Date();
  // The txs leave and their payments move in one transaction (docs/architecture.md#invariants).
  await ctx.db.prisma.$transaction(async (t) => {
    const gone = await t.$queryRawUnsafe<{ payment_id: string; txid: string }[]>(
      `DELETE FROM payment_tx WHERE txid = ANY($1::text[]) AND block_height IS NULL AND conflicted_by IS NULL RETURNING payment_id, txid`,
      txids,
    );
    const touched = new Set<string>();
    for (const r of gone) {
      touched.add(String(r.payment_id));
      log.warn('a tx paying a payment left the node unmined; it no longer counts', { payment: String(r.payment_id), txid: String(r.txid) });
    }
    for (const id of touched) await recompute(t, ctx, id, now);
  }, CHAIN_TX);
}
