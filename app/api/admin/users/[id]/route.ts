import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { json } from '@/lib/api/respond';
import { requireRole, readJson, adminErrors } from '@/lib/api/admin';
import { updateUser } from '@/lib/backoffice/users';

export const dynamic = 'force-dynamic';

// Change role, disable/enable, rename.
export function PATCH(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(() => adminErrors(async () => {
    const ctx = await appContext();
    const a = await requireRole(ctx.db, req, 'owner');
    if (!a.ok) return a.response;
    const { id } = await params;
    return json(await updateUser(ctx.db, a.user.id, id, await readJson(req, 8 * 1024)));
  }));
}
