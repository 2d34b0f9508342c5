import { json, readJson, operatorRoute } from '@/lib/api';
import { createStoreWithInvite, operatorStores } from '@/lib/operator';
import { runtimeSettings } from '@/lib/config';

export const dynamic = 'force-dynamic';

// The operator's stores (docs/architecture.md#data): the list, and a new store with its owner's invite.
export function GET(req: Request) {
  return operatorRoute(req, async (ctx) => json(await operatorStores(ctx.db)));
}

export function POST(req: Request) {
  return operatorRoute(req, async (ctx, user) =>
    json(
      await createStoreWithInvite(ctx.db, ctx.cfg.publicUrl, user.id, await readJson(req, 4096), {
        mail: { timeoutMs: runtimeSettings().smtpTimeoutMs ?? undefined },
      }),
      201,
    ),
  );
}
