import { json, readJson, operatorRoute } from '@/lib/api';
import { suspendStore } from '@/lib/operator';

export const dynamic = 'force-dynamic';

// Suspends or resumes a store: a suspended store takes no new payments (docs/architecture.md#data).
export function PATCH(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return operatorRoute(req, async (ctx) => json(await suspendStore(ctx.db, (await params).id, await readJson(req, 1024))));
}
