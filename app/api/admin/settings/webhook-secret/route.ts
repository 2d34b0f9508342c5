import { json, adminRoute } from '@/lib/api';
import { regenerateWebhookSecretAs } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';

// Regenerates the webhook signing secret; the answer is the only time it is shown whole.
export function POST(req: Request) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    return json({ secret: await regenerateWebhookSecretAs(ctx.db, a.user) });
  });
}
