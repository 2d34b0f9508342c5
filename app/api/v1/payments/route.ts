import { vendorRoute, readBodyText, json, idempotencyKey, saleTerminal } from '@/lib/api';
import { createPayment, listPayments } from '@/lib/payments';
import { assertReady } from '@/lib/health';
import { createCashSale, tenderOf } from '@/lib/cash';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return vendorRoute(req, 'payments:write', async (ctx, auth) => {
    const idem = idempotencyKey(req);
    const body = await readBodyText(req);
    // A cash sale (docs/counter.md#cash): recorded paid at once, no address; it needs neither a
    // synced chain nor an open-payment slot, so readiness and the cap do not apply to it.
    if (tenderOf(body) === 'cash') {
      const r = await createCashSale(
        {
          db: ctx.db,
          storeId: auth.storeId,
          network: ctx.network,
          publicUrl: ctx.cfg.publicUrl,
          apiKeyId: auth.keyId,
          userId: auth.user?.id ?? null,
          idempotencyKey: idem,
          terminal: await saleTerminal(ctx.db, req, auth),
        },
        body,
      );
      return json(r.body, r.status, r.replayed ? { 'Idempotent-Replayed': 'true' } : {});
    }
    // The till (a signed-in session) refuses to charge while the store is not ready (
    // docs/operations.md#readiness). API-key clients are left to judge /api/health themselves: their integrations
    // may create payments on a store that is still syncing.
    const beforeCreate = auth.kind === 'session' ? () => assertReady(ctx.cfg, ctx.db, auth.storeId, ctx.network) : undefined;
    const r = await createPayment(
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
      },
      body,
    );
    return json(r.body, r.status, r.replayed ? { 'Idempotent-Replayed': 'true' } : {});
  });
}

export function GET(req: Request) {
  return vendorRoute(req, 'payments:read', async (ctx, auth) => {
    return json(await listPayments(ctx.db, auth, new URL(req.url).searchParams, ctx.cfg.publicUrl, new Date()));
  });
}
