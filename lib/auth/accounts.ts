// Web-app accounts: the first owner (from ADMIN_EMAIL/ADMIN_PASSWORD, or through /setup with a
// one-time code printed in the server log), sign-in, and user management primitives.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db';
import { FIRST_STORE_ID } from '../stores';
import { hashPassword, verifyPassword, passwordProblem } from './passwords';
import { type Role } from './roles';
import { DomainError, type ErrorCode } from '../errors';

const SETUP_CODE_KEY = 'setup_code_hash';

/** A refused account change; the message does not name the field (callers prefix it as they need). */
export class AccountError extends DomainError {
  constructor(message: string, field = '', code: ErrorCode = 'invalid_request') {
    super(code, message, field);
    this.name = 'AccountError';
  }
}

export interface PublicUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  disabled: boolean;
  createdAt: Date;
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

const EMAIL_RE = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

function toPublic(u: { id: string; email: string; name: string; role: string; disabled: boolean; createdAt: Date }): PublicUser {
  return { id: u.id, email: u.email, name: u.name, role: u.role as Role, disabled: u.disabled, createdAt: u.createdAt };
}

export async function userCount(db: Db): Promise<number> {
  return db.prisma.user.count();
}

/** A new account, member of store `storeId` with `role`. */
export async function createUser(
  db: Db,
  opts: { storeId: number; email: string; name?: string; password: string; role: Role },
): Promise<PublicUser> {
  const email = normaliseEmail(opts.email);
  if (!EMAIL_RE.test(email)) throw new AccountError('email is not a valid address', 'email');
  const problem = passwordProblem(opts.password);
  if (problem) throw new AccountError(problem, 'password');
  const name = (opts.name ?? '').trim().slice(0, 100);
  if (await db.prisma.user.findUnique({ where: { email } })) throw new AccountError('a user with this email exists', 'email', 'conflict');
  const row = await db.prisma.user.create({
    data: {
      id: randomUUID(),
      email,
      name,
      passwordHash: await hashPassword(opts.password),
      role: opts.role,
      memberships: { create: { storeId: opts.storeId, role: opts.role } },
    },
  });
  return toPublic(row);
}

/**
 * Makes the account with this email a member of store `storeId` with `role` (docs/architecture.md#data):
 * its name and password stay as they are. Null when no account has this email; a conflict when
 * it is a member of that store already.
 */
export async function addExistingMember(db: Db, opts: { storeId: number; email: string; role: Role }): Promise<PublicUser | null> {
  const user = await db.prisma.user.findUnique({ where: { email: normaliseEmail(opts.email) } });
  if (!user) return null;
  try {
    await db.prisma.membership.create({ data: { storeId: opts.storeId, userId: user.id, role: opts.role } });
  } catch (e) {
    if ((e as { code?: string })?.code === 'P2002')
      throw new AccountError('this user is already a member of this store', 'email', 'conflict');
    throw e;
  }
  return toPublic({ ...user, role: opts.role });
}

/** Whether this account is the installation's operator. */
export async function isOperator(db: Db, userId: string): Promise<boolean> {
  const u = await db.prisma.user.findUnique({ where: { id: userId }, select: { operator: true, disabled: true } });
  return !!u && u.operator && !u.disabled;
}

/** Makes sure the ADMIN_EMAIL owner exists; the password is only set on creation. */
export async function ensureAdminUser(db: Db, email: string, password: string): Promise<void> {
  const existing = await db.prisma.user.findUnique({ where: { email: normaliseEmail(email) } });
  // ADMIN_EMAIL seeds the first store's owner (docs/configuration.md).
  if (!existing) await createUser(db, { storeId: FIRST_STORE_ID, email, name: 'Owner', password, role: 'owner' });
  await claimOperator(db, email);
}

/**
 * Makes the account with this email the operator (docs/architecture.md#data), taking the flag
 * from whoever held it; no change when there is no such account.
 */
export async function claimOperator(db: Db, email: string): Promise<boolean> {
  const user = await db.prisma.user.findUnique({ where: { email: normaliseEmail(email) }, select: { id: true, operator: true } });
  if (!user) return false;
  if (user.operator) return true;
  await db.prisma.$transaction([
    db.prisma.user.updateMany({ where: { operator: true }, data: { operator: false } }),
    db.prisma.user.update({ where: { id: user.id }, data: { operator: true } }),
  ]);
  return true;
}

/** A dummy hash so an unknown email costs as much as a wrong password. */
let dummyHash: Promise<string> | null = null;

export async function authenticateUser(db: Db, email: string, password: string): Promise<PublicUser | null> {
  const row = await db.prisma.user.findUnique({ where: { email: normaliseEmail(email) } });
  if (!row) {
    dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    await verifyPassword(password, await dummyHash);
    return null;
  }
  if (!(await verifyPassword(password, row.passwordHash)) || row.disabled) return null;
  return toPublic(row);
}

function hashCode(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}

/**
 * How long a setup code issued at start-up is left alone by other processes starting on the
 * same database (a web process and its worker, started together): they log that the code is in
 * the other's log rather than each logging a code of its own, of which only the last would work.
 * A code older than this is replaced, so each restart still logs a fresh one.
 */
export const SETUP_CODE_SHARED_MS = 60_000;

/** What start-up logs when nobody can sign in yet (issueSetupCode). */
export type SetupCodeIssue = { code: string } | { issuedAt: Date } | null;

/**
 * When nobody can sign in yet, creates a fresh one-time setup code (only its hash is stored)
 * and returns it for the server log; or, when one was issued less than SETUP_CODE_SHARED_MS ago
 * (by another process, or by this installation's previous start), leaves it valid and returns
 * when it was issued, so the log can point to it. Returns null once an account exists.
 */
export async function issueSetupCode(db: Db, now: Date = new Date()): Promise<SetupCodeIssue> {
  if ((await userCount(db)) > 0) {
    await db.prisma.appState.deleteMany({ where: { key: SETUP_CODE_KEY } });
    return null;
  }
  const code = randomBytes(9).toString('base64url');
  // One statement, so of processes starting at once exactly one stores its code: it inserts the
  // code, or replaces one at least SETUP_CODE_SHARED_MS old, and otherwise leaves the row alone.
  const stored = await db.query<{ key: string }>(
    `INSERT INTO app_state (key, value, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at
     WHERE app_state.updated_at <= $4
     RETURNING key`,
    [SETUP_CODE_KEY, hashCode(code), now, new Date(now.getTime() - SETUP_CODE_SHARED_MS)],
  );
  if (stored.length === 1) return { code };
  const held = await db.prisma.appState.findUnique({ where: { key: SETUP_CODE_KEY }, select: { updatedAt: true } });
  return { issuedAt: held?.updatedAt ?? now };
}

/** Creates the first owner with the one-time code; the code is consumed atomically. */
export async function completeSetup(db: Db, opts: { code: string; email: string; name?: string; password: string }): Promise<PublicUser> {
  const email = normaliseEmail(opts.email);
  if (!EMAIL_RE.test(email)) throw new AccountError('email is not a valid address', 'email');
  const problem = passwordProblem(opts.password);
  if (problem) throw new AccountError(problem, 'password');
  const passwordHash = await hashPassword(opts.password);
  return db.prisma.$transaction(async (tx) => {
    // Deleting the code row is the claim: of two concurrent setups only one deletes it.
    const used = await tx.appState.deleteMany({ where: { key: SETUP_CODE_KEY, value: hashCode(opts.code.trim()) } });
    if (used.count !== 1 || (await tx.user.count()) > 0) {
      const done = (await tx.user.count()) > 0;
      throw new AccountError(done ? 'setup is already complete' : 'the setup code is wrong', 'code', done ? 'conflict' : 'forbidden');
    }
    const row = await tx.user.create({
      // The first account runs the installation: the operator, and the first store's owner.
      data: {
        id: randomUUID(),
        email,
        name: (opts.name ?? '').trim().slice(0, 100),
        passwordHash,
        role: 'owner',
        operator: true,
        memberships: { create: { storeId: FIRST_STORE_ID, role: 'owner' } },
      },
    });
    return toPublic(row);
  });
}

/** The members of store `storeId`, each with its role there. */
export async function listUsers(db: Db, storeId: number): Promise<PublicUser[]> {
  const rows = await db.prisma.membership.findMany({
    where: { storeId },
    include: { user: true },
    orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
  });
  return rows.map((m) => toPublic({ ...m.user, role: m.role }));
}
