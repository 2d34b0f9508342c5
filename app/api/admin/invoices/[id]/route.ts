import { json, adminRoute } from '@/lib/api';
import { invoiceDetail } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';

export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    const { id } = await params;
    return json(await invoiceDetail(ctx.db, a.user.storeId, id, ctx.cfg.publicUrl));
  });
}
