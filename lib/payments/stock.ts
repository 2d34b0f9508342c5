// The stock a transition moves (docs/catalog.md#stock): the table's `stock` column says whether
// a transition takes a sale's goods off stock or gives them back; lib/stock writes it, inside
// the transition's transaction. Every writer of a transition calls this (apply.ts), or writes
// the same SQL into its own statement (accept-sql.ts, the /pay hot path). A cash sale is created
// and moved through the table's cash.received row (create.ts insertCashSale): it takes its goods
// like any sale that becomes paid.
import { returnSaleStock, takeSaleStock, type StockTx } from '../stock';
import type { Transition } from './table';

/** Moves the stock the transition calls for; the decline is credited to whoever decided it. */
export async function stockOfTransition(t: StockTx, tr: Pick<Transition, 'stock'>, paymentId: string, now: Date): Promise<void> {
  if (tr.stock === 'take') await takeSaleStock(t, paymentId, now);
  else if (tr.stock === 'return') await returnSaleStock(t, paymentId, now, 'declined', await decidedBy(t, paymentId));
}

/** The user who decided the payment (decided_by holds a session's email, or "api key …"), or null. */
async function decidedBy(t: StockTx, paymentId: string): Promise<string | null> {
  const r = await t.$queryRawUnsafe<{ id: string }[]>(
    'SELECT u.id FROM payment p JOIN "user" u ON u.email = p.decided_by WHERE p.id = $1',
    paymentId,
  );
  return r[0]?.id ?? null;
}
