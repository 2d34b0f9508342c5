// Cancelling a refund created by mistake (docs/api.md#refunds): POST /api/v1/payments/<rf_id>/cancel.
// An `unpaid` refund that no wallet has started paying (no /pay broadcast in flight, nothing
// paid to it yet) goes to `declined` through the state machine's vendor.cancel row, like a
// sale's cancel. A declined refund no longer counts against the refundable amount
// (create-refund.ts sums the refunds that are not declined), so the money can be refunded again.
// The event catalog (docs/api.md#webhooks) has no refund.cancelled: the transition's payment.declined is not
// reported for a refund (lib/payments/events.ts eventTypeFor), so no event is emitted.
import type { Db } from '../db';
import { canCancel, cancelInTx } from '../payments';
import { inStore, type StoreScope } from '../stores';

export type CancelRefundResult = { ok: true } | { ok: false; code: 'not_found' | 'conflict'; message: string };

/** A refund's id: 'rf_' and 22 base64url characters (a sale's id is 22 characters, never this). */
export const isRefundId = (id: string): boolean => /^rf_[A-Za-z0-9_-]{22}$/.test(id);

export async function cancelRefund(
  db: Db,
  scope: StoreScope,
  id: string,
  publicUrl: string,
  now = new Date(),
): Promise<CancelRefundResult> {
  const conflict = (message: string): CancelRefundResult => ({ ok: false, code: 'conflict', message });
  return db.prisma.$transaction(async (t) => {
    const cur = await t.payment.findFirst({
      where: { id, ...inStore(scope.storeId), refundOf: { not: null } },
      select: { id: true, status: true, exception: true, broadcastState: true, amountPaid: true },
    });
    if (!cur) return { ok: false, code: 'not_found', message: 'no refund with this id' };
    if (cur.status !== 'unpaid') return conflict(`the refund is ${cur.status}: only an unpaid refund can be cancelled`);
    if (!canCancel(cur)) return conflict('a transaction paying this refund is being broadcast: it can no longer be cancelled');
    if (cur.amountPaid > 0n) return conflict('money has already been sent to the customer for this refund: it can no longer be cancelled');
    // Table row vendor.cancel (lib/payments/table.ts): unpaid, no /pay broadcast pending → declined.
    const done = await cancelInTx(t, cur, { amountPaid: 0n }, publicUrl, now);
    return done ? { ok: true } : conflict('the refund changed meanwhile: only an unpaid refund can be cancelled');
  });
}
