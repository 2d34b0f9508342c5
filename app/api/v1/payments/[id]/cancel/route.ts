import { vendorRoute, readBodyText, json } from '@/lib/api';
import { DomainError, conflict, notFound } from '@/lib/errors';
import { cancelPayment, refundView, vendorPaymentView } from '@/lib/payments';
import { withRefundsOne, cancelRefund, isRefundId } from '@/lib/refunds';
import { inStore } from '@/lib/stores';

export const dynamic = 'force-dynamic';

export async function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // A refund (docs/api.md#refunds) is cancelled with the scope that creates it; it answers as a refund.
  if (isRefundId(id)) {
    return vendorRoute(req, 'payments:refund', async (ctx, auth) => {
      await readBodyText(req);
      const r = await cancelRefund(ctx.db, auth, id, ctx.cfg.publicUrl);
      if (!r.ok) throw new DomainError(r.code, r.message);
      const row = await ctx.db.prisma.payment.findFirstOrThrow({ where: { id, ...inStore(auth.storeId) } });
      return json(refundView({ ...row, refundOf: row.refundOf!, refundReason: row.refundReason }, ctx.cfg.publicUrl));
    });
  }
  return vendorRoute(req, 'payments:write', async (ctx, auth) => {
    await readBodyText(req); // no body is needed; an oversized one still gets 413
    const r = await cancelPayment(ctx.db, auth, id, ctx.cfg.publicUrl, new Date());
    if (r === 'not_found') throw notFound('no payment with this id');
    if (r === 'conflict') throw conflict('only an unpaid payment with no transaction in flight can be cancelled');
    const row = await ctx.db.prisma.payment.findFirstOrThrow({ where: { id, ...inStore(auth.storeId) } });
    return json(vendorPaymentView(await withRefundsOne(ctx.db.prisma, row), ctx.cfg.publicUrl, new Date()));
  });
}
