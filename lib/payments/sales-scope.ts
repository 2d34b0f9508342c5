// Which payments a caller may see (docs/api.md#authentication-and-scopes): a cashier only the ones it created, everyone
// else the store's. `ownSalesOf` comes from lib/api/access (null = all). Another's payment is
// answered as if it did not exist (404), so ids cannot be probed.
import type { Db } from '../db/client';

/**
 * A Prisma `where` fragment: sales only (never a refund row, docs/api.md#refunds: refunds are shown
 * through the payment they refund), and only the caller's own when it is a cashier.
 */
export function salesScope(ownSalesOf: string | null, tillOf: string | null = null): { createdBy?: string; refundOf: null; OR?: ({ createdBy: string } | { terminalId: string })[] } {
  if (!ownSalesOf) return { refundOf: null };
  // A cashier signed in by PIN on a registered till also sees that till's sales: a sale left
  // waiting when the till was locked is seen through by the next cashier (docs/counter.md#the-lock-screen-and-pin-sign-in).
  if (tillOf) return { refundOf: null, OR: [{ createdBy: ownSalesOf }, { terminalId: tillOf }] };
  return { createdBy: ownSalesOf, refundOf: null };
}

/** Whether payment `id` exists and the caller may see it. */
export async function canSeePayment(db: Db, id: string, ownSalesOf: string | null, tillOf: string | null = null): Promise<boolean> {
  return (await db.prisma.payment.findFirst({ where: { id, ...salesScope(ownSalesOf, tillOf) }, select: { id: true } })) !== null;
}
