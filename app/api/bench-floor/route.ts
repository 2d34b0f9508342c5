// The framework floor for the benchmarks (docs/performance.md): the cheapest possible route handler
// in this Next.js app. Off (404) unless COUNTER_BENCH_FLOOR=1, so production never serves it.
import { appContext } from '@/lib/app-context';
import { openFeedCount, paymentFeedHub, streamSlots } from '@/lib/live';
import { runtimeSettings } from '@/lib/config';

export const dynamic = 'force-dynamic';

const BODY = JSON.stringify({ ok: true });

/**
 * ?mem=1: the process's memory breakdown, for the soak run's samples, with the live streams'
 * bookkeeping (slots held, keys in the slot maps, hub watchers, open feeds), which the streams
 * benchmark and tests expect back at zero once every stream has closed. ?mem=1&gc=1 runs a full
 * collection first when the process was started with --expose-gc.
 */
async function memory(url: URL): Promise<Response> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (url.searchParams.get('gc') === '1' && gc) gc();
  const ctx = await appContext();
  const slots = streamSlots();
  const streams = {
    open: slots.open,
    anonymous: slots.openAnonymous,
    keys: slots.keysHeld,
    hub_watchers: paymentFeedHub(ctx.db, ctx.cfg.publicUrl).watchers,
    feeds: openFeedCount(),
    gc: Boolean(gc),
  };
  return Response.json({ ...process.memoryUsage(), streams }, { headers: { 'Cache-Control': 'no-store' } });
}

export function GET(req: Request) {
  if (!runtimeSettings().benchFloor) return new Response(null, { status: 404 });
  if (req.url.includes('?mem=1')) return memory(new URL(req.url)); // the floor itself parses nothing
  return new Response(BODY, { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' } });
}

export const POST = GET;
