// Registered tills (docs/counter.md): list them; register the calling browser as one (owner or
// manager), which sets its long-lived httpOnly terminal cookie.
import { json, adminRoute, readJson, clientInfo } from '@/lib/api';
import { terminalCookie } from '@/lib/auth';
import { listTerminals, registerTerminal } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return adminRoute(req, 'manager', async (ctx, a) => json({ terminals: await listTerminals(ctx.db, a.user.storeId) }));
}

export function POST(req: Request) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    const r = await registerTerminal(ctx.db, a.user.storeId, a.user.id, await readJson(req, 4 * 1024));
    const res = json(r.view, 201);
    res.headers.append('Set-Cookie', terminalCookie(r.token, clientInfo(req).secure));
    return res;
  });
}
