import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { readBodyText } from '@/lib/api/body';
import { json, jsonError } from '@/lib/api/respond';
import { requireAccess } from '@/lib/api/access';
import { cancelPayment } from '@/lib/relay/cancel-payment';
import { vendorPaymentView } from '@/lib/relay/payment-view';

export const dynamic = 'force-dynamic';

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const ctx = await appContext();
    const auth = await requireAccess(ctx.db, req, 'payments:write');
    if (!auth.ok) return auth.response;
    await readBodyText(req); // no body is needed; an oversized one still gets 413
    const { id } = await params;
    const r = await cancelPayment(ctx.db, id, ctx.cfg.publicUrl);
    if (r === 'not_found') return jsonError(404, 'not_found', 'no payment with this id');
    if (r === 'conflict') return jsonError(409, 'conflict', 'only an unpaid payment with no transaction in flight can be cancelled');
    const row = await ctx.db.prisma.payment.findUniqueOrThrow({ where: { id } });
    return json(vendorPaymentView(row, ctx.cfg.publicUrl, new Date()));
  }, { req });
}
