// Authorisation for endpoints used both by API clients and by the web app: a bearer API key
// with the scope, or a signed-in user whose role grants it. Browser mutations must also carry
// the session's CSRF token (X-CSRF-Token) and, when the browser sends one, a same-origin Origin.
import type { Db } from '../db';
import {
  authenticateApiKey,
  bearerToken,
  hasScope,
  keyScopeOf,
  type Need,
  type Scope,
  cookieValue,
  csrfMatches,
  sessionUser,
  sessionNeeds,
  sessionScopes,
  seesOnlyOwnSales,
  SESSION_COOKIE,
  CSRF_HEADER,
  type SessionUser,
} from '../auth';
import { errorResponse } from './error-table';

/**
 * A granted request: who it is, every scope it holds (for field-level checks such as
 * payments:outputs), and `ownSalesOf`: the user whose sales alone it may see and cancel (a
 * cashier), or null for all of the store's.
 */
export type Access =
  /** storeId: the store the principal acts for; every store-owned row it reads or writes is that store's. */
  | { ok: true; kind: 'api_key'; keyId: string; storeId: number; user: null; scopes: readonly Scope[]; ownSalesOf: null; tillOf: null }
  /** tillOf: a PIN session's registered till, whose sales a cashier sees besides its own (lib/payments salesScope). */
  | {
      ok: true;
      kind: 'session';
      keyId: null;
      storeId: number;
      user: SessionUser;
      scopes: readonly Scope[];
      ownSalesOf: string | null;
      tillOf: string | null;
    }
  | { ok: false; response: Response };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function sameOrigin(req: Request): boolean {
  const origin = req.headers.get('origin');
  if (!origin) return true; // non-browser clients and same-origin GET navigations omit it
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

/**
 * May `user`'s browser make this request? Safe methods always may; anything else needs a
 * same-origin Origin (when the browser sends one) and the session's CSRF token.
 */
export function mutationAllowed(user: SessionUser, req: Request): boolean {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return true;
  return sameOrigin(req) && csrfMatches(user, req.headers.get(CSRF_HEADER));
}

export const csrfRefused = (): Response => errorResponse('forbidden', 'missing or wrong CSRF token');

/** The session user for a request's cookie, or null. */
export async function requestUser(db: Db, req: Request): Promise<SessionUser | null> {
  return sessionUser(db, cookieValue(req.headers.get('cookie'), SESSION_COOKIE));
}

/**
 * The one authorisation rule of the vendor API and the till: the route names what it needs; an
 * API key must hold the scope that carries it, a session must hold it (a PIN session holds the
 * till's needs only, lib/auth/roles.ts).
 */
export async function requireAccess(db: Db, req: Request, need: Need): Promise<Access> {
  const auth = req.headers.get('authorization');
  if (auth) {
    const principal = await authenticateApiKey(db, bearerToken(auth));
    if (!principal)
      return {
        ok: false,
        response: errorResponse('unauthorized', 'a valid API key is required (Authorization: Bearer <key>)', {
          headers: { 'WWW-Authenticate': 'Bearer' },
        }),
      };
    const scope = keyScopeOf(need);
    if (!hasScope(principal, scope)) return { ok: false, response: errorResponse('forbidden', `this API key lacks the ${scope} scope`) };
    return {
      ok: true,
      kind: 'api_key',
      keyId: principal.keyId,
      storeId: principal.storeId,
      user: null,
      scopes: principal.scopes,
      ownSalesOf: null,
      tillOf: null,
    };
  }
  const user = await requestUser(db, req);
  if (!user)
    return {
      ok: false,
      response: errorResponse('unauthorized', 'sign in or send an API key (Authorization: Bearer <key>)', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      }),
    };
  if (!sessionNeeds(user).includes(need))
    return {
      ok: false,
      response: errorResponse(
        'forbidden',
        user.tillOnly ? 'a PIN opens the till only: sign in with your password' : `the ${user.role} role may not do this`,
      ),
    };
  if (!mutationAllowed(user, req)) return { ok: false, response: csrfRefused() };
  return {
    ok: true,
    kind: 'session',
    keyId: null,
    storeId: user.storeId,
    user,
    scopes: sessionScopes(user),
    ownSalesOf: seesOnlyOwnSales(user.role) ? user.id : null,
    tillOf: user.tillOnly?.terminalId ?? null,
  };
}
