import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { json } from '@/lib/api/respond';
import { requireAccess } from '@/lib/api/access';
import { listEvents } from '@/lib/relay/list-events';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return handle(async () => {
    const ctx = await appContext();
    const auth = await requireAccess(ctx.db, req, 'payments:read');
    if (!auth.ok) return auth.response;
    return json(await listEvents(ctx.db, new URL(req.url).searchParams));
  }, { req });
}
