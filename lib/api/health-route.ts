// GET /api/health (docs/operations.md#readiness): open to anyone, for monitoring. A signed-in
// member's till and back office poll it too, so its readiness is their store's; a caller with no
// session, or one that has ended, hears about the first store.
import { config } from '../config';
import { getDb } from '../db';
import { checkHealth } from '../health';
import { requestUser } from './access';

export async function health(req: Request): Promise<Response> {
  const h = await checkHealth(config(), getDb, async (db) => (await requestUser(db, req))?.storeId);
  return Response.json(h, { status: h.ok ? 200 : 503, headers: { 'Cache-Control': 'no-store' } });
}
