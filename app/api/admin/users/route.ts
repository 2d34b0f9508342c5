import { json, adminRoute, readJson } from '@/lib/api';
import { createUserWithRole, listUserViews } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return adminRoute(req, 'owner', async (ctx, a) => {
    return json({ users: await listUserViews(ctx.db, a.user.storeId) });
  });
}

export function POST(req: Request) {
  return adminRoute(req, 'owner', async (ctx, a) => {
    return json(await createUserWithRole(ctx.db, a.user.storeId, await readJson(req, 8 * 1024), a.user.id), 201);
  });
}
