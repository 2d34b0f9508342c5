import { json } from '@/lib/api/respond';
import { adminRoute } from '@/lib/api/admin';
import { jsonError } from '@/lib/api/respond';
import { salesPerDay } from '@/lib/backoffice/sales';
import { storeZone } from '@/lib/receipts/receipt';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return adminRoute(req, 'manager', async (ctx) => {
    const d = new URL(req.url).searchParams.get('days') ?? '30';
    if (!/^\d{1,3}$/.test(d) || Number(d) < 1 || Number(d) > 366) return jsonError(400, 'invalid_request', 'days: must be an integer 1–366');
    const days = await salesPerDay(ctx.db, Number(d), new Date(), await storeZone(ctx.db));
    return json({ days: days.map(({ day, count, total }) => ({ day, count, total })) });
  });
}
