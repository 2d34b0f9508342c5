// PUT /api/admin/users/<id>/pin { pin }: sets a staff PIN (docs/counter.md). The owner for
// anyone, a manager for cashiers, every user for itself (lib/backoffice/pins.ts decides).
import { adminRoute, readJson } from '@/lib/api';
import { setUserPin } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';

export function PUT(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return adminRoute(req, 'cashier', async (ctx, a) => {
    const { id } = await params;
    await setUserPin(ctx.db, a.user, id, await readJson(req, 1024));
    return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
  });
}
