// One vendor API route handler (/api/v1/*, /invoices/*): rate limit and error mapping
// (lib/api/handle), the app context and the scope check (API key, or a session whose role grants
// the scope, with CSRF on mutations), around the route's own work.
import { appContext, type AppContext } from '../app-context';
import type { Scope } from '../auth';
import { handle } from './handle';
import { requireAccess, type Access } from './access';

export type Granted = Extract<Access, { ok: true }>;

export function vendorRoute(req: Request, scope: Scope, fn: (ctx: AppContext, auth: Granted) => Promise<Response>): Promise<Response> {
  return handle(async () => {
    const ctx = await appContext();
    const auth = await requireAccess(ctx.db, req, scope);
    if (!auth.ok) return auth.response;
    return fn(ctx, auth);
  }, { req });
}
