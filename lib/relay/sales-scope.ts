// Which payments a caller may see (DESIGN.md §3): a cashier only the ones it created, everyone
// else the store's. `ownSalesOf` comes from lib/api/access (null = all). Another's payment is
// answered as if it did not exist (404), so ids cannot be probed.
import type { Db } from '../db/client';

/** A Prisma `where` fragment limiting payments to the caller's own sales, or nothing. */
export function salesScope(ownSalesOf: string | null): { createdBy?: string } {
  return ownSalesOf ? { createdBy: ownSalesOf } : {};
}

/** Whether payment `id` exists and the caller may see it. */
export async function canSeePayment(db: Db, id: string, ownSalesOf: string | null): Promise<boolean> {
  return (await db.prisma.payment.findFirst({ where: { id, ...salesScope(ownSalesOf) }, select: { id: true } })) !== null;
}
