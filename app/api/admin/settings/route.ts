import { json } from '@/lib/api/respond';
import { adminRoute, readJson } from '@/lib/api/admin';
import { readSettings } from '@/lib/backoffice/settings';
import { changeSettings } from '@/lib/backoffice/settings-change';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return adminRoute(req, 'manager', async (ctx) => {
    return json(await readSettings(ctx.db));
  });
}

// Managers edit the store; only the owner changes the receiving wallet. Every change is audited.
export function PATCH(req: Request) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    return json(await changeSettings(ctx.db, ctx.network, a.user, await readJson(req)));
  });
}
