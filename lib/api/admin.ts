// Authorisation for the back-office JSON API (/api/admin/*): a signed-in
// user of at least the given role; mutations need the session's CSRF token and same origin.
// API keys are not accepted here: the back office is for people.
import type { Db } from '../db';
import { roleAtLeast, type Role, type SessionUser } from '../auth';
import { InvalidRequestError } from '../errors';
import { readBodyText } from './body';
import { requestUser, mutationAllowed, csrfRefused } from './access';
import { errorResponse } from './error-table';
import { handle } from './handle';
import { appContext, type AppContext } from '../app-context';

export type AdminAccess = { ok: true; user: SessionUser } | { ok: false; response: Response };

export async function requireRole(db: Db, req: Request, min: Role): Promise<AdminAccess> {
  const user = await requestUser(db, req);
  if (!user) return { ok: false, response: errorResponse('unauthorized', 'sign in first') };
  // A PIN opens the till only; the back office still asks for the password (docs/counter.md).
  if (user.tillOnly)
    return { ok: false, response: errorResponse('forbidden', 'a PIN opens the till only: sign in with your password for the back office') };
  if (!roleAtLeast(user.role, min)) return { ok: false, response: errorResponse('forbidden', `this needs the ${min} role or higher`) };
  if (!mutationAllowed(user, req)) return { ok: false, response: csrfRefused() };
  return { ok: true, user };
}

/** Reads a bounded JSON body (default 256 KiB: room for a product image, nothing more). */
export async function readJson(req: Request, limit = 256 * 1024): Promise<unknown> {
  const text = await readBodyText(req, limit);
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidRequestError('', 'body must be JSON');
  }
}

/**
 * One back-office route handler: the one error path (lib/api/handle), the app context and the role check every
 * /api/admin route needs, around the route's own work.
 */
export function adminRoute(
  req: Request,
  min: Role,
  fn: (ctx: AppContext, a: { user: SessionUser }) => Promise<Response>,
): Promise<Response> {
  return handle(async () => {
    const ctx = await appContext();
    const a = await requireRole(ctx.db, req, min);
    if (!a.ok) return a.response;
    return fn(ctx, a);
  });
}
