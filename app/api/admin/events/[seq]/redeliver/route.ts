import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { json } from '@/lib/api/respond';
import { requireRole, adminErrors } from '@/lib/api/admin';
import { redeliverEvent } from '@/lib/backoffice/invoices';

export const dynamic = 'force-dynamic';

export function POST(req: Request, { params }: { params: Promise<{ seq: string }> }) {
  return handle(() => adminErrors(async () => {
    const ctx = await appContext();
    const a = await requireRole(ctx.db, req, 'manager');
    if (!a.ok) return a.response;
    const { seq } = await params;
    await redeliverEvent(ctx.db, seq);
    return json({ ok: true, queued: true });
  }));
}
