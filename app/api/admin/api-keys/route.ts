import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { json } from '@/lib/api/respond';
import { requireRole, readJson, adminErrors } from '@/lib/api/admin';
import { createApiKeyFor, listApiKeys } from '@/lib/backoffice/keys';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return handle(() => adminErrors(async () => {
    const ctx = await appContext();
    const a = await requireRole(ctx.db, req, 'owner');
    if (!a.ok) return a.response;
    return json({ api_keys: await listApiKeys(ctx.db) });
  }));
}

// The secret is in this answer only.
export function POST(req: Request) {
  return handle(() => adminErrors(async () => {
    const ctx = await appContext();
    const a = await requireRole(ctx.db, req, 'owner');
    if (!a.ok) return a.response;
    return json(await createApiKeyFor(ctx.db, a.user.id, await readJson(req)), 201);
  }));
}
