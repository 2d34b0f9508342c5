import { json, adminRoute, intParam, queryParam } from '@/lib/api';
import { salesPerDay } from '@/lib/backoffice';
import { storeZone } from '@/lib/receipts';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    const d = queryParam(req, 'days', intParam(1, 366, 30));
    const days = await salesPerDay(ctx.db, a.user.storeId, d, new Date(), await storeZone(ctx.db, a.user.storeId));
    return json({ days: days.map(({ day, count, total }) => ({ day, count, total })) });
  });
}
