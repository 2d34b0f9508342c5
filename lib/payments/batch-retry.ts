// Error handling shared by the batched relay statements (pay-sql.ts, state/relay-accept.ts).
import { ItemFailure } from '../db';

export const isUniqueViolation = (e: unknown) => {
  const x = e as { code?: unknown; message?: unknown } | null;
  return x?.code === '23505' || /duplicate key value/.test(String(x?.message ?? ''));
};
/** PostgreSQL broke a lock cycle (rows of one batch locked in another order by another process). */
export const isDeadlock = (e: unknown) => (e as { code?: unknown } | null)?.code === '40P01';

/**
 * The items of a failed batch, each as its own statement, in order. Each settles on its own:
 * one that fails again fails alone (ItemFailure) and the others are still tried, so no caller
 * hears of an error for a change that was made, or of a change that was not.
 */
export async function oneByOne<I, O>(items: I[], run: (batch: I[]) => Promise<(O | ItemFailure)[]>): Promise<(O | ItemFailure)[]> {
  const each: (O | ItemFailure)[] = [];
  for (const item of items) {
    try {
      each.push((await run([item]))[0]);
    } catch (e) {
      each.push(new ItemFailure(e));
    }
  }
  return each;
}
