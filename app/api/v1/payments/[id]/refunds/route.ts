// Refunds of a payment (docs/api.md#refunds): POST creates one (scope payments:refund, owner and
// manager roles), GET lists them (scope payments:read).
import { vendorRoute } from '@/lib/api/vendor-route';
import { readBodyText, parseJsonOrUndefined } from '@/lib/api/body';
import { json, jsonError } from '@/lib/api/respond';
import { createRefund } from '@/lib/refunds/create-refund';
import { refundsOfPayment } from '@/lib/refunds/load';
import { refundErrorResponse } from '@/lib/api/refund-errors';

export const dynamic = 'force-dynamic';

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return vendorRoute(req, 'payments:refund', async (ctx, auth) => {
    const { id } = await params;
    const body = parseJsonOrUndefined(await readBodyText(req));
    try {
      const r = await createRefund(
        { db: ctx.db, network: ctx.network, publicUrl: ctx.cfg.publicUrl, apiKeyId: auth.keyId, userId: auth.user?.id ?? null, ownSalesOf: auth.ownSalesOf },
        id, body,
      );
      return json(r, 201);
    } catch (e) {
      const answer = refundErrorResponse(e);
      if (answer) return answer;
      throw e;
    }
  });
}

export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return vendorRoute(req, 'payments:read', async (ctx, auth) => {
    const { id } = await params;
    const r = await refundsOfPayment(ctx.db.prisma, id, auth.ownSalesOf, ctx.cfg.publicUrl);
    return r ? json(r) : jsonError(404, 'not_found', 'no payment with this id');
  });
}
