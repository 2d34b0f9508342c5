// The store-wide webhook delivery log for the back office: the latest attempts, newest first.
import { inStore } from '../stores';
import type { Db } from '../db';

export interface DeliveryLogEntry {
  event_seq: string;
  event_type: string;
  payment_id: string;
  attempt: number;
  url: string;
  status_code: number | null;
  error: string;
  duration_ms: number;
  at: string;
  state: string;
}

export async function recentDeliveries(db: Db, storeId: number, limit = 20): Promise<DeliveryLogEntry[]> {
  const rows = await db.prisma.webhookAttempt.findMany({
    where: { event: inStore(storeId) },
    orderBy: { id: 'desc' },
    take: Math.max(1, Math.min(100, limit)),
    include: { event: { select: { type: true, paymentId: true, deliveryState: true } } },
  });
  return rows.map((a) => ({
    event_seq: a.eventSeq.toString(),
    event_type: a.event.type,
    payment_id: a.event.paymentId,
    attempt: a.attempt,
    url: a.url,
    status_code: a.statusCode,
    error: a.error,
    duration_ms: a.durationMs,
    at: a.createdAt.toISOString(),
    state: a.event.deliveryState,
  }));
}
