import { json } from '@/lib/api/respond';
import { adminRoute } from '@/lib/api/admin';
import { readNodeStatus } from '@/lib/backoffice/node-status';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return adminRoute(req, 'manager', async (ctx) => {
    return json(await readNodeStatus(ctx.db));
  });
}
