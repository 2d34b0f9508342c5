import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { json } from '@/lib/api/respond';
import { requireRole, adminErrors } from '@/lib/api/admin';
import { revokeKey } from '@/lib/backoffice/keys';

export const dynamic = 'force-dynamic';

export function DELETE(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(() => adminErrors(async () => {
    const ctx = await appContext();
    const a = await requireRole(ctx.db, req, 'owner');
    if (!a.ok) return a.response;
    const { id } = await params;
    await revokeKey(ctx.db, id);
    return json({ ok: true });
  }));
}
