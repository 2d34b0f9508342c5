import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { json } from '@/lib/api/respond';
import { requireRole, readJson, adminErrors } from '@/lib/api/admin';
import { updateProduct } from '@/lib/backoffice/catalog';

export const dynamic = 'force-dynamic';

// Edit, archive ({"archived": true}) or restore a product.
export function PATCH(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(() => adminErrors(async () => {
    const ctx = await appContext();
    const a = await requireRole(ctx.db, req, 'manager');
    if (!a.ok) return a.response;
    const { id } = await params;
    return json(await updateProduct(ctx.db, id, await readJson(req)));
  }));
}
