// Who may read the sales report (docs/api.md#authentication-and-scopes, docs/using-counter.md#reports-and-receipts): an API key with reports:read; a signed-in
// owner or manager (the store's figures, or with mine=1 only their own sales); a cashier, whose
// report is always confined to the sales it created: it never sees anyone else's totals.
// Request authorisation, so it lives with the HTTP helpers, not in lib/reports.
import type { Db } from '../db';
import { requireAccess, type Access } from './access';

export async function reportAccess(db: Db, req: Request, mine: boolean): Promise<Access> {
  if (req.headers.get('authorization')) return requireAccess(db, req, 'reports:read');
  // Every role holds payments:read; the report of the whole store needs reports:read too.
  const a = await requireAccess(db, req, 'payments:read');
  if (!a.ok || a.kind !== 'session') return a;
  const whole = a.scopes.includes('reports:read') && !mine;
  return { ...a, ownSalesOf: whole ? null : a.user.id };
}
