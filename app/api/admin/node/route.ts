import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { json } from '@/lib/api/respond';
import { requireRole, adminErrors } from '@/lib/api/admin';
import { readNodeStatus } from '@/lib/backoffice/node-status';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return handle(() => adminErrors(async () => {
    const ctx = await appContext();
    const a = await requireRole(ctx.db, req, 'manager');
    if (!a.ok) return a.response;
    return json(await readNodeStatus(ctx.db));
  }));
}
