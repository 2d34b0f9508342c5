// POST /api/v1/payments/<id>/receipt { "email": "<address>" }: emails the receipt (lib/receipts/send.ts).
import { vendorRoute, parseJsonOrUndefined, readBodyText, json } from '@/lib/api';
import { emailReceipt } from '@/lib/receipts';
import { runtimeSettings } from '@/lib/config';

export const dynamic = 'force-dynamic';

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return vendorRoute(req, 'payments:write', async (ctx, auth) => {
    const body = parseJsonOrUndefined(await readBodyText(req, 4096));
    const { id } = await params;
    const timeoutMs = runtimeSettings().smtpTimeoutMs ?? undefined;
    const actor =
      auth.kind === 'session'
        ? { storeId: auth.storeId, key: `user:${auth.user.id}`, userId: auth.user.id, role: auth.user.role, tillOf: auth.tillOf }
        : { storeId: auth.storeId, key: `key:${auth.keyId}`, userId: null, role: null };
    return json(await emailReceipt(ctx.db, id, body, actor, { timeoutMs }), 202);
  });
}
