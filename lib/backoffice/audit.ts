// The audit log (docs/using-counter.md#the-back-office-admin-and-the-invoice-listing): every settings, wallet, user, API key and relay key change, with
// who made it and what changed. Callers pass only non-secret values: webhook secrets, key
// secrets, passwords and their hashes never reach `changes` (a password change is recorded as
// "changed"). Readable by the owner at GET /api/admin/audit, newest first.
import type { Db, Prisma } from '../db';
import { inStore } from '../stores';

export type AuditAction =
  | 'settings.update'
  | 'wallet.update'
  | 'wallet.rescan'
  | 'webhook_secret.regenerate'
  | 'relay_key.rotate'
  | 'api_key.create'
  | 'api_key.revoke'
  | 'user.create'
  | 'user.update'
  | 'user.pin'
  | 'terminal.create'
  | 'terminal.rename'
  | 'terminal.revoke'
  | 'shift.close'
  | 'terminal.display_unpair';

export type AuditChanges = Record<string, unknown>;

export interface AuditEntry {
  at: string;
  /** The acting user's email when the change was made, or "system" (startup seeding, scripts). */
  user: string;
  action: AuditAction;
  changes: AuditChanges;
}

/** The audit table through the client or an open transaction (to log in the change's transaction). */
type AuditClient = Pick<Prisma, 'auditLog' | 'user'>;

const LONG = 200;

/** A value as the log keeps it: long strings (an image icon) are summarised, not copied. */
export function auditValue(v: unknown): unknown {
  if (typeof v === 'string' && v.length > LONG) return `(${v.length} characters)`;
  if (typeof v === 'bigint') return v.toString();
  return v;
}

/** `{ field: { from, to } }` for the fields of `keys` whose values differ between two views. */
export function fieldChanges<T extends object>(before: T, after: T, keys: readonly (keyof T & string)[]): AuditChanges {
  const out: AuditChanges = {};
  for (const k of keys) {
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) out[k] = { from: auditValue(before[k]), to: auditValue(after[k]) };
  }
  return out;
}

/** Logs a change of store `storeId`: its audit log is its own. */
export async function recordAudit(
  client: AuditClient,
  storeId: number,
  actorId: string | null | undefined,
  action: AuditAction,
  changes: AuditChanges,
): Promise<void> {
  const actor = actorId ? await client.user.findUnique({ where: { id: actorId }, select: { email: true } }) : null;
  await client.auditLog.create({
    data: { ...inStore(storeId), userId: actorId ?? null, userEmail: actor?.email ?? '', action, changes: changes as object },
  });
}

export async function listAudit(db: Db, storeId: number, limit = 200): Promise<AuditEntry[]> {
  const rows = await db.prisma.auditLog.findMany({
    where: inStore(storeId),
    orderBy: [{ at: 'desc' }, { id: 'desc' }],
    take: Math.min(Math.max(limit, 1), 1000),
  });
  return rows.map((r) => ({
    at: r.at.toISOString(),
    user: r.userEmail || 'system',
    action: r.action as AuditAction,
    changes: (r.changes ?? {}) as AuditChanges,
  }));
}
