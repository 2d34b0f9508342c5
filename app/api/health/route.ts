import { config } from '@/lib/config';
import { getDb } from '@/lib/db';
import { checkHealth } from '@/lib/health';

export const dynamic = 'force-dynamic';

export async function GET() {
  const health = await checkHealth(config(), getDb);
  return Response.json(health, { status: health.ok ? 200 : 503, headers: { 'Cache-Control': 'no-store' } });
}
