// User management for owners (docs/security.md): create with a role, change role, disable or
// enable. The store always keeps at least one active owner. Disabling or demoting a user ends
// their sessions, so the change takes effect at once.
import { z } from 'zod';
import type { Db } from '../db';
import {
  AccountError,
  addExistingMember,
  createUser,
  destroyUserSessions,
  hashPassword,
  listUsers,
  passwordProblem,
  ROLES,
  MAX_PASSWORD_LENGTH,
  type PublicUser,
} from '../auth';
import { BackofficeError, invalid, parseWith } from './errors';
import { recordAudit } from './audit';
import { isPrintable, UNPRINTABLE_MESSAGE } from '../text';

export interface UserView {
  id: string;
  email: string;
  name: string;
  role: string;
  disabled: boolean;
  created_at: string;
}

export function userView(u: PublicUser): UserView {
  return { id: u.id, email: u.email, name: u.name, role: u.role, disabled: u.disabled, created_at: u.createdAt.toISOString() };
}

// A staff member's name is shown on the till, the customer display and receipts: the one
// printable-text rule (lib/text/printable.ts).
const staffName = z
  .string()
  .max(100)
  .refine((s) => isPrintable(s), UNPRINTABLE_MESSAGE);

const CreateUser = z
  .object({
    email: z.string().min(3).max(320),
    name: staffName.optional(),
    // Not needed (and ignored) for an email that already has an account: it joins the store as it is.
    password: z.string().min(1).max(MAX_PASSWORD_LENGTH).optional(),
    role: z.enum(ROLES),
  })
  .strict();

const UpdateUser = z
  .object({
    role: z.enum(ROLES).optional(),
    disabled: z.boolean().optional(),
    name: staffName.optional(),
    /** A new password set by the owner (e.g. a cashier who forgot theirs); ends their sessions. */
    password: z.string().min(1).max(MAX_PASSWORD_LENGTH).optional(),
  })
  .strict();

/** The members of store `storeId`, with their roles there. */
export async function listUserViews(db: Db, storeId: number): Promise<UserView[]> {
  return (await listUsers(db, storeId)).map(userView);
}

export async function createUserWithRole(db: Db, storeId: number, input: unknown, actorId: string | null = null): Promise<UserView> {
  const p = parseWith(CreateUser, input);
  try {
    // An email that has an account already (a member of another store) makes it a member of this one.
    const existing = await addExistingMember(db, { storeId, email: p.email, role: p.role });
    if (existing) {
      const u = userView(existing);
      await recordAudit(db.prisma, storeId, actorId, 'user.create', { id: u.id, email: u.email, role: u.role, existing_account: true });
      return u;
    }
    if (p.password === undefined) throw invalid('password', 'is required for a new account');
    const u = userView(await createUser(db, { ...p, password: p.password, storeId }));
    await recordAudit(db.prisma, storeId, actorId, 'user.create', { id: u.id, email: u.email, name: u.name, role: u.role });
    return u;
  } catch (e) {
    if (e instanceof AccountError) {
      if (e.code === 'conflict') throw new BackofficeError('conflict', e.message, e.field);
      throw invalid(e.field ?? '', e.message);
    }
    throw e;
  }
}

/** Changes a member of store `storeId`: a user who is not one is no such user (docs/architecture.md#data). */
export async function updateUser(db: Db, storeId: number, actorId: string, id: string, input: unknown): Promise<UserView> {
  const p = parseWith(UpdateUser, input);
  if (p.password !== undefined) {
    const problem = passwordProblem(p.password);
    if (problem) throw invalid('password', problem);
  }
  const passwordHash = p.password !== undefined ? await hashPassword(p.password) : null;
  return db.prisma.$transaction(async (tx) => {
    const m = await tx.membership.findUnique({ where: { storeId_userId: { storeId, userId: id } }, include: { user: true } });
    if (!m) throw new BackofficeError('not_found', 'no such user');
    const u = { ...m.user, role: m.role };
    const losesOwner = u.role === 'owner' && !u.disabled && ((p.role !== undefined && p.role !== 'owner') || p.disabled === true);
    if (losesOwner) {
      const owners = await tx.membership.count({ where: { storeId, role: 'owner', user: { disabled: false } } });
      if (owners <= 1) throw new BackofficeError('conflict', 'the store needs at least one active owner');
    }
    if (id === actorId && p.disabled === true) throw new BackofficeError('conflict', 'you cannot disable your own account');
    const data: Record<string, unknown> = { updatedAt: new Date() };
    // The membership holds the role in this store (sessions read it there); the user's own column is kept in step for older readers.
    if (p.role !== undefined)
      Object.assign(data, {
        role: p.role,
        memberships: { updateMany: { where: { storeId }, data: { role: p.role, updatedAt: new Date() } } },
      });
    if (p.disabled !== undefined) data.disabled = p.disabled;
    if (p.name !== undefined) data.name = p.name.trim();
    if (passwordHash) data.passwordHash = passwordHash;
    const row = await tx.user.update({ where: { id }, data });
    if ((p.role !== undefined && p.role !== u.role) || p.disabled === true || passwordHash)
      await tx.session.deleteMany({ where: { userId: id } });
    // Audited in the same transaction; a new password is only noted, never its hash.
    const changes: Record<string, unknown> = { id, email: u.email };
    if (p.role !== undefined && p.role !== u.role) changes.role = { from: u.role, to: p.role };
    if (p.disabled !== undefined && p.disabled !== u.disabled) changes.disabled = { from: u.disabled, to: p.disabled };
    if (p.name !== undefined && p.name.trim() !== u.name) changes.name = { from: u.name, to: p.name.trim() };
    if (passwordHash) changes.password = 'changed';
    await recordAudit(tx, storeId, actorId, 'user.update', changes);
    return userView({ ...row, role: (p.role ?? u.role) as PublicUser['role'] });
  });
}

export { destroyUserSessions };
