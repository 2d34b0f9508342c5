import { json, adminRoute, readJson } from '@/lib/api';
import { createApiKeyFor, listApiKeys } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return adminRoute(req, 'owner', async (ctx, a) => {
    return json({ api_keys: await listApiKeys(ctx.db, a.user.storeId) });
  });
}

// The secret is in this answer only.
export function POST(req: Request) {
  return adminRoute(req, 'owner', async (ctx, a) => {
    return json(await createApiKeyFor(ctx.db, a.user.storeId, a.user.id, await readJson(req)), 201);
  });
}
