// Route wrappers for the /demo/api routes: 404 as if they were not there unless the demo is
// enabled (lib/demo/gate.ts decides; this file only turns that into HTTP answers).
import { demoEnabled } from '../demo';
import { notFoundResponse } from './not-found';

/** A /demo/api route handler that is 404 unless the demo is enabled. */
export function demoRoute(fn: (req: Request) => Promise<Response>): (req: Request) => Promise<Response> {
  return async (req) => (demoEnabled() ? fn(req) : notFoundResponse(req));
}

/** The answer for methods a /demo/api route does not serve: 404 off devnet, 405 on it. */
export function demoNoMethod(req: Request): Response {
  if (!demoEnabled()) return notFoundResponse(req);
  return new Response(null, { status: 405, headers: { 'Cache-Control': 'no-store' } });
}
