import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { json } from '@/lib/api/respond';
import { requireRole, adminErrors } from '@/lib/api/admin';
import { relayKeyView, rotateRelayKeyView } from '@/lib/backoffice/keys';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return handle(() => adminErrors(async () => {
    const ctx = await appContext();
    const a = await requireRole(ctx.db, req, 'owner');
    if (!a.ok) return a.response;
    return json(await relayKeyView(ctx.db));
  }));
}

// Rotates the relay signing key.
export function POST(req: Request) {
  return handle(() => adminErrors(async () => {
    const ctx = await appContext();
    const a = await requireRole(ctx.db, req, 'owner');
    if (!a.ok) return a.response;
    return json(await rotateRelayKeyView(ctx.db));
  }));
}
