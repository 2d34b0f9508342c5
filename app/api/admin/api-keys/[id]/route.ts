import { json, adminRoute } from '@/lib/api';
import { revokeKey } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';

export function DELETE(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return adminRoute(req, 'owner', async (ctx, a) => {
    const { id } = await params;
    await revokeKey(ctx.db, a.user.storeId, id, a.user.id);
    return json({ ok: true });
  });
}
