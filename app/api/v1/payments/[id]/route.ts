import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { json, jsonError } from '@/lib/api/respond';
import { requireAccess } from '@/lib/api/access';
import { vendorPaymentView } from '@/lib/relay/payment-view';

export const dynamic = 'force-dynamic';

export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const ctx = await appContext();
    const auth = await requireAccess(ctx.db, req, 'payments:read');
    if (!auth.ok) return auth.response;
    const { id } = await params;
    const row = await ctx.db.prisma.payment.findUnique({ where: { id } });
    if (!row) return jsonError(404, 'not_found', 'no payment with this id');
    return json(vendorPaymentView(row, ctx.cfg.publicUrl, new Date()));
  }, { req });
}
