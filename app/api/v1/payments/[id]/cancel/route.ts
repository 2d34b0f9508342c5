import { vendorRoute } from '@/lib/api/vendor-route';
import { readBodyText } from '@/lib/api/body';
import { json, jsonError } from '@/lib/api/respond';
import { cancelPayment } from '@/lib/relay/cancel-payment';
import { vendorPaymentView } from '@/lib/relay/payment-view';
import { withRefundsOne } from '@/lib/refunds/load';

export const dynamic = 'force-dynamic';

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return vendorRoute(req, 'payments:write', async (ctx, auth) => {
    await readBodyText(req); // no body is needed; an oversized one still gets 413
    const { id } = await params;
    const r = await cancelPayment(ctx.db, id, ctx.cfg.publicUrl, new Date(), auth.ownSalesOf);
    if (r === 'not_found') return jsonError(404, 'not_found', 'no payment with this id');
    if (r === 'conflict') return jsonError(409, 'conflict', 'only an unpaid payment with no transaction in flight can be cancelled');
    const row = await ctx.db.prisma.payment.findUniqueOrThrow({ where: { id } });
    return json(vendorPaymentView(await withRefundsOne(ctx.db.prisma, row), ctx.cfg.publicUrl, new Date()));
  });
}
