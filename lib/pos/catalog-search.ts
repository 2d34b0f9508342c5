// What the till's category tabs, search box and barcode scanner pick from the catalog
// (docs/catalog.md). Pure functions over the loaded products: the till filters as the cashier
// types, so they must stay cheap for a few hundred products.

export interface Searchable {
  sku: string;
  name: string;
  barcode: string;
  category: string;
}

/** "" for every category (the "All" tab). */
export const ALL = '';

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();

/**
 * The products of `category` (ALL for every one) matching `query` by name, SKU or barcode. A
 * product whose barcode or SKU is exactly the query comes first, so Enter after a scanned code
 * picks it; then names that start with the query; then the other matches, in catalog order.
 */
export function filterProducts<T extends Searchable>(products: readonly T[], category: string, query: string): T[] {
  const inCategory = category === ALL ? products : products.filter((p) => p.category === category);
  const q = fold(query.trim());
  if (!q) return [...inCategory];
  const exact: T[] = [];
  const prefix: T[] = [];
  const rest: T[] = [];
  for (const p of inCategory) {
    const name = fold(p.name);
    const sku = fold(p.sku);
    const code = fold(p.barcode);
    if (code === q || sku === q) exact.push(p);
    else if (name.startsWith(q)) prefix.push(p);
    else if (name.includes(q) || sku.includes(q) || (code !== '' && code.includes(q))) rest.push(p);
  }
  return [...exact, ...prefix, ...rest];
}

/** The product a scanned code names: its barcode first, else its SKU (case-insensitive). */
export function findByCode<T extends Searchable>(products: readonly T[], code: string): T | null {
  const c = code.trim();
  if (!c) return null;
  return (
    products.find((p) => p.barcode !== '' && p.barcode === c) ??
    products.find((p) => p.sku === c) ??
    products.find((p) => p.sku.toLowerCase() === c.toLowerCase()) ??
    null
  );
}
