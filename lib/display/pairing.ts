// Pairing a customer's display with a till (docs/counter.md#the-customers-display).
//
// The till asks for a pairing code: 8 characters of Crockford's base32 (40 random bits), kept
// for 5 minutes, one live code per terminal (a new one replaces the last), stored only as a
// SHA-256. The browser that enters it gets a display of its own: a long-lived httpOnly cookie
// holding a 256-bit random token, also stored only as a SHA-256 (like terminal tokens,
// lib/auth/terminals.ts). A code is used once (the row is deleted by the one redeem that wins).
// Wrong codes are throttled per client by the route (lib/api/display-routes.ts), so 40 bits
// cannot be searched in a code's 5 minutes.
//
// A display follows its terminal until it is unpaired: by the back office (every display of
// the terminal), by pairing again (its old display is deleted), or by the terminal's revocation.
// Its cookie opens nothing else: no route but the display's own reads it.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db';
import { inStore } from '../stores';

export const DISPLAY_COOKIE = 'counter_display';
export const DISPLAY_COOKIE_MAX_AGE_SEC = 10 * 365 * 24 * 3600;
export const PAIRING_TTL_MS = 5 * 60_000;
/** Crockford's base32: no I, L, O or U, so a code read aloud or typed is not misread. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const PAIRING_CODE_LENGTH = 8;

export interface PairedDisplay {
  id: string;
  terminalId: string;
  /** The store of its terminal: the display shows that store's till only. */
  storeId: number;
}

const sha = (domain: string, s: string) => createHash('sha256').update(`${domain}\0${s}`, 'utf8').digest('hex');
const hashCode = (code: string) => sha('counter display pairing', code);
const hashToken = (token: string) => sha('counter display', token);

/** A random code, e.g. "7K2MQ9XD" (shown as "7K2M-Q9XD"). */
export function newPairingCode(): string {
  const b = randomBytes(PAIRING_CODE_LENGTH);
  let s = '';
  for (const x of b) s += ALPHABET[x & 31]; // 32 divides 256: no bias
  return s;
}

/**
 * A typed code in canonical form, or null when it cannot be one: case, spaces and dashes are
 * ignored, and O, I and L read as 0, 1 and 1 (Crockford's rule).
 */
export function normalisePairingCode(input: string): string | null {
  const s = input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (s.length !== PAIRING_CODE_LENGTH) return null;
  for (const c of s) if (!ALPHABET.includes(c)) return null;
  return s;
}

/** "7K2M-Q9XD": the code as the till shows it. */
export const formatPairingCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/** A new pairing code for this terminal; the terminal's earlier codes, and every expired one, are dropped. */
export async function createPairingCode(
  db: Db,
  storeId: number,
  terminalId: string,
  now = new Date(),
): Promise<{ code: string; expiresAt: Date }> {
  const code = newPairingCode();
  const expiresAt = new Date(now.getTime() + PAIRING_TTL_MS);
  await db.prisma.$transaction([
    // The terminal's earlier codes (of its store), and every expired code: those of any store, a sweep.
    db.prisma.displayPairing.deleteMany({ where: { OR: [{ terminalId, ...inStore(storeId) }, { expiresAt: { lt: now } }] } }),
    db.prisma.displayPairing.create({ data: { ...inStore(storeId), codeHash: hashCode(code), terminalId, expiresAt } }),
  ]);
  return { code, expiresAt };
}

/**
 * Redeems a code: a new display of its terminal and the cookie token for it, or null when the
 * code is unknown, used, expired or its terminal revoked. `previousToken` (the browser's
 * current display cookie) is unpaired: pairing again replaces the old pairing.
 */
export async function redeemPairingCode(
  db: Db,
  code: string,
  previousToken: string | null,
  now = new Date(),
): Promise<{ display: PairedDisplay; token: string } | null> {
  const codeHash = hashCode(code);
  return db.prisma.$transaction(async (tx) => {
    const p = await tx.displayPairing.findUnique({ where: { codeHash }, include: { terminal: { select: { revokedAt: true } } } });
    if (!p) return null;
    // Single use: of two redeems racing for one code, only the one whose delete removed the row wins.
    const { count } = await tx.displayPairing.deleteMany({ where: { codeHash } });
    if (count !== 1 || p.expiresAt.getTime() <= now.getTime() || p.terminal.revokedAt) return null;
    if (previousToken && previousToken.length <= 100)
      await tx.customerDisplay.deleteMany({ where: { tokenHash: hashToken(previousToken) } });
    const token = randomBytes(32).toString('base64url');
    const row = await tx.customerDisplay.create({
      data: { id: randomUUID(), storeId: p.storeId, terminalId: p.terminalId, tokenHash: hashToken(token) },
    });
    return { display: { id: row.id, terminalId: row.terminalId, storeId: row.storeId }, token };
  });
}

/** The paired display a cookie value names, or null (none, unknown, unpaired, or its terminal revoked). */
export async function displayForToken(db: Db, token: string | null | undefined): Promise<PairedDisplay | null> {
  if (!token || token.length > 100) return null;
  const row = await db.prisma.customerDisplay.findUnique({
    where: { tokenHash: hashToken(token) },
    include: { terminal: { select: { revokedAt: true } } },
  });
  if (!row || row.terminal.revokedAt) return null;
  return { id: row.id, terminalId: row.terminalId, storeId: row.storeId };
}

/** httpOnly, SameSite=Strict, as the terminal cookie: no other site sends it, no page script reads it. */
export function displayCookie(token: string, secure: boolean): string {
  return `${DISPLAY_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${DISPLAY_COOKIE_MAX_AGE_SEC}${secure ? '; Secure' : ''}`;
}
