// DELETE /api/admin/terminals/<id>/display: unpairs every customer display of a till
// (docs/counter.md#the-customers-display); an open display returns to its pairing form at once.
import { json, adminRoute } from '@/lib/api';
import { unpairDisplays } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';

export function DELETE(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    const { id } = await params;
    return json({ unpaired: await unpairDisplays(ctx.db, a.user.storeId, a.user.id, id) });
  });
}
