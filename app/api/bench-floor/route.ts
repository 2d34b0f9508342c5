// The framework floor for the benchmarks (docs/performance.md): the cheapest possible route handler
// in this Next.js app. Off (404) unless COUNTER_BENCH_FLOOR=1, so production never serves it.
export const dynamic = 'force-dynamic';

const BODY = JSON.stringify({ ok: true });

export function GET(req: Request) {
  if (process.env.COUNTER_BENCH_FLOOR !== '1') return new Response(null, { status: 404 });
  // ?mem=1: the process's memory breakdown, for the soak run's samples.
  if (req.url.endsWith('?mem=1')) return Response.json(process.memoryUsage(), { headers: { 'Cache-Control': 'no-store' } });
  return new Response(BODY, { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' } });
}

export const POST = GET;
