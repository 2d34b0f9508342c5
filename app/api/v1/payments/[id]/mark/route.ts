// POST /api/v1/payments/<id>/mark (docs/api.md#payments-from-any-wallet): the merchant settles or invalidates a payment.
import { vendorRoute } from '@/lib/api/vendor-route';
import { readBodyText, parseJsonOrUndefined } from '@/lib/api/body';
import { json, jsonError } from '@/lib/api/respond';
import { markPayment, markRequest } from '@/lib/payments';
import { vendorPaymentView } from '@/lib/payments';
import { withRefundsOne } from '@/lib/refunds/load';

export const dynamic = 'force-dynamic';

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  // payments:mark: a manager's or owner's password session, or an API key with payments:write;
  // never a cashier, never the till's PIN session (lib/auth/roles.ts).
  return vendorRoute(req, 'payments:mark', async (ctx, auth) => {
    const parsed = markRequest.safeParse(parseJsonOrUndefined(await readBodyText(req)));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') || 'body';
      return jsonError(400, 'invalid_request', `${field}: ${issue?.message ?? 'a JSON object {"as": "settled" | "invalid", "note": "…"} is required'}`);
    }
    const { id } = await params;
    const by = auth.kind === 'session' ? auth.user.email : `api key ${auth.keyId}`;
    const r = await markPayment(ctx.db, id, parsed.data, by, ctx.cfg.publicUrl);
    if (!r.ok) return jsonError(r.error === 'not_found' ? 404 : 409, r.error, r.message);
    const row = await ctx.db.prisma.payment.findUniqueOrThrow({ where: { id } });
    return json(vendorPaymentView(await withRefundsOne(ctx.db.prisma, row), ctx.cfg.publicUrl, new Date()));
  });
}
