import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { json } from '@/lib/api/respond';
import { requireRole, readJson, adminErrors } from '@/lib/api/admin';
import { readSettings, updateSettings } from '@/lib/backoffice/settings';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return handle(() => adminErrors(async () => {
    const ctx = await appContext();
    const a = await requireRole(ctx.db, req, 'manager');
    if (!a.ok) return a.response;
    return json(await readSettings(ctx.db));
  }));
}

export function PATCH(req: Request) {
  return handle(() => adminErrors(async () => {
    const ctx = await appContext();
    const a = await requireRole(ctx.db, req, 'manager');
    if (!a.ok) return a.response;
    return json(await updateSettings(ctx.db, ctx.network, await readJson(req)));
  }));
}
