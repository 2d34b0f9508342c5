// POST /api/v1/payments/<id>/mark (docs/api.md#payments-from-any-wallet): the merchant settles or invalidates a payment.
import { vendorRoute, json, jsonBody } from '@/lib/api';
import { DomainError } from '@/lib/errors';
import { markPayment, markRequest, vendorPaymentView } from '@/lib/payments';
import { withRefundsOne } from '@/lib/refunds';
import { inStore } from '@/lib/stores';

export const dynamic = 'force-dynamic';

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  // payments:mark: a manager's or owner's password session, or an API key with payments:write;
  // never a cashier, never the till's PIN session (lib/auth/roles.ts).
  return vendorRoute(req, 'payments:mark', async (ctx, auth) => {
    const mark = await jsonBody(req, markRequest);
    const { id } = await params;
    const by = auth.kind === 'session' ? auth.user.email : `api key ${auth.keyId}`;
    const r = await markPayment(ctx.db, auth, id, mark, by, ctx.cfg.publicUrl);
    if (!r.ok) throw new DomainError(r.error, r.message);
    const row = await ctx.db.prisma.payment.findFirstOrThrow({ where: { id, ...inStore(auth.storeId) } });
    return json(vendorPaymentView(await withRefundsOne(ctx.db.prisma, row), ctx.cfg.publicUrl, new Date()));
  });
}
