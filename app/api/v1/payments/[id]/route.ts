import { vendorRoute, json } from '@/lib/api';
import { notFound } from '@/lib/errors';
import { vendorPaymentView, salesScope } from '@/lib/payments';
import { withRefundsOne } from '@/lib/refunds';

export const dynamic = 'force-dynamic';

export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return vendorRoute(req, 'payments:read', async (ctx, auth) => {
    const { id } = await params;
    const row = await ctx.db.prisma.payment.findFirst({ where: { id, ...salesScope(auth) } });
    if (!row) throw notFound('no payment with this id');
    return json(vendorPaymentView(await withRefundsOne(ctx.db.prisma, row), ctx.cfg.publicUrl, new Date()));
  });
}
