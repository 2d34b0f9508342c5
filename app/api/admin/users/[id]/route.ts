import { json, adminRoute, readJson } from '@/lib/api';
import { updateUser } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';

// Change role, disable/enable, rename.
export function PATCH(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return adminRoute(req, 'owner', async (ctx, a) => {
    const { id } = await params;
    return json(await updateUser(ctx.db, a.user.storeId, a.user.id, id, await readJson(req, 8 * 1024)));
  });
}
