// The stores a user belongs to, and the switch of a session's current store (docs/architecture.md#data).
// A member of several stores acts for one at a time: its session's current store. A switch keeps
// the session and its CSRF token, and is remembered as the store of the next sign-in.
import type { Db } from '../db';
import { storeIdOf, storeNames } from '../stores';
import { isRole, type Role } from './roles';
import { sessionTokenHash } from './sessions';

export interface MemberStore {
  id: number;
  name: string;
  role: Role;
}

/** Every store the user is a member of, oldest membership first, with its role there. */
export async function userStores(db: Db, userId: string): Promise<MemberStore[]> {
  const rows = await db.prisma.membership.findMany({
    where: { userId },
    select: { storeId: true, role: true },
    orderBy: [{ createdAt: 'asc' }, { storeId: 'asc' }],
  });
  const names = await storeNames(
    db,
    rows.map((r) => r.storeId),
  );
  return rows.filter((r) => isRole(r.role)).map((r) => ({ id: r.storeId, name: names.get(r.storeId) ?? '', role: r.role as Role }));
}

/**
 * Makes `storeId` the current store of the session whose cookie is `token`: false when the
 * session's user is not a member of that store (the caller answers 404, as for no such store).
 */
export async function switchSessionStore(db: Db, token: string, userId: string, storeId: number): Promise<boolean> {
  if (!Number.isSafeInteger(storeId) || storeId < 1) return false;
  const member = await db.prisma.membership.findUnique({
    where: { storeId_userId: { storeId: storeIdOf(storeId), userId } },
    select: { role: true },
  });
  if (!member) return false;
  const tokenHash = sessionTokenHash(token);
  await db.prisma.$transaction([
    db.prisma.session.updateMany({ where: { tokenHash, userId }, data: { storeId } }),
    db.prisma.user.update({ where: { id: userId }, data: { lastStoreId: storeId } }),
  ]);
  return true;
}
