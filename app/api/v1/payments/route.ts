import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { readBodyText } from '@/lib/api/body';
import { json, jsonError } from '@/lib/api/respond';
import { requireAccess } from '@/lib/api/access';
import { createPayment } from '@/lib/relay/create-payment';
import { listPayments } from '@/lib/relay/list-payments';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(async () => {
    const ctx = await appContext();
    const auth = await requireAccess(ctx.db, req, 'payments:write');
    if (!auth.ok) return auth.response;
    const idem = req.headers.get('idempotency-key');
    if (idem !== null && !/^[!-~]{1,200}$/.test(idem)) {
      return jsonError(400, 'invalid_request', 'Idempotency-Key: must be 1–200 visible ASCII characters');
    }
    const body = await readBodyText(req);
    const r = await createPayment(
      { db: ctx.db, network: ctx.network, publicUrl: ctx.cfg.publicUrl, apiKeyId: auth.keyId, userId: auth.user?.id ?? null, idempotencyKey: idem },
      body,
    );
    return json(r.body, r.status, r.replayed ? { 'Idempotent-Replayed': 'true' } : {});
  }, { req });
}

export function GET(req: Request) {
  return handle(async () => {
    const ctx = await appContext();
    const auth = await requireAccess(ctx.db, req, 'payments:read');
    if (!auth.ok) return auth.response;
    return json(await listPayments(ctx.db, new URL(req.url).searchParams, ctx.cfg.publicUrl));
  }, { req });
}
