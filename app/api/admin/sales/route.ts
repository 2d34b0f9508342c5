import { json } from '@/lib/api/respond';
import { adminRoute } from '@/lib/api/admin';
import { intParam, queryParam } from '@/lib/api/validate';
import { salesPerDay } from '@/lib/backoffice/sales';
import { storeZone } from '@/lib/receipts/receipt';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    const d = queryParam(req, 'days', intParam(1, 366, 30));
    const days = await salesPerDay(ctx.db, a.user.storeId, d, new Date(), await storeZone(ctx.db, a.user.storeId));
    return json({ days: days.map(({ day, count, total }) => ({ day, count, total })) });
  });
}
