// The stock hooks of a payment's lifecycle (docs/catalog.md#stock), called by the payment writer
// (lib/payments) inside the transaction of the transition that calls for them: the state table
// says which (table.ts, a transition's `stock`). Any path that makes a sale paid (a /pay
// acceptance, a plain-wallet tx, the merchant settling it, a cash sale created confirmed) calls
// takeSaleStock; any path that declines one calls returnSaleStock. Both are idempotent.
import { RETURN_SALE_SQL, TAKE_SALE_SQL, type SaleReason } from './sale-sql';

/** What the hooks need of a transaction: raw SQL (a Prisma transaction client has it). */
export interface StockTx {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/** Takes the sale's item lines off stock, once per payment; returns the products moved. */
export async function takeSaleStock(t: StockTx, paymentId: string, at: Date): Promise<number> {
  const r = await t.$queryRawUnsafe<{ n: number }[]>(TAKE_SALE_SQL, paymentId, at.toISOString());
  return Number(r[0]?.n ?? 0);
}

/**
 * Puts back what the payment's sale took and was not yet given back: `declined` when the payment
 * is declined, `returned` when a refund returns its goods (docs/api.md#refunds), once each.
 */
export async function returnSaleStock(
  t: StockTx,
  paymentId: string,
  at: Date,
  reason: Exclude<SaleReason, 'sale'>,
  userId: string | null,
  note = '',
): Promise<number> {
  const r = await t.$queryRawUnsafe<{ n: number }[]>(RETURN_SALE_SQL, paymentId, at.toISOString(), reason, userId, note);
  return Number(r[0]?.n ?? 0);
}
