import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { json } from '@/lib/api/respond';
import { requireRole, readJson, adminErrors } from '@/lib/api/admin';
import { createUserWithRole, listUserViews } from '@/lib/backoffice/users';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return handle(() => adminErrors(async () => {
    const ctx = await appContext();
    const a = await requireRole(ctx.db, req, 'owner');
    if (!a.ok) return a.response;
    return json({ users: await listUserViews(ctx.db) });
  }));
}

export function POST(req: Request) {
  return handle(() => adminErrors(async () => {
    const ctx = await appContext();
    const a = await requireRole(ctx.db, req, 'owner');
    if (!a.ok) return a.response;
    return json(await createUserWithRole(ctx.db, await readJson(req, 8 * 1024)), 201);
  }));
}
