import { json } from '@/lib/api/respond';
import { adminRoute } from '@/lib/api/admin';
import { invoiceDetail } from '@/lib/backoffice/invoices';

export const dynamic = 'force-dynamic';

export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    const { id } = await params;
    return json(await invoiceDetail(ctx.db, a.user.storeId, id, ctx.cfg.publicUrl));
  });
}
