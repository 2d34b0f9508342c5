// The refunds of a payment as GET /api/v1/payments/<id>/refunds answers them (docs/api.md#refunds).
// The loaders themselves live with the payment writer (lib/payments/refunds-of.ts).
import type { Prisma } from '../db';
import { formatKoinu } from '../money';
import { inStore, type StoreScope } from '../stores';
import { amountRefunded, refundView, loadRefunds, withRefunds, withRefundsOne } from '../payments';

type Reader = Pick<Prisma, 'payment'>;

export { loadRefunds, withRefunds, withRefundsOne };

/** GET /api/v1/payments/<id>/refunds: the payment's refunds, or null when the caller cannot see such a payment. */
export async function refundsOfPayment(p: Reader, scope: StoreScope, id: string, ownSalesOf: string | null, publicUrl: string) {
  const parent = await p.payment.findFirst({
    where: { id, ...inStore(scope.storeId), refundOf: null, ...(ownSalesOf ? { createdBy: ownSalesOf } : {}) },
    select: { id: true },
  });
  if (!parent) return null;
  const refunds = (await loadRefunds(p, [id])).get(id) ?? [];
  return { payment_id: id, amount_refunded: formatKoinu(amountRefunded(refunds)), refunds: refunds.map((r) => refundView(r, publicUrl)) };
}
