import { json, jsonError } from '@/lib/api/respond';
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
    const body = await readJson(req);
    // The pricing currency changes what every price means (DESIGN.md §14): the owner's call.
    if (body && typeof body === 'object' && Object.hasOwn(body, 'pricing_currency') && a.user.role !== 'owner') {
      return jsonError(403, 'forbidden', 'pricing_currency: changing it needs the owner role');
    }
    return json(await changeSettings(ctx.db, ctx.network, a.user, body));
  });
}
