// Rename (PATCH { name }) or revoke (DELETE) a registered till (docs/counter.md).
import { json, adminRoute, readJson } from '@/lib/api';
import { renameTerminal, revokeTerminal } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';

export function PATCH(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    const { id } = await params;
    return json(await renameTerminal(ctx.db, a.user.storeId, a.user.id, id, await readJson(req, 4 * 1024)));
  });
}

export function DELETE(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    const { id } = await params;
    await revokeTerminal(ctx.db, a.user.storeId, a.user.id, id);
    return json({ ok: true });
  });
}
