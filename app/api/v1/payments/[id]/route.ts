import { vendorRoute } from '@/lib/api/vendor-route';
import { json, jsonError } from '@/lib/api/respond';
import { vendorPaymentView } from '@/lib/relay/payment-view';

export const dynamic = 'force-dynamic';

export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return vendorRoute(req, 'payments:read', async (ctx) => {
    const { id } = await params;
    const row = await ctx.db.prisma.payment.findUnique({ where: { id } });
    if (!row) return jsonError(404, 'not_found', 'no payment with this id');
    return json(vendorPaymentView(row, ctx.cfg.publicUrl, new Date()));
  });
}
