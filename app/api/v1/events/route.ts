import { vendorRoute } from '@/lib/api/vendor-route';
import { json } from '@/lib/api/respond';
import { listEvents } from '@/lib/payments';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return vendorRoute(req, 'payments:read', async (ctx, auth) => {
    return json(await listEvents(ctx.db, auth, new URL(req.url).searchParams));
  });
}
