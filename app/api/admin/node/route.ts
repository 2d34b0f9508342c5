import { json, adminRoute, readJson } from '@/lib/api';
import { readNodeStatus, changeBirthday } from '@/lib/backoffice';

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
