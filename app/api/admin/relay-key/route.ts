import { json, adminRoute } from '@/lib/api';
import { relayKeyView, rotateRelayKeyView } from '@/lib/backoffice';

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
