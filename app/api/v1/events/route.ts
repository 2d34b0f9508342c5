import { vendorRoute, json } from '@/lib/api';
import { listEvents } from '@/lib/payments';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return vendorRoute(req, 'payments:read', async (ctx, auth) => {
    return json(await listEvents(ctx.db, auth, new URL(req.url).searchParams));
  });
}
