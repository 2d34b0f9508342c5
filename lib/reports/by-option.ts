// The options sold with each product (docs/catalog.md#options), for the sales report's
// `by_product[].options`: per product line (id and name, as by_product groups them) and option,
// the units sold with it and their amount, in DOGE as the report's other amounts (an option's
// DOGE per unit is stored with the line it was sold on, payment_line.options).
import type { Db } from '../db';
import { formatKoinu } from '../money';

export interface OptionRow {
  name: string;
  count: number;
  amount: string;
}

/** by "<item id>\u0000<name>": the options sold, most units first. `where` is the report's scope over `p`. */
export async function optionsByProduct(db: Db, scope: { where: string; params: unknown[] }): Promise<Map<string, OptionRow[]>> {
  const rows = await db.prisma.$queryRawUnsafe<
    { item_id: string; name: string; option: string; count: bigint | null; amount: string | null }[]
  >(
    `SELECT l."item_id", l."name", o->>'name' AS option, sum(coalesce(l."count", 0))::bigint AS count,
            sum(coalesce(l."count", 0)::numeric * (o->>'unit')::numeric)::text AS amount
       FROM "payment" p JOIN "payment_line" l ON l."payment_id" = p."id"
            CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(l."options") = 'array' THEN l."options" ELSE '[]'::jsonb END) o
      WHERE ${scope.where} AND p."status" = 'confirmed' AND l."type" = 'item' AND (o->>'unit') ~ '^[0-9]{1,20}$'
      GROUP BY 1, 2, 3 ORDER BY 4 DESC, 3`,
    ...scope.params,
  );
  const out = new Map<string, OptionRow[]>();
  for (const r of rows) {
    const key = `${r.item_id}\u0000${r.name}`;
    const list = out.get(key) ?? [];
    list.push({ name: r.option, count: Number(r.count ?? 0), amount: formatKoinu(BigInt(r.amount ?? '0')) });
    out.set(key, list);
  }
  return out;
}
