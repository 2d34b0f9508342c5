// The till's lock screen and PIN sign-in (docs/counter.md). Both need a registered terminal's
// cookie (lib/auth/terminals.ts); a missing, unknown or revoked one is 403 and shows nobody.
// A PIN session is bound to its terminal and opens the till only (lib/auth/roles.ts
// sessionScopes; lib/api/admin.ts refuses it). PIN failures are throttled per terminal and per
// user exactly as password sign-ins are (lib/auth/sign-in-throttle.ts), counted before any scrypt.
import { z } from 'zod';
import type { Db } from '../db';
import {
  createSession,
  destroySession,
  cookieValue,
  requestTerminal,
  sessionCookie,
  tillCookie,
  verifyPin,
  isRole,
  SESSION_COOKIE,
  MAX_PIN_LENGTH,
  type ActiveTerminal,
  signInThrottle,
} from '../auth';
import { json } from './respond';
import { errorResponse } from './error-table';
import { isSecure, parse, tooManyAttempts, withCookies } from './auth-routes';

const pinBody = z
  .object({
    user_id: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[!-~]+$/, 'must be a user id'),
    pin: z
      .string()
      .min(1)
      .max(MAX_PIN_LENGTH * 4),
  })
  .strict();

const terminalKey = (id: string) => `terminal|${id}`;
const pinUserKey = (id: string) => `pin-user|${id}`;

const noTerminal = (): Response => errorResponse('forbidden', 'this browser is not a registered till');

async function terminalOf(db: Db, req: Request): Promise<ActiveTerminal | null> {
  return requestTerminal(db, req);
}

/** GET /api/pos/lock: the terminal's name and the active users that have a PIN. */
export async function lockScreen(db: Db, req: Request): Promise<Response> {
  const terminal = await terminalOf(db, req);
  if (!terminal) return noTerminal();
  return json({ terminal: terminal.name, users: await lockUsers(db, terminal.storeId) });
}

/** The active members of store `storeId` that have a PIN there, as the lock screen names them. */
export async function lockUsers(db: Db, storeId: number): Promise<{ id: string; name: string }[]> {
  const rows = await db.prisma.membership.findMany({
    where: { storeId, pinHash: { not: null }, user: { disabled: false } },
    select: { role: true, user: { select: { id: true, name: true, email: true } } },
    orderBy: [{ user: { name: 'asc' } }, { user: { email: 'asc' } }],
    take: 200,
  });
  return rows.filter((m) => isRole(m.role)).map(({ user: u }) => ({ id: u.id, name: u.name || u.email.split('@')[0] }));
}

/** POST /api/auth/pin { user_id, pin }: a till-only session for that user on this terminal. */
export async function pinLogin(db: Db, req: Request): Promise<Response> {
  const terminal = await terminalOf(db, req);
  if (!terminal) return noTerminal();
  const body = await parse(req, pinBody);
  if (!body.ok) return body.response;
  // Counted per terminal and per user before the PIN is looked at (lib/auth/sign-in-throttle.ts).
  const throttle = signInThrottle(db);
  const userKey = pinUserKey(body.value.user_id);
  const attempt = await throttle.reserve([terminalKey(terminal.id), userKey]);
  if (!attempt.ok) return tooManyAttempts(attempt.retryAfter);
  // The PIN and the role are the membership's in the terminal's store; a user of another store has none here.
  const m = await db.prisma.membership.findUnique({
    where: { storeId_userId: { storeId: terminal.storeId, userId: body.value.user_id } },
    select: { role: true, pinHash: true, user: { select: { id: true, email: true, name: true, disabled: true } } },
  });
  const user = m ? { ...m.user, role: m.role } : null;
  const ok = !!m && !!user && !user.disabled && isRole(user.role) && (await verifyPin(body.value.pin, m.pinHash));
  if (!ok || !user || !isRole(user.role)) {
    await throttle.failed(attempt.reservation);
    return errorResponse('unauthorized', 'wrong PIN');
  }
  await throttle.succeeded(attempt.reservation, [userKey]);
  // The cashier who steps away is signed out here: the till changes hands, not sessions.
  await destroySession(db, cookieValue(req.headers.get('cookie'), SESSION_COOKIE));
  const s = await createSession(db, user.id, terminal.id, terminal.storeId);
  const secure = isSecure(req);
  return withCookies(
    json({ user: { id: user.id, email: user.email, name: user.name, role: user.role }, csrf_token: s.csrfToken, terminal: terminal.name }),
    [sessionCookie(s.token, s.expiresAt, secure), tillCookie(s.token, s.expiresAt, secure)],
  );
}
