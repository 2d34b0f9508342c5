import { json, jsonError } from '@/lib/api/respond';
import { adminRoute } from '@/lib/api/admin';
import { listAudit } from '@/lib/backoffice/audit';

export const dynamic = 'force-dynamic';

// The audit log (docs/using-counter.md#the-back-office-admin-and-the-invoice-listing), newest first; owners only. `limit` 1–1000, default 200.
export function GET(req: Request) {
  return adminRoute(req, 'owner', async (ctx) => {
    const l = new URL(req.url).searchParams.get('limit') ?? '200';
    if (!/^\d{1,4}$/.test(l) || Number(l) < 1 || Number(l) > 1000) return jsonError(400, 'invalid_request', 'limit: must be an integer 1–1000');
    return json({ entries: await listAudit(ctx.db, Number(l)) });
  });
}
