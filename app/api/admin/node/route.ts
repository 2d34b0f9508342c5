import { json } from '@/lib/api/respond';
import { adminRoute, readJson } from '@/lib/api/admin';
import { readNodeStatus } from '@/lib/backoffice/node-status';
import { changeBirthday } from '@/lib/backoffice/wallet-history';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return adminRoute(req, 'manager', async (ctx) => {
    return json(await readNodeStatus(ctx.db));
  });
}

// The owner sets the wallet's birthday ({ wallet_birthday: height | "YYYY-MM-DD" | null }).
export function PATCH(req: Request) {
  return adminRoute(req, 'owner', async (ctx, a) => {
    return json({ wallet: await changeBirthday(ctx.db, ctx.chain, a.user.storeId, a.user.id, await readJson(req)) });
  });
}
