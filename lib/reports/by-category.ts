// The sales report's `by_category` (docs/catalog.md#reports): the item lines of the period's
// confirmed sales, grouped by their product's category.
//
// What a line counts as:
// - An item line belongs to the product whose SKU is the line's `id` (the rule stock uses too),
//   whether the till or the vendor API made the sale, archived products included.
// - It is counted under that product's category as it is now (lines keep no copy of it), so a
//   product moved to another category moves its past sales with it.
// - A line with no such product (a keypad amount, an API item whose id is no SKU) or whose
//   product has no category counts under "" (shown as "Uncategorised").
// - Only item lines: tips, discounts, fees and shipping are in the totals, not in a category.
//   Like by_product, `gross` is the lines' total before tax and `tax` their tax.
// Rows come in the store's category order (the `categories` setting), then categories not in
// it alphabetically, then "".
import type { Db } from '../db';
import { formatKoinu } from '../money';
import { orderCategories, storedCategories } from '../catalog';
import { findStore } from '../stores';

export interface CategoryRow {
  category: string;
  count: number;
  gross: string;
  tax: string;
}

/** The confirmed sales' item lines by category; `scope` is the report's WHERE over payment `p.` with its params. */
export async function salesByCategory(db: Db, storeId: number, scope: { where: string; params: unknown[] }): Promise<CategoryRow[]> {
  const [rows, store] = await Promise.all([
    db.prisma.$queryRawUnsafe<{ category: string; count: bigint | null; gross: bigint | null; tax: bigint | null }[]>(
      `SELECT coalesce(pr."category", '') AS category, sum(coalesce(l."count", 0))::bigint AS count,
              sum(l."total")::bigint AS gross, sum(l."tax")::bigint AS tax
         FROM "payment" p JOIN "payment_line" l ON l."payment_id" = p."id"
         LEFT JOIN "product" pr ON pr."store_id" = p."store_id" AND pr."sku" = l."item_id"
        WHERE ${scope.where} AND p."status" = 'confirmed' AND l."type" = 'item'
        GROUP BY 1`,
      ...scope.params,
    ),
    findStore(db, storeId),
  ]);
  const order = orderCategories(
    storedCategories(store?.categories),
    rows.map((r) => r.category),
  );
  const rank = new Map(order.map((c, i) => [c, i]));
  return rows
    .sort((a, b) => (rank.get(a.category) ?? order.length) - (rank.get(b.category) ?? order.length))
    .map((r) => ({
      category: r.category,
      count: Number(r.count ?? 0),
      gross: formatKoinu(BigInt(r.gross ?? 0)),
      tax: formatKoinu(BigInt(r.tax ?? 0)),
    }));
}
