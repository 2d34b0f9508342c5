// Registered tills (docs/counter.md): a browser registered as a till keeps a long-lived httpOnly
// cookie holding a 256-bit random token. Only its SHA-256 is stored (a fast hash suits a
// high-entropy secret, as for sessions and API keys), so the table never holds a usable cookie.
// A revoked terminal's cookie opens nothing: no lock screen, no PIN sign-in, no PIN session.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db';
import { cookieValue } from './sessions';

export const TERMINAL_COOKIE = 'counter_terminal';
/** A till is registered once and kept: ten years, renewed by nothing. */
export const TERMINAL_COOKIE_MAX_AGE_SEC = 10 * 365 * 24 * 3600;
/** last_seen_at is written at most this often per terminal, not on every request. */
const SEEN_EVERY_MS = 60_000;

export interface ActiveTerminal {
  id: string;
  name: string;
  /** The store the till belongs to (docs/architecture.md#data). */
  storeId: number;
}

function hashTerminalToken(token: string): string {
  return createHash('sha256').update(`counter terminal\0${token}`, 'utf8').digest('hex');
}

export async function createTerminal(
  db: Db,
  storeId: number,
  name: string,
  createdBy: string | null,
): Promise<{ id: string; name: string; createdAt: Date; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const row = await db.prisma.terminal.create({
    data: { id: randomUUID(), storeId, name, tokenHash: hashTerminalToken(token), createdBy },
  });
  return { id: row.id, name: row.name, createdAt: row.createdAt, token };
}

/** The registered, unrevoked terminal a cookie value names, or null. */
export async function terminalForToken(db: Db, token: string | null | undefined): Promise<ActiveTerminal | null> {
  if (!token || token.length > 100) return null;
  const row = await db.prisma.terminal.findUnique({ where: { tokenHash: hashTerminalToken(token) } });
  if (!row || row.revokedAt) return null;
  const now = Date.now();
  if (!row.lastSeenAt || now - row.lastSeenAt.getTime() > SEEN_EVERY_MS) {
    await db.prisma.terminal.update({ where: { id: row.id }, data: { lastSeenAt: new Date(now) } });
  }
  return { id: row.id, name: row.name, storeId: row.storeId };
}

/** The terminal of a request's cookie, or null (none, unknown or revoked). */
export function requestTerminal(db: Db, req: Request): Promise<ActiveTerminal | null> {
  return terminalForToken(db, cookieValue(req.headers.get('cookie'), TERMINAL_COOKIE));
}

/** httpOnly, SameSite=Strict: no other site ever sends it, and page scripts never read it. */
export function terminalCookie(token: string, secure: boolean): string {
  return `${TERMINAL_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${TERMINAL_COOKIE_MAX_AGE_SEC}${secure ? '; Secure' : ''}`;
}
