import { json } from '@/lib/api/respond';
import { adminRoute, readJson } from '@/lib/api/admin';
import { readSettings, updateSettings } from '@/lib/backoffice/settings';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return adminRoute(req, 'manager', async (ctx) => {
    return json(await readSettings(ctx.db));
  });
}

export function PATCH(req: Request) {
  return adminRoute(req, 'manager', async (ctx) => {
    return json(await updateSettings(ctx.db, ctx.network, await readJson(req)));
  });
}
