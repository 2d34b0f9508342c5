// The vendor declines an unpaid payment (POST /api/v1/payments/<id>/cancel).
import type { Db, Prisma } from '../db';
import type { Prisma as P } from '../db/generated/client';
import { salesScope, type SalesViewer } from './sales-scope';
import { applyTransition } from './apply';
import { canCancel } from './predicates';

export type CancelResult = 'cancelled' | 'not_found' | 'conflict';

/** `v`: the caller's store and, for a cashier, its own sales (others' are not_found). */
export async function cancelPayment(db: Db, v: SalesViewer, id: string, publicUrl: string, now = new Date()): Promise<CancelResult> {
  return db.prisma.$transaction(async (t) => {
    // Table row vendor.cancel (table.ts): unpaid with no /pay broadcast pending → declined.
    const cur = await t.payment.findFirst({
      where: { id, ...salesScope(v) },
      select: { id: true, status: true, exception: true, broadcastState: true },
    });
    if (!cur) return 'not_found';
    if (!canCancel(cur)) return 'conflict';
    const done = await applyTransition(t, { row: cur, trigger: 'vendor.cancel', publicUrl, now });
    if (done) return 'cancelled';
    return (await t.payment.findFirst({ where: { id, ...salesScope(v) }, select: { id: true } })) ? 'conflict' : 'not_found';
  });
}

/**
 * Table row vendor.cancel on a row already read in the caller's transaction (a refund created by
 * mistake: lib/refunds/cancel-refund.ts), with the caller's extra guard. False when the row
 * changed meanwhile.
 */
export async function cancelInTx(
  t: Pick<Prisma, 'payment' | 'vendorEvent' | '$queryRawUnsafe'>,
  row: { id: string; status: string; exception: string | null; broadcastState: string },
  guard: P.PaymentWhereInput,
  publicUrl: string,
  now: Date,
): Promise<boolean> {
  return (await applyTransition(t, { row, trigger: 'vendor.cancel', guard, publicUrl, now })) !== null;
}
