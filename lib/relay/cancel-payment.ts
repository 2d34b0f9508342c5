// The vendor declines an unpaid payment (POST /api/v1/payments/<id>/cancel).
import type { Db } from '../db/client';
import { salesScope } from './sales-scope';
import { applyTransition } from './state/apply';

export type CancelResult = 'cancelled' | 'not_found' | 'conflict';

/** `ownSalesOf`: a cashier's user id (it cancels only its own sales; others' are not_found), or null. */
export async function cancelPayment(db: Db, id: string, publicUrl: string, now = new Date(), ownSalesOf: string | null = null): Promise<CancelResult> {
  return db.prisma.$transaction(async (t) => {
    // Table row vendor.cancel (state/table.ts): unpaid with no /pay broadcast pending → declined.
    const cur = await t.payment.findFirst({ where: { id, ...salesScope(ownSalesOf) }, select: { id: true, status: true, exception: true, broadcastState: true } });
    if (!cur) return 'not_found';
    if (cur.status !== 'unpaid' || cur.broadcastState !== 'none') return 'conflict';
    const done = await applyTransition(t, { row: cur, trigger: 'vendor.cancel', guard: { broadcastState: 'none' }, publicUrl, now });
    if (done) return 'cancelled';
    return (await t.payment.findFirst({ where: { id, ...salesScope(ownSalesOf) }, select: { id: true } })) ? 'conflict' : 'not_found';
  });
}
