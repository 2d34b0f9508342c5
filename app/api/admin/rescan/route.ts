import { json, adminRoute, readJson } from '@/lib/api';
import { startOperatorRescan } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';

// The owner re-scans the wallet's history from a height or date (docs/node.md#the-wallets-history-birthday-and-rescan): 202 with the
// rescan's progress, which GET /api/admin/node keeps reporting. Audited.
export function POST(req: Request) {
  return adminRoute(req, 'owner', async (ctx, a) => {
    return json(await startOperatorRescan(ctx.db, ctx.chain, a.user.storeId, a.user.id, await readJson(req)), 202);
  });
}
