// POST /api/pos/sales/<id>/charge-again { "order_reference": "…" } (the till, with an
// Idempotency-Key): the sale's lines as a new payment, built on the server from the stored lines
// (lib/pos/charge-again.ts); a fiat-priced sale is priced again at the rate in force. Answers as
// POST /api/v1/payments does (201 with the new payment, 503 rate_unavailable / not_ready, …).
import { vendorRoute, readBodyText, json, idempotencyKey, saleTerminal } from '@/lib/api';
import { assertReady } from '@/lib/health';
import { chargeAgain } from '@/lib/pos';

export const dynamic = 'force-dynamic';

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return vendorRoute(req, 'payments:write', async (ctx, auth) => {
    const idem = idempotencyKey(req);
    const { id } = await params;
    const body = await readBodyText(req, 4096);
    const beforeCreate = auth.kind === 'session' ? () => assertReady(ctx.cfg, ctx.db, auth.storeId, ctx.network) : undefined;
    const r = await chargeAgain(
      {
        db: ctx.db,
        storeId: auth.storeId,
        network: ctx.network,
        publicUrl: ctx.cfg.publicUrl,
        apiKeyId: auth.keyId,
        userId: auth.user?.id ?? null,
        idempotencyKey: idem,
        scopes: auth.scopes,
        maxOpenPayments: ctx.cfg.maxOpenPayments,
        beforeCreate,
        terminal: await saleTerminal(ctx.db, req, auth),
        ownSalesOf: auth.ownSalesOf,
      },
      id,
      body,
    );
    return json(r.body, r.status, r.replayed ? { 'Idempotent-Replayed': 'true' } : {});
  });
}
