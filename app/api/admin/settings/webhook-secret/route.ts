import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { json } from '@/lib/api/respond';
import { requireRole, adminErrors } from '@/lib/api/admin';
import { regenerateWebhookSecret } from '@/lib/backoffice/settings';

export const dynamic = 'force-dynamic';

// Regenerates the webhook signing secret; the answer is the only time it is shown whole.
export function POST(req: Request) {
  return handle(() => adminErrors(async () => {
    const ctx = await appContext();
    const a = await requireRole(ctx.db, req, 'manager');
    if (!a.ok) return a.response;
    return json({ secret: await regenerateWebhookSecret(ctx.db) });
  }));
}
