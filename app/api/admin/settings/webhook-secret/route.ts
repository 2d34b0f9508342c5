import { json } from '@/lib/api/respond';
import { adminRoute } from '@/lib/api/admin';
import { regenerateWebhookSecret } from '@/lib/backoffice/settings';

export const dynamic = 'force-dynamic';

// Regenerates the webhook signing secret; the answer is the only time it is shown whole.
export function POST(req: Request) {
  return adminRoute(req, 'manager', async (ctx) => {
    return json({ secret: await regenerateWebhookSecret(ctx.db) });
  });
}
