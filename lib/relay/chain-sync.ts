// Feeds chain updates into the payment lifecycle (DESIGN.md §4): block inclusion, confirmation
// counts, confirmed/unconfirmed transitions on reorgs, expiry, and payments that arrive
// on-chain without /pay (fallback URI) or after expiry (paid_late).
import type { Db } from '../db/client';
import { scriptToAddress, fromHex, type Network } from '../doge';
import type { BlockSummary } from '../chain/backend';
import { recordEvent } from './events';

export interface SyncContext {
  db: Db;
  network: Network;
  publicUrl: string;
  now?: () => Date;
}

/** Marks payments whose tx is in this block, and detects on-chain payments to their addresses. */
export async function onBlockConnected(ctx: SyncContext, b: BlockSummary): Promise<void> {
  const { db } = ctx;
  const txids = b.txs.map((t) => t.txid);
  if (txids.length) {
    await db.prisma.payment.updateMany({ where: { txid: { in: txids } }, data: { blockHeight: b.height, blockHash: b.hash } });
  }
  // Outputs paying a payment's address from a tx the relay never saw.
  const addrOutputs = new Map<string, { txid: string; value: bigint }[]>();
  for (const t of b.txs) {
    for (const o of t.outputs) {
      const a = scriptToAddress(fromHex(o.script), ctx.network);
      if (!a) continue;
      const list = addrOutputs.get(a) ?? [];
      list.push({ txid: t.txid, value: o.value });
      addrOutputs.set(a, list);
    }
  }
  if (addrOutputs.size === 0) return;
  const candidates = await db.prisma.payment.findMany({
    where: { address: { in: [...addrOutputs.keys()] }, txid: null, status: 'unpaid', broadcastState: 'none' },
    orderBy: { seq: 'asc' },
  });
  const now = ctx.now?.() ?? new Date();
  const usedTx = new Set<string>();
  for (const p of candidates) {
    const hit = addrOutputs.get(p.address)!.find((o) => o.value >= p.total && !usedTx.has(o.txid));
    if (!hit) continue;
    usedTx.add(hit.txid);
    const late = now.getTime() > p.expiresAt.getTime();
    await db.prisma.$transaction(async (t) => {
      const u = await t.payment.updateMany({
        where: { id: p.id, status: 'unpaid', txid: null },
        data: {
          status: 'accepted', txid: hit.txid, broadcastState: 'sent', blockHeight: b.height, blockHash: b.hash,
          acceptedAt: now, exception: late ? 'paid_late' : null, updatedAt: now,
        },
      });
      if (u.count !== 1) return;
      const fresh = await t.payment.findUniqueOrThrow({ where: { id: p.id } });
      await recordEvent(t, late ? 'payment.paid_late' : 'payment.accepted', fresh, ctx.publicUrl, now);
    });
  }
}

export async function onBlockDisconnected(ctx: SyncContext, hash: string): Promise<void> {
  await ctx.db.prisma.payment.updateMany({ where: { blockHash: hash }, data: { blockHeight: null, blockHash: null } });
}

/** Recomputes confirmations for every accepted/confirmed payment and applies transitions. */
export async function updateConfirmations(ctx: SyncContext, tipHeight: number): Promise<void> {
  const { db } = ctx;
  const now = ctx.now?.() ?? new Date();
  // Only the rows the loop below would change (same rules in SQL): loading every paid payment
  // through the ORM on each worker tick grew with every payment ever taken (benchmark `pay`).
  const due = await db.query<{ id: string }>(
    `SELECT id FROM (
       SELECT id, status, required_confirmations AS req, confirmations,
              CASE WHEN block_height IS NULL THEN 0 ELSE GREATEST($1::int - block_height + 1, 0) END AS conf
       FROM payment WHERE status IN ('accepted', 'confirmed')) c
     WHERE (status = 'accepted' AND conf >= req) OR (status = 'confirmed' AND conf < req) OR conf <> confirmations`,
    [tipHeight],
  );
  if (due.length === 0) return;
  const rows = await db.prisma.payment.findMany({ where: { id: { in: due.map((d) => String(d.id)) }, status: { in: ['accepted', 'confirmed'] } } });
  for (const p of rows) {
    const conf = p.blockHeight === null ? 0 : Math.max(tipHeight - p.blockHeight + 1, 0);
    const reach = conf >= p.requiredConfirmations;
    if (p.status === 'accepted' && reach) {
      await db.prisma.$transaction(async (t) => {
        const u = await t.payment.updateMany({
          where: { id: p.id, status: 'accepted' },
          data: { status: 'confirmed', confirmations: conf, confirmedAt: now, updatedAt: now },
        });
        if (u.count === 1) await recordEvent(t, 'payment.confirmed', await t.payment.findUniqueOrThrow({ where: { id: p.id } }), ctx.publicUrl, now);
      });
    } else if (p.status === 'confirmed' && !reach) {
      await db.prisma.$transaction(async (t) => {
        const u = await t.payment.updateMany({
          where: { id: p.id, status: 'confirmed' },
          data: { status: 'accepted', confirmations: conf, confirmedAt: null, exception: p.exception ?? 'reorged', updatedAt: now },
        });
        if (u.count === 1) await recordEvent(t, 'payment.unconfirmed', await t.payment.findUniqueOrThrow({ where: { id: p.id } }), ctx.publicUrl, now);
      });
    } else if (conf !== p.confirmations) {
      await db.prisma.payment.update({ where: { id: p.id }, data: { confirmations: conf, updatedAt: now } });
    }
  }
}

/** Emits payment.expired once for each unpaid payment past its timeout. */
export async function expirePayments(ctx: SyncContext): Promise<number> {
  const { db } = ctx;
  const now = ctx.now?.() ?? new Date();
  const due = await db.prisma.payment.findMany({
    where: { status: 'unpaid', broadcastState: 'none', expiresAt: { lt: now }, events: { none: { type: 'payment.expired' } } },
    take: 200,
  });
  for (const p of due) {
    await db.prisma.$transaction(async (t) => {
      const already = await t.vendorEvent.count({ where: { paymentId: p.id, type: 'payment.expired' } });
      if (!already) await recordEvent(t, 'payment.expired', p, ctx.publicUrl, now);
    });
  }
  return due.length;
}
