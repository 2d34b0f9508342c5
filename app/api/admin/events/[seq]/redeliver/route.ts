import { json, adminRoute } from '@/lib/api';
import { redeliverEvent } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';

export function POST(req: Request, { params }: { params: Promise<{ seq: string }> }) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    const { seq } = await params;
    await redeliverEvent(ctx.db, a.user.storeId, seq);
    return json({ ok: true, queued: true });
  });
}
