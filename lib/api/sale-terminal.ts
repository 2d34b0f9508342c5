// Which registered till a sale is made on (docs/counter.md): a PIN session's own terminal, or
// for a password session the browser's terminal cookie. API keys make sales on no terminal.
import type { Db } from '../db/client';
import { requestTerminal, type ActiveTerminal } from '../auth';
import type { Granted } from './vendor-route';

export async function saleTerminal(db: Db, req: Request, auth: Granted): Promise<ActiveTerminal | null> {
  if (auth.kind !== 'session') return null;
  const bound = auth.user.tillOnly?.terminalId;
  if (bound) {
    const t = await db.prisma.terminal.findUnique({ where: { id: bound }, select: { id: true, name: true, revokedAt: true } });
    return t && !t.revokedAt ? { id: t.id, name: t.name } : null;
  }
  return requestTerminal(db, req);
}
