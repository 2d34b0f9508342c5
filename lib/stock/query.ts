// Reading stock (docs/catalog.md#stock): a product's level and movements, the tracked products
// for the back office's stock page, and how many are low.
import { inStore, storeIdOf } from '../stores';
import type { Db } from '../db';
import { notFound } from '../errors';

export interface MovementView {
  at: string;
  delta: number;
  /** sale | declined | returned (a payment's), or an adjustment's reason. */
  reason: string;
  note: string;
  /** The email of the user who made it (a sale's: its cashier), or null (an API key's sale, the chain). */
  user: string | null;
  payment_id: string | null;
}

export interface StockView {
  stock: number | null;
  low_stock: number;
  movements: MovementView[];
}

/** At most this many movements are answered, newest first. */
export const MOVEMENTS_SHOWN = 200;

export async function stockOf(db: Db, storeId: number, productId: string, limit = MOVEMENTS_SHOWN): Promise<StockView> {
  const p = await db.prisma.product.findFirst({ where: { id: productId, ...inStore(storeId) }, select: { stock: true, lowStock: true } });
  if (!p) throw notFound('no such product');
  const rows = await db.query<{
    at: Date | string;
    delta: number;
    reason: string;
    note: string;
    email: string | null;
    payment_id: string | null;
  }>(
    `SELECT m.at, m.delta, m.reason, m.note, u.email, m.payment_id
       FROM stock_movement m LEFT JOIN "user" u ON u.id = m.user_id
      WHERE m.product_id = $1 AND m.store_id = $3 ORDER BY m.at DESC, m.id DESC LIMIT $2`,
    [productId, limit, storeId],
  );
  return {
    stock: p.stock,
    low_stock: p.lowStock,
    movements: rows.map((r) => ({
      at: new Date(r.at).toISOString(),
      delta: Number(r.delta),
      reason: String(r.reason),
      note: String(r.note ?? ''),
      user: r.email === null || r.email === undefined ? null : String(r.email),
      payment_id: r.payment_id === null || r.payment_id === undefined ? null : String(r.payment_id),
    })),
  };
}

export interface TrackedProduct {
  id: string;
  sku: string;
  name: string;
  category: string;
  stock: number;
  low_stock: number;
  low: boolean;
}

/** Tracked, live products: low ones first (the lowest first), then by name. */
export async function trackedProducts(db: Db, storeId: number): Promise<TrackedProduct[]> {
  const rows = await db.prisma.product.findMany({
    where: { ...inStore(storeId), archived: false, stock: { not: null } },
    select: { id: true, sku: true, name: true, category: true, stock: true, lowStock: true },
    take: 5000,
  });
  const out = rows.map((r) => ({
    id: r.id,
    sku: r.sku,
    name: r.name,
    category: r.category,
    stock: r.stock!,
    low_stock: r.lowStock,
    low: r.stock! <= r.lowStock,
  }));
  return out.sort((a, b) =>
    a.low !== b.low ? (a.low ? -1 : 1) : a.low ? a.stock - b.stock || a.name.localeCompare(b.name) : a.name.localeCompare(b.name),
  );
}

/** How many live tracked products are at or below their low-stock threshold (the dashboard's count). */
export async function lowStockCount(db: Db, storeId: number): Promise<number> {
  const r = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM product WHERE store_id = $1 AND NOT archived AND stock IS NOT NULL AND stock <= low_stock`,
    [storeIdOf(storeId)],
  );
  return Number(r[0]?.n ?? 0);
}
