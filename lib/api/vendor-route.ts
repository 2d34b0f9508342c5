// One vendor API route handler (/api/v1/*, /invoices/*): rate limit and error mapping
// (lib/api/handle), the app context and the check of what the route needs (an API key's scope, or
// a session that holds it, with CSRF on mutations), around the route's own work.
import { appContext, type AppContext } from '../app-context';
import type { Need } from '../auth';
import { handle } from './handle';
import { requireAccess, type Access } from './access';

export type Granted = Extract<Access, { ok: true }>;

export function vendorRoute(req: Request, need: Need, fn: (ctx: AppContext, auth: Granted) => Promise<Response>): Promise<Response> {
  return handle(
    async () => {
      const ctx = await appContext();
      const auth = await requireAccess(ctx.db, req, need);
      if (!auth.ok) return auth.response;
      return fn(ctx, auth);
    },
    { req },
  );
}
