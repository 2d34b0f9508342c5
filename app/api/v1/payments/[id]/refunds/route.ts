// Refunds of a payment (docs/api.md#refunds): POST creates one (scope payments:refund, owner and
// manager roles), GET lists them (scope payments:read).
import { vendorRoute, readBodyText, parseJsonOrUndefined, json } from '@/lib/api';
import { notFound } from '@/lib/errors';
import { createRefund, refundsOfPayment } from '@/lib/refunds';

export const dynamic = 'force-dynamic';

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return vendorRoute(req, 'payments:refund', async (ctx, auth) => {
    const { id } = await params;
    const body = parseJsonOrUndefined(await readBodyText(req));
    const r = await createRefund(
      {
        db: ctx.db,
        storeId: auth.storeId,
        network: ctx.network,
        publicUrl: ctx.cfg.publicUrl,
        apiKeyId: auth.keyId,
        userId: auth.user?.id ?? null,
        ownSalesOf: auth.ownSalesOf,
      },
      id,
      body,
    );
    return json(r, 201);
  });
}

export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return vendorRoute(req, 'payments:read', async (ctx, auth) => {
    const { id } = await params;
    const r = await refundsOfPayment(ctx.db.prisma, auth, id, auth.ownSalesOf, ctx.cfg.publicUrl);
    if (!r) throw notFound('no payment with this id');
    return json(r);
  });
}
