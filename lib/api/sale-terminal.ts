// Which registered till a sale is made on (docs/counter.md): a PIN session's own terminal, or
// for a password session the browser's terminal cookie. API keys make sales on no terminal.
import type { Db } from '../db';
import { requestTerminal, type ActiveTerminal } from '../auth';
import type { Granted } from './vendor-route';

export async function saleTerminal(db: Db, req: Request, auth: Granted): Promise<ActiveTerminal | null> {
  if (auth.kind !== 'session') return null;
  const bound = auth.user.tillOnly?.terminalId;
  if (bound) {
    const t = await db.prisma.terminal.findUnique({
      where: { id: bound },
      select: { id: true, name: true, revokedAt: true, storeId: true },
    });
    // A PIN session's till is of the session's store (lib/auth/sessions.ts checks it at sign-in too).
    return t && !t.revokedAt && t.storeId === auth.storeId ? { id: t.id, name: t.name, storeId: t.storeId } : null;
  }
  // A terminal cookie of another store makes no sale of this one.
  const t = await requestTerminal(db, req);
  return t && t.storeId === auth.storeId ? t : null;
}
