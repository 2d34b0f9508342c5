// Setting a staff PIN (docs/counter.md): the owner for anyone, a manager for cashiers, and every
// user for itself. The PIN is checked against the weak-PIN rules, hashed with scrypt and audited
// as "changed" (never the PIN or its hash).
import { z } from 'zod';
import type { Db } from '../db';
import { hashPin, pinProblem, MAX_PIN_LENGTH, type SessionUser } from '../auth';
import { BackofficeError, invalid, parseWith } from './errors';
import { recordAudit } from './audit';

const PinBody = z.object({ pin: z.string().max(MAX_PIN_LENGTH * 4, 'must be 4 to 8 digits') }).strict();

/** May `actor` set the PIN of a user with role `targetRole` and id `targetId`? */
export function maySetPin(actor: Pick<SessionUser, 'id' | 'role'>, targetId: string, targetRole: string): boolean {
  if (actor.id === targetId || actor.role === 'owner') return true;
  return actor.role === 'manager' && targetRole === 'cashier';
}

/** Sets the PIN of a member of the actor's current store: the PIN belongs to that membership. */
export async function setUserPin(db: Db, actor: SessionUser, id: string, input: unknown): Promise<void> {
  const m = await db.prisma.membership.findUnique({
    where: { storeId_userId: { storeId: actor.storeId, userId: id } },
    select: { role: true, user: { select: { id: true, email: true } } },
  });
  const target = m ? { id: m.user.id, email: m.user.email, role: m.role } : null;
  // Someone who may not set this user's PIN learns nothing about the user either.
  if (!target || !maySetPin(actor, target.id, target.role)) {
    if (!target && actor.role === 'cashier') throw new BackofficeError('forbidden', 'you may set only your own PIN');
    if (!target) throw new BackofficeError('not_found', 'no such user');
    throw new BackofficeError(
      'forbidden',
      actor.role === 'manager' ? 'a manager sets the PINs of cashiers only' : 'you may set only your own PIN',
    );
  }
  const { pin } = parseWith(PinBody, input);
  const problem = pinProblem(pin);
  if (problem) throw invalid('pin', problem);
  const pinHash = await hashPin(pin);
  await db.prisma.$transaction(async (tx) => {
    // A PIN belongs to the membership: the till of this store reads it there.
    await tx.membership.update({
      where: { storeId_userId: { storeId: actor.storeId, userId: id } },
      data: { pinHash, updatedAt: new Date() },
    });
    await recordAudit(tx, actor.storeId, actor.id, 'user.pin', { id, email: target.email, pin: 'changed' });
  });
}
