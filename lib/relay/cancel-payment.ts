// The vendor declines an unpaid payment (POST /api/v1/payments/<id>/cancel).
import type { Db } from '../db/client';
import { recordEvent } from './events';

export type CancelResult = 'cancelled' | 'not_found' | 'conflict';

export async function cancelPayment(db: Db, id: string, publicUrl: string, now = new Date()): Promise<CancelResult> {
  return db.prisma.$transaction(async (t) => {
    const u = await t.payment.updateMany({
      where: { id, status: 'unpaid', broadcastState: 'none' },
      data: { status: 'declined', reason: 'cancelled by vendor', exception: 'cancelled', declinedAt: now, updatedAt: now },
    });
    if (u.count === 1) {
      await recordEvent(t, 'payment.declined', await t.payment.findUniqueOrThrow({ where: { id } }), publicUrl, now);
      return 'cancelled';
    }
    return (await t.payment.findUnique({ where: { id }, select: { id: true } })) ? 'conflict' : 'not_found';
  });
}
