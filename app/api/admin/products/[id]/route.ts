import { json, adminRoute, readJson } from '@/lib/api';
import { updateProduct } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';

// Edit, archive ({"archived": true}) or restore a product.
export function PATCH(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    const { id } = await params;
    return json(await updateProduct(ctx.db, a.user.storeId, id, await readJson(req), a.user.id));
  });
}
