// Open sign-up (SIGNUP=open, docs/configuration.md): anyone creates an account and a new store of
// its own, of which it is the owner. The store and the account are one transaction, so a refused
// account (its email taken) leaves no store behind. Off by default: then nothing here runs.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db';
import { AccountError, MAX_PASSWORD_LENGTH, hashPassword, normaliseEmail, passwordProblem, type PublicUser } from '../auth';
import { parseWith } from '../errors';
import { printableName } from '../text';
import { createStore } from '../stores';

const SignUp = z
  .object({
    store_name: printableName(100),
    name: printableName(100),
    email: z
      .string()
      .max(320, 'must be at most 320 characters')
      .transform((s) => normaliseEmail(s))
      .pipe(z.email('must be an email address')),
    password: z.string().min(1, 'is required').max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`),
  })
  .strict();

/** The new account, owner of its new store (409 when the email has an account). */
export async function signUp(db: Db, body: unknown): Promise<PublicUser> {
  const p = parseWith(SignUp, body);
  const problem = passwordProblem(p.password);
  if (problem) throw new AccountError(problem, 'password');
  const passwordHash = await hashPassword(p.password);
  return db.prisma.$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email: p.email }, select: { id: true } }))
      throw new AccountError('an account with this email exists: sign in instead', 'email', 'conflict');
    const store = await createStore(db, p.store_name, tx);
    const row = await tx.user.create({
      data: {
        id: randomUUID(),
        email: p.email,
        name: p.name,
        passwordHash,
        role: 'owner',
        lastStoreId: store.id,
        memberships: { create: { storeId: store.id, role: 'owner' } },
      },
    });
    return { id: row.id, email: row.email, name: row.name, role: 'owner', disabled: row.disabled, createdAt: row.createdAt };
  });
}
