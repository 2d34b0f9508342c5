import { appContext } from '@/lib/app-context';
import { handle, json, adminRoute, requireRole, readJson } from '@/lib/api';
import { createProduct, listProducts, productCategories } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';

// Listing the live catalog is open to every role (the cashier screen sells from it).
export function GET(req: Request) {
  return handle(async () => {
    const ctx = await appContext();
    const all = new URL(req.url).searchParams.get('archived') === '1';
    const a = await requireRole(ctx.db, req, all ? 'manager' : 'cashier');
    if (!a.ok) return a.response;
    const products = await listProducts(ctx.db, a.user.storeId, { includeArchived: all });
    // `categories`: the products' categories in the store's order (docs/catalog.md).
    return json({ products, categories: await productCategories(ctx.db, a.user.storeId, products) });
  });
}

export function POST(req: Request) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    return json(await createProduct(ctx.db, a.user.storeId, await readJson(req), a.user.id), 201);
  });
}
