// The vendor event outbox's delivery state (docs/api.md#webhooks): the webhook loop claims a due
// event, and records how its attempt ended. The events themselves are written with the state
// change they report (apply.ts, accept-sql.ts); their delivery columns are written here, so
// that vendor_event has one writer like the payment rows (tests/unit/one-writer.test.ts).
import type { Db } from '../db';

/** Takes a due event for one attempt until `leaseUntil`. False when another worker holds it or it is no longer due. */
export async function claimDelivery(db: Db, seq: bigint, attempts: number, claimAt: Date, leaseUntil: Date): Promise<boolean> {
  const claim = await db.prisma.vendorEvent.updateMany({
    where: { seq, deliveryState: 'pending', attempts, nextAttemptAt: { lte: claimAt } },
    data: { attempts: attempts + 1, nextAttemptAt: leaseUntil },
  });
  return claim.count === 1;
}

/** How an attempt ended, for the event: delivered, due again at a time, or failed for good. */
export type DeliveryEnd = { deliveryState: 'delivered'; deliveredAt: Date } | { nextAttemptAt: Date } | { deliveryState: 'failed' };

export interface AttemptLog {
  url: string;
  statusCode: number | null;
  error: string;
  durationMs: number;
}

/**
 * Logs the attempt and finishes it on the event, in one transaction. Only the attempt that was
 * claimed is finished: a redeliver() or an expired lease taken over meanwhile wins, and this
 * result is kept in the attempt log only. True when the event was finished.
 */
export async function finishDelivery(
  db: Db,
  seq: bigint,
  attempt: number,
  leaseUntil: Date,
  end: DeliveryEnd,
  log: AttemptLog,
): Promise<boolean> {
  // The attempt is its event's store's (the delivery log of that store's back office).
  const ev = await db.prisma.vendorEvent.findUnique({ where: { seq }, select: { storeId: true } });
  if (!ev) return false;
  const [, finish] = await db.prisma.$transaction([
    db.prisma.webhookAttempt.create({ data: { storeId: ev.storeId, eventSeq: seq, attempt, ...log } }),
    db.prisma.vendorEvent.updateMany({ where: { seq, deliveryState: 'pending', attempts: attempt, nextAttemptAt: leaseUntil }, data: end }),
  ]);
  return finish.count === 1;
}

/** Makes the event due now, whatever its state (the back office's "redeliver"). False when there is no such event. */
export async function redeliverEvent(db: Db, seq: bigint, now: Date): Promise<boolean> {
  const r = await db.prisma.vendorEvent.updateMany({
    where: { seq },
    data: { deliveryState: 'pending', nextAttemptAt: now, deliveredAt: null },
  });
  return r.count === 1;
}
