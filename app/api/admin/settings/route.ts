import { json } from '@/lib/api/respond';
import { adminRoute, readJson } from '@/lib/api/admin';
import { readSettings, updateSettings } from '@/lib/backoffice/settings';
import { OWNER_ONLY_FIELDS } from '@/lib/receipts/store-settings';
import { jsonError } from '@/lib/api/respond';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return adminRoute(req, 'manager', async (ctx) => {
    return json(await readSettings(ctx.db));
  });
}

export function PATCH(req: Request) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    const body = await readJson(req);
    const ownerOnly = OWNER_ONLY_FIELDS.find((f) => a.user.role !== 'owner' && body && typeof body === 'object' && f in body);
    if (ownerOnly) return jsonError(403, 'forbidden', `${ownerOnly}: only the owner changes this setting`);
    return json(await updateSettings(ctx.db, ctx.network, body));
  });
}
