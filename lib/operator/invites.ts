// Taking a store's invite (docs/architecture.md#data): whoever takes it becomes the store's owner,
// either with a new account (its email the invite's) or with the account already signed in. An
// invite is taken once: the claim is one UPDATE of the unused, unexpired row, so of two takers at
// once exactly one wins, and a refusal later in the same transaction (a taken email) frees it again.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db';
import { AccountError, MAX_PASSWORD_LENGTH, hashPassword, passwordProblem, type PublicUser } from '../auth';
import { DomainError, parseWith } from '../errors';
import { findStore } from '../stores';
import { printableName } from '../text';
import { inviteTokenHash } from './stores';

/** A token as the invite link carries it (base64url of 32 bytes); anything else is no invite. */
const TOKEN_RE = /^[A-Za-z0-9_-]{20,100}$/;

const NewAccount = z
  .object({
    name: printableName(100),
    password: z.string().min(1, 'is required').max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`),
  })
  .strict();

export interface OpenInvite {
  storeId: number;
  storeName: string;
  email: string;
}

const gone = () => new DomainError('not_found', 'this invite was used, has expired, or does not exist');

function hashOf(token: string): string | null {
  return TOKEN_RE.test(token) ? inviteTokenHash(token) : null;
}

/** The invite this token opens, while it is unused and unexpired; else null. */
export async function openInvite(db: Db, token: string, now = new Date()): Promise<OpenInvite | null> {
  const tokenHash = hashOf(token);
  if (!tokenHash) return null;
  const row = await db.prisma.storeInvite.findUnique({ where: { tokenHash } });
  if (!row || row.usedAt || row.expiresAt <= now) return null;
  const store = await findStore(db, row.storeId);
  return store ? { storeId: store.id, storeName: store.name, email: row.email } : null;
}

type Tx = Parameters<Parameters<Db['prisma']['$transaction']>[0]>[0];

/** Marks the invite used, in `tx`: its store and email, or not_found when it is no longer open. */
async function claim(tx: Tx, token: string, now: Date): Promise<{ storeId: number; email: string }> {
  const tokenHash = hashOf(token);
  if (!tokenHash) throw gone();
  const taken = await tx.storeInvite.updateMany({ where: { tokenHash, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
  if (taken.count !== 1) throw gone();
  const row = await tx.storeInvite.findUniqueOrThrow({ where: { tokenHash }, select: { storeId: true, email: true } });
  return row;
}

/**
 * A visitor without a session takes the invite with a new account: its email is the invite's,
 * its name and password the body's (the password rules of every account). 409 when an account
 * has that email already (it signs in and accepts instead).
 */
export async function takeInviteWithAccount(db: Db, token: string, body: unknown, now = new Date()): Promise<PublicUser> {
  const p = parseWith(NewAccount, body);
  const problem = passwordProblem(p.password);
  if (problem) throw new AccountError(problem, 'password');
  // No scrypt for a token that opens nothing; the claim below still decides, atomically.
  if (!(await openInvite(db, token, now))) throw gone();
  const passwordHash = await hashPassword(p.password);
  return db.prisma.$transaction(async (tx) => {
    const invite = await claim(tx, token, now);
    if (await tx.user.findUnique({ where: { email: invite.email }, select: { id: true } }))
      throw new AccountError('an account with this email exists: sign in, then accept the invite', 'email', 'conflict');
    const row = await tx.user.create({
      data: {
        id: randomUUID(),
        email: invite.email,
        name: p.name.trim(),
        passwordHash,
        role: 'owner',
        lastStoreId: invite.storeId,
        memberships: { create: { storeId: invite.storeId, role: 'owner' } },
      },
    });
    return { id: row.id, email: row.email, name: row.name, role: 'owner', disabled: row.disabled, createdAt: row.createdAt };
  });
}

/**
 * The signed-in user takes the invite: it becomes the store's owner (a member already is made
 * its owner), and the store becomes the one its sign-ins act for. Answers the store's id.
 */
export async function acceptInvite(db: Db, token: string, userId: string, now = new Date()): Promise<number> {
  return db.prisma.$transaction(async (tx) => {
    const invite = await claim(tx, token, now);
    await tx.membership.upsert({
      where: { storeId_userId: { storeId: invite.storeId, userId } },
      create: { storeId: invite.storeId, userId, role: 'owner' },
      update: { role: 'owner' },
    });
    await tx.user.update({ where: { id: userId }, data: { lastStoreId: invite.storeId } });
    return invite.storeId;
  });
}
