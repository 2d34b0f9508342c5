// The one store-scoping rule (docs/architecture.md#data): a request acts for one store, the
// store of its principal (a session's current store, an API key's, a terminal's or a display's),
// and every read and write of a store-owned row names that store. `inStore` is the fragment a
// Prisma `where` or `data` spreads; it refuses a missing store id outright, because Prisma reads
// `storeId: undefined` as "no filter" and a forgotten store would quietly widen to every store.

/** A principal's store: what scoped functions take from the route. */
export interface StoreScope {
  readonly storeId: number;
}

/** A store id checked to be one: a positive integer. */
export function storeIdOf(storeId: number): number {
  if (!Number.isSafeInteger(storeId) || storeId < 1) throw new Error(`a store-scoped query needs its store id (got ${String(storeId)})`);
  return storeId;
}

/** `{ storeId }` for a Prisma `where` or `data`: `where: { id, ...inStore(storeId) }`. */
export function inStore(storeId: number): { storeId: number } {
  return { storeId: storeIdOf(storeId) };
}
