// Sign-in, sign-out, first-owner setup and "who am I" for the web app. Route files stay thin.
import { z } from 'zod';
import type { Db } from '../db';
import {
  AccountError,
  authenticateUser,
  completeSetup,
  createSession,
  destroySession,
  sessionCookie,
  clearedSessionCookie,
  cookieValue,
  SESSION_COOKIE,
  MAX_PASSWORD_LENGTH,
  normaliseEmail,
  tillCookie,
  clearedTillCookie,
  type PublicUser,
  switchSessionStore,
  userStores,
  signInThrottle,
  accountKey,
  clientKeyOf,
} from '../auth';
import { clientInfo } from './client-address';
import { readBodyText } from './body';
import { json } from './respond';
import { errorAnswer, errorResponse } from './error-table';
import { fromZod } from '../errors';
import { requestUser, mutationAllowed, csrfRefused, sameOrigin } from './access';
import { isPrintable, UNPRINTABLE_MESSAGE } from '../text';

const MAX_AUTH_BODY = 8 * 1024;

// Text that is stored or looked up must not carry control characters (PostgreSQL refuses NUL).
const plain = (max: number, min = 0) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');

const loginBody = z
  .object({
    email: plain(320, 3),
    password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
  })
  .strict();

const setupBody = z
  .object({
    code: plain(100, 1),
    email: plain(320, 3),
    name: plain(100)
      .refine((s) => isPrintable(s), UNPRINTABLE_MESSAGE)
      .optional(),
    password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
  })
  .strict();

/** Secure cookies when the client's connection is https (X-Forwarded-Proto only with TRUST_PROXY). */
export function isSecure(req: Request): boolean {
  return clientInfo(req).secure;
}

export async function parse<T>(req: Request, schema: z.ZodType<T>): Promise<{ ok: true; value: T } | { ok: false; response: Response }> {
  // No session yet, so no CSRF token: a cross-site form must still not sign the browser in.
  if (!sameOrigin(req)) return { ok: false, response: errorResponse('forbidden', 'cross-origin request refused') };
  let raw: unknown;
  try {
    raw = JSON.parse(await readBodyText(req, MAX_AUTH_BODY));
  } catch (e) {
    if ((e as Error).name === 'BodyTooLargeError') throw e;
    return { ok: false, response: errorResponse('invalid_request', 'body must be JSON') };
  }
  const r = schema.safeParse(raw);
  if (!r.success) return { ok: false, response: errorAnswer(fromZod(r.error, { dotted: true })) };
  return { ok: true, value: r.data };
}

function userView(u: Pick<PublicUser, 'id' | 'email' | 'name' | 'role'>) {
  return { id: u.id, email: u.email, name: u.name, role: u.role };
}

/** Appends Set-Cookie headers (a Record cannot hold two). */
export function withCookies(res: Response, cookies: string[]): Response {
  for (const c of cookies) res.headers.append('Set-Cookie', c);
  return res;
}

// With the session cookie goes the kept till's marker, of the same lifetime (lib/auth/till-marker.ts).
export async function signedIn(db: Db, req: Request, user: PublicUser, status = 200): Promise<Response> {
  const s = await createSession(db, user.id);
  const secure = isSecure(req);
  return withCookies(json({ user: userView(user), csrf_token: s.csrfToken }, status), [
    sessionCookie(s.token, s.expiresAt, secure),
    tillCookie(s.token, s.expiresAt, secure),
  ]);
}

export async function login(db: Db, req: Request): Promise<Response> {
  const body = await parse(req, loginBody);
  if (!body.ok) return body.response;
  // Throttled per client and per account (lib/auth/sign-in-throttle.ts): the attempt is counted
  // before any scrypt, the client first so that a locked client adds no account rows.
  const throttle = signInThrottle(db);
  const account = accountKey(normaliseEmail(body.value.email));
  const attempt = await throttle.reserve([clientKeyOf(clientInfo(req).address), account]);
  if (!attempt.ok) return tooManyAttempts(attempt.retryAfter);
  const user = await authenticateUser(db, body.value.email, body.value.password);
  if (!user) {
    await throttle.failed(attempt.reservation); // from the 5th attempt on, the next ones get 429 for a while
    return errorResponse('unauthorized', 'wrong email or password');
  }
  await throttle.succeeded(attempt.reservation, [account]);
  return signedIn(db, req, user);
}

export function tooManyAttempts(seconds: number): Response {
  return errorResponse('rate_limited', `too many failed sign-ins; try again in ${seconds} s`, {
    headers: { 'Retry-After': String(seconds) },
  });
}

export async function setup(db: Db, req: Request): Promise<Response> {
  const body = await parse(req, setupBody);
  if (!body.ok) return body.response;
  try {
    return await signedIn(db, req, await completeSetup(db, body.value), 201);
  } catch (e) {
    // The account's message, without the field in front of it, under the account's code.
    if (e instanceof AccountError) return errorResponse(e.code, e.message);
    throw e;
  }
}

export async function logout(db: Db, req: Request): Promise<Response> {
  const user = await requestUser(db, req);
  if (user && !mutationAllowed(user, req)) return csrfRefused();
  await destroySession(db, cookieValue(req.headers.get('cookie'), SESSION_COOKIE));
  // Clearing the marker hides a kept till at once, wherever the sign-out was made.
  return withCookies(json({ ok: true }), [clearedSessionCookie(isSecure(req)), clearedTillCookie(isSecure(req))]);
}

export async function me(db: Db, req: Request): Promise<Response> {
  const user = await requestUser(db, req);
  if (!user) return errorResponse('unauthorized', 'not signed in');
  // The stores the user belongs to, and the one the session acts for (docs/architecture.md#data).
  const stores = await userStores(db, user.id);
  const store = stores.find((s) => s.id === user.storeId) ?? { id: user.storeId, name: '', role: user.role };
  return json({ user: userView(user), csrf_token: user.csrfToken, stores, store });
}

const SwitchBody = z.object({ store_id: z.number().int().min(1).max(2_147_483_647) }).strict();

/** POST /api/auth/store { "store_id" }: the session acts for another of the user's stores (204), else 404. */
export async function switchStore(db: Db, req: Request): Promise<Response> {
  if (!sameOrigin(req)) return errorResponse('forbidden', 'cross-origin request refused');
  const token = cookieValue(req.headers.get('cookie'), SESSION_COOKIE);
  const user = await requestUser(db, req);
  if (!user || !token) return errorResponse('unauthorized', 'not signed in');
  if (!mutationAllowed(user, req)) return csrfRefused();
  // A PIN session belongs to its till, and the till to one store.
  if (user.tillOnly) return errorResponse('forbidden', "a PIN session acts for its till's store");
  let raw: unknown;
  try {
    raw = JSON.parse(await readBodyText(req, 1024));
  } catch {
    return errorResponse('invalid_request', 'body must be JSON');
  }
  const parsed = SwitchBody.safeParse(raw);
  if (!parsed.success) return errorAnswer(fromZod(parsed.error));
  if (!(await switchSessionStore(db, token, user.id, parsed.data.store_id))) return errorResponse('not_found', 'no such store');
  return new Response(null, { status: 204 });
}
