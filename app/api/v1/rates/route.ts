import { vendorRoute, json } from '@/lib/api';
import { ratesReply } from '@/lib/rates';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return vendorRoute(req, 'payments:read', async (ctx, auth) => {
    return json(await ratesReply(ctx.db, auth.storeId));
  });
}
