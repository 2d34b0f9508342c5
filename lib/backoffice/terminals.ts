// Registered tills as the back office manages them (docs/counter.md): register the calling
// browser, list, rename and revoke. Each change is audited. The terminal's token is returned
// only to the route that sets the cookie; it is never listed, logged or audited.
import { z } from 'zod';
import type { Db } from '../db';
import { createTerminal } from '../auth';
import { BackofficeError, parseWith } from './errors';
import { recordAudit } from './audit';
import { printableName } from '../text';
import { inStore } from '../stores';

export interface TerminalView {
  id: string;
  name: string;
  created_at: string;
  last_seen_at: string | null;
  revoked: boolean;
}

// A name a cashier reads on the lock screen: 1–60 characters by the one printable-text rule
// (lib/text/printable.ts).
const name = printableName(60);
const TerminalBody = z.object({ name }).strict();

export async function listTerminals(db: Db, storeId: number): Promise<TerminalView[]> {
  const rows = await db.prisma.terminal.findMany({
    where: inStore(storeId),
    orderBy: [{ revokedAt: { sort: 'desc', nulls: 'first' } }, { createdAt: 'desc' }],
    take: 500,
  });
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    created_at: r.createdAt.toISOString(),
    last_seen_at: r.lastSeenAt?.toISOString() ?? null,
    revoked: r.revokedAt !== null,
  }));
}

/** Registers a terminal; the caller sets its cookie from `token`. */
export async function registerTerminal(db: Db, storeId: number, actorId: string, input: unknown) {
  const p = parseWith(TerminalBody, input);
  const t = await createTerminal(db, storeId, p.name, actorId);
  await recordAudit(db.prisma, storeId, actorId, 'terminal.create', { id: t.id, name: t.name });
  return { view: { id: t.id, name: t.name, created_at: t.createdAt.toISOString() }, token: t.token };
}

export async function renameTerminal(db: Db, storeId: number, actorId: string, id: string, input: unknown): Promise<TerminalView> {
  const p = parseWith(TerminalBody, input);
  return db.prisma.$transaction(async (tx) => {
    const before = await tx.terminal.findFirst({ where: { id, ...inStore(storeId) } });
    if (!before) throw new BackofficeError('not_found', 'no such terminal');
    const r = await tx.terminal.update({ where: { id, ...inStore(storeId) }, data: { name: p.name } });
    if (before.name !== r.name) await recordAudit(tx, storeId, actorId, 'terminal.rename', { id, name: { from: before.name, to: r.name } });
    return {
      id: r.id,
      name: r.name,
      created_at: r.createdAt.toISOString(),
      last_seen_at: r.lastSeenAt?.toISOString() ?? null,
      revoked: r.revokedAt !== null,
    };
  });
}

/** Revokes a terminal: its cookie opens nothing from now on, and its PIN sessions end. */
export async function revokeTerminal(db: Db, storeId: number, actorId: string, id: string): Promise<void> {
  await db.prisma.$transaction(async (tx) => {
    const t = await tx.terminal.findFirst({ where: { id, ...inStore(storeId) } });
    if (!t) throw new BackofficeError('not_found', 'no such terminal');
    if (t.revokedAt) throw new BackofficeError('conflict', 'this terminal is already revoked');
    await tx.terminal.update({ where: { id, ...inStore(storeId) }, data: { revokedAt: new Date() } });
    await tx.session.deleteMany({ where: { terminalId: id, ...inStore(storeId) } });
    await recordAudit(tx, storeId, actorId, 'terminal.revoke', { id, name: t.name });
  });
}

/** Unpairs every customer display of a terminal (docs/counter.md#the-customers-display); returns how many. */
export async function unpairDisplays(db: Db, storeId: number, actorId: string, id: string): Promise<number> {
  return db.prisma.$transaction(async (tx) => {
    const t = await tx.terminal.findFirst({ where: { id, ...inStore(storeId) }, select: { name: true } });
    if (!t) throw new BackofficeError('not_found', 'no such terminal');
    const { count } = await tx.customerDisplay.deleteMany({ where: { terminalId: id, ...inStore(storeId) } });
    await tx.displayPairing.deleteMany({ where: { terminalId: id, ...inStore(storeId) } });
    if (count > 0) await recordAudit(tx, storeId, actorId, 'terminal.display_unpair', { id, name: t.name, displays: count });
    return count;
  });
}
