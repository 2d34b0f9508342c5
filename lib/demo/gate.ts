// The /demo pages and /demo/api routes exist only on the devnet demo chain (never on mainnet):
// on every other backend they answer 404 as if they were not there, whatever the method.
import { staticContext } from '../app-context';
import { notFoundResponse } from '../api/not-found';
import { devnetOf } from './demo-wallet';

export function demoEnabled(): boolean {
  const { cfg, chain } = staticContext();
  return devnetOf(cfg, chain) !== null;
}

/** A /demo/api route handler that is 404 unless the demo is enabled. */
export function demoRoute(fn: (req: Request) => Promise<Response>): (req: Request) => Promise<Response> {
  return async (req) => (demoEnabled() ? fn(req) : notFoundResponse(req));
}

/** The answer for methods a /demo/api route does not serve: 404 off devnet, 405 on it. */
export function demoNoMethod(req: Request): Response {
  if (!demoEnabled()) return notFoundResponse(req);
  return new Response(null, { status: 405, headers: { 'Cache-Control': 'no-store' } });
}
