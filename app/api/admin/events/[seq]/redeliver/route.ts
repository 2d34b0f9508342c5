import { json } from '@/lib/api/respond';
import { adminRoute } from '@/lib/api/admin';
import { redeliverEvent } from '@/lib/backoffice/invoices';

export const dynamic = 'force-dynamic';

export function POST(req: Request, { params }: { params: Promise<{ seq: string }> }) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    const { seq } = await params;
    await redeliverEvent(ctx.db, a.user.storeId, seq);
    return json({ ok: true, queued: true });
  });
}
