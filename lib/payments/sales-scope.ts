// Which payments a caller may see (docs/api.md#authentication-and-scopes): only its store's
// (docs/architecture.md#data), and of those a cashier only the ones it created, everyone else all.
// `ownSalesOf` comes from lib/api/access (null = all). Another store's payment, or another's,
// is answered as if it did not exist (404), so ids cannot be probed.
import type { Db } from '../db';
import { inStore } from '../stores';

/** Who is looking: the principal's store, and for a cashier its own sales (and its PIN session's till). */
export interface SalesViewer {
  storeId: number;
  ownSalesOf: string | null;
  tillOf?: string | null;
}

/**
 * A Prisma `where` fragment: the viewer's store, sales only (never a refund row, docs/api.md#refunds:
 * refunds are shown through the payment they refund), and only the caller's own when it is a cashier.
 */
export function salesScope(v: SalesViewer): {
  storeId: number;
  createdBy?: string;
  refundOf: null;
  OR?: ({ createdBy: string } | { terminalId: string })[];
} {
  const store = inStore(v.storeId);
  if (!v.ownSalesOf) return { ...store, refundOf: null };
  // A cashier signed in by PIN on a registered till also sees that till's sales: a sale left
  // waiting when the till was locked is seen through by the next cashier (docs/counter.md#the-lock-screen-and-pin-sign-in).
  if (v.tillOf) return { ...store, refundOf: null, OR: [{ createdBy: v.ownSalesOf }, { terminalId: v.tillOf }] };
  return { ...store, createdBy: v.ownSalesOf, refundOf: null };
}

/** Whether payment `id` exists and the caller may see it. */
export async function canSeePayment(db: Db, v: SalesViewer, id: string): Promise<boolean> {
  return (await db.prisma.payment.findFirst({ where: { id, ...salesScope(v) }, select: { id: true } })) !== null;
}
