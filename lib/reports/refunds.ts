// Refunds in a report period (DESIGN.md §13, §15): refunds are not sales; the report subtracts
// the refunds confirmed in the period from gross to give net.
//
// Refunds do not exist in this tree yet. This is the one place the refunds work fills in: sum
// the refunds whose `confirmed_at` falls in [from, to) (scoped to the payments `ownSalesOf`
// created, when set), in koinu, and their fiat value per currency where the refunded payment
// had one. Until then every period has none.
import type { Db } from '../db/client';

export interface PeriodRefunds {
  count: number;
  koinu: bigint;
  /** Fiat value of the refunds, in the currency's decimal string, per ISO code. */
  fiat: Map<string, string>;
}

export async function refundsConfirmedInPeriod(_db: Db, _from: Date, _to: Date, _ownSalesOf: string | null): Promise<PeriodRefunds> {
  return { count: 0, koinu: 0n, fiat: new Map() };
}
