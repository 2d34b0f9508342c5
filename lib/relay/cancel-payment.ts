// The vendor declines an unpaid payment (POST /api/v1/payments/<id>/cancel).
import type { Db } from '../db/client';
import { recordEvent } from './events';
import { salesScope } from './sales-scope';

export type CancelResult = 'cancelled' | 'not_found' | 'conflict';

/** `ownSalesOf`: a cashier's user id (it cancels only its own sales; others' are not_found), or null. */
export async function cancelPayment(db: Db, id: string, publicUrl: string, now = new Date(), ownSalesOf: string | null = null): Promise<CancelResult> {
  return db.prisma.$transaction(async (t) => {
    const u = await t.payment.updateMany({
      where: { id, status: 'unpaid', broadcastState: 'none', ...salesScope(ownSalesOf) },
      data: { status: 'declined', reason: 'cancelled by vendor', exception: 'cancelled', declinedAt: now, updatedAt: now },
    });
    if (u.count === 1) {
      await recordEvent(t, 'payment.declined', await t.payment.findUniqueOrThrow({ where: { id } }), publicUrl, now);
      return 'cancelled';
    }
    return (await t.payment.findFirst({ where: { id, ...salesScope(ownSalesOf) }, select: { id: true } })) ? 'conflict' : 'not_found';
  });
}
