import { json, intParam, queryParam, adminRoute } from '@/lib/api';
import { listAudit } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';

// The audit log (docs/using-counter.md#the-back-office-admin-and-the-invoice-listing), newest first; owners only. `limit` 1–1000, default 200.
export function GET(req: Request) {
  return adminRoute(req, 'owner', async (ctx, a) => {
    const limit = queryParam(req, 'limit', intParam(1, 1000, 200));
    return json({ entries: await listAudit(ctx.db, a.user.storeId, limit) });
  });
}
