// Wraps a route handler body: the client's rate limit first, then every thrown error answered
// through the one error table (lib/api/error-table.ts), never leaking internals.
import { errorAnswer } from './error-table';
import { rateLimitResponse, type RateGroup } from './rate-limit';

export interface HandleOptions {
  /** Relay routes answer errors in the relay's vocabulary (413 invalid_tx, bodiless 5xx). */
  relay?: boolean;
  /** The request: when given, its client's rate limit (lib/api/rate-limit.ts) is applied first. */
  req?: Request;
  /** Rate-limit group; defaults from the request path (/relay/, /api/v1/, /invoices/). */
  group?: RateGroup;
}

export async function handle(fn: () => Promise<Response>, opts: HandleOptions = {}): Promise<Response> {
  if (opts.req) {
    const limited = rateLimitResponse(opts.req, opts.group);
    if (limited) return limited;
  }
  try {
    return await fn();
  } catch (e) {
    return errorAnswer(e, { relay: opts.relay });
  }
}
