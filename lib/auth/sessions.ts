// Browser sessions: a 256-bit random cookie value, stored only as its SHA-256 (like API keys),
// with a per-session CSRF token that mutations must echo in the X-CSRF-Token header.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db';
import { isRole, type Role } from './roles';

export const SESSION_COOKIE = 'counter_session';
export const CSRF_HEADER = 'x-csrf-token';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000; // one working day

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** The store the session acts for (docs/architecture.md#data): its role is the membership's there. */
  storeId: number;
  csrfToken: string;
  /** The user's language ('en' | 'es' | 'de' | 'pt'), '' when not chosen (lib/i18n). */
  locale?: string;
  /**
   * Set when the session was opened with a PIN on this registered terminal: it opens the till
   * only (/pos and the till's APIs), never the back office (docs/counter.md).
   */
  tillOnly?: { terminalId: string };
}

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The stored form of a session cookie's token. */
export const sessionTokenHash = hashToken;

/**
 * The store a fresh sign-in acts for: the one the user used last while still a member, else its
 * oldest membership; null when it belongs to no store.
 */
export async function signInStore(db: Db, userId: string): Promise<number | null> {
  const user = await db.prisma.user.findUnique({
    where: { id: userId },
    select: { lastStoreId: true, memberships: { select: { storeId: true }, orderBy: [{ createdAt: 'asc' }, { storeId: 'asc' }] } },
  });
  if (!user || user.memberships.length === 0) return null;
  const last = user.memberships.find((m) => m.storeId === user.lastStoreId);
  return (last ?? user.memberships[0]).storeId;
}

/**
 * A new session for `userId` acting for `storeId` (a PIN session: its terminal's store); without
 * one, the store of sign-in (signInStore).
 */
export async function createSession(
  db: Db,
  userId: string,
  terminalId: string | null = null,
  storeId: number | null = null,
): Promise<{ token: string; csrfToken: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  const store = storeId ?? (await signInStore(db, userId));
  if (store === null) throw new Error('this account belongs to no store');
  await db.prisma.session.create({ data: { tokenHash: hashToken(token), userId, csrfToken, expiresAt, terminalId, storeId: store } });
  return { token, csrfToken, expiresAt };
}

/** The signed-in user for a cookie value, or null (unknown, expired, or disabled user). */
export async function sessionUser(db: Db, token: string | null | undefined): Promise<SessionUser | null> {
  if (!token || token.length > 100) return null;
  const row = await db.prisma.session.findUnique({
    where: { tokenHash: hashToken(token) },
    include: {
      user: { include: { memberships: { select: { storeId: true, role: true } } } },
      terminal: { select: { revokedAt: true, storeId: true } },
    },
  });
  if (!row || row.expiresAt.getTime() <= Date.now() || row.user.disabled) return null;
  // The role is the membership's in the session's store; a user who is no longer a member there
  // holds nothing in it.
  const role = row.user.memberships.find((m) => m.storeId === row.storeId)?.role;
  if (!isRole(role)) return null;
  // A PIN session dies with its terminal's registration, and acts only for that terminal's store.
  if (row.terminalId && (!row.terminal || row.terminal.revokedAt || row.terminal.storeId !== row.storeId)) return null;
  const user: SessionUser = {
    id: row.user.id,
    email: row.user.email,
    name: row.user.name,
    role,
    storeId: row.storeId,
    csrfToken: row.csrfToken,
    locale: row.user.locale,
  };
  if (row.terminalId) user.tillOnly = { terminalId: row.terminalId };
  return user;
}

export async function destroySession(db: Db, token: string | null | undefined): Promise<void> {
  if (!token) return;
  await db.prisma.session.deleteMany({ where: { tokenHash: hashToken(token) } });
}

export async function destroyUserSessions(db: Db, userId: string): Promise<void> {
  await db.prisma.session.deleteMany({ where: { userId } });
}

export function csrfMatches(user: SessionUser, presented: string | null | undefined): boolean {
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(user.csrfToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Reads one cookie from a Cookie header. */
export function cookieValue(header: string | null | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return null; // a malformed cookie is no session, never a 500 (docs/security.md)
      }
    }
  }
  return null;
}

/** The Set-Cookie value for a session (httpOnly, SameSite=Lax; Secure when served over https). */
export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Expires=${expiresAt.toUTCString()}${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
}
