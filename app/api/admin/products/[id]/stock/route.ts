import { json, adminRoute, readJson } from '@/lib/api';
import { adjustStock, parseAdjustment, stockOf } from '@/lib/stock';

export const dynamic = 'force-dynamic';

// A product's stock and its movements, newest first (docs/catalog.md#stock).
export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    const { id } = await params;
    return json(await stockOf(ctx.db, a.user.storeId, id));
  });
}

// An adjustment: { "delta" } or { "count" }, a reason and an optional note; answers the stock as GET does.
export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    const { id } = await params;
    const adj = parseAdjustment(await readJson(req, 16 * 1024));
    await adjustStock(ctx.db, a.user.storeId, id, adj, a.user.id);
    return json(await stockOf(ctx.db, a.user.storeId, id));
  });
}
