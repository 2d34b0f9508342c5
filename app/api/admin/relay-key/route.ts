import { json } from '@/lib/api/respond';
import { adminRoute } from '@/lib/api/admin';
import { relayKeyView, rotateRelayKeyView } from '@/lib/backoffice/keys';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return adminRoute(req, 'owner', async (ctx, a) => {
    return json(await relayKeyView(ctx.db, a.user.storeId));
  });
}

// Rotates the relay signing key.
export function POST(req: Request) {
  return adminRoute(req, 'owner', async (ctx, a) => {
    return json(await rotateRelayKeyView(ctx.db, a.user.storeId, a.user.id));
  });
}
