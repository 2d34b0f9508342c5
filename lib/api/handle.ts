// Wraps a route handler body: maps domain errors to HTTP answers, never leaks internals.
import { BodyTooLargeError } from './body';
import { json, jsonError, transient } from './respond';
import { InvalidRequestError } from '../errors';
import { ForbiddenFieldError, TooManyOpenPaymentsError, IdempotencyConflictError, NoReceivingWalletError } from '../payments';
import { isStoreNotReady } from '../readiness';
import { isBackendUnavailable } from '../chain/backend';
import { log } from '../log';
import { rateLimitResponse, type RateGroup } from './rate-limit';
import { isDataException } from '../db/bounds';
import { RateUnavailableError } from '../rates/store';

const DB_OUTAGE = /ECONNREFUSED|ECONNRESET|EPIPE|terminating connection|Connection terminated|connect ETIMEDOUT|not queryable|server closed the connection|the database system is (starting up|shutting down|in recovery mode)|57P0[123]|P1001|P1017|DatabaseNotReachable|timeout exceeded when trying to connect/i;

/** A database outage, judged from the error and its causes (drivers and Prisma wrap them). */
function looksLikeDbOutage(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 4) return false;
  const x = e as { message?: unknown; code?: unknown; kind?: unknown; cause?: unknown };
  const m = `${String(x.message ?? '')} ${String(x.code ?? '')} ${String(x.kind ?? '')}`;
  return DB_OUTAGE.test(m) || looksLikeDbOutage(x.cause, depth + 1);
}

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
    if (e instanceof BodyTooLargeError) {
      return jsonError(413, opts.relay ? 'invalid_tx' : 'invalid_request', e.message);
    }
    if (e instanceof InvalidRequestError) return jsonError(400, 'invalid_request', e.message);
    if (e instanceof ForbiddenFieldError) return jsonError(403, 'forbidden', e.message);
    if (e instanceof TooManyOpenPaymentsError) return jsonError(429, 'too_many_open_payments', e.message, { 'Retry-After': '60' });
    if (e instanceof IdempotencyConflictError) return jsonError(409, 'conflict', e.message);
    if (e instanceof NoReceivingWalletError) return jsonError(409, 'conflict', e.message);
    if (e instanceof RateUnavailableError) return jsonError(503, 'rate_unavailable', e.message, { 'Retry-After': '30' });
    if (isStoreNotReady(e)) return json({ error: 'not_ready', message: e.message, problems: e.problems }, 503, { 'Retry-After': '10' });
    if (isDataException(e)) {
      // Last line of defence: the database refused a value from the request (a NUL character,
      // a number or date out of range) that no validator caught. Bad input, not a server fault.
      log.warn('database refused a request value', { error: e as Error });
      return jsonError(400, 'invalid_request', 'the request holds a value that cannot be stored (a NUL character, or a number or date out of range)');
    }
    if (isBackendUnavailable(e) || looksLikeDbOutage(e)) {
      log.warn('service unavailable', { error: e as Error });
      return transient(503);
    }
    log.error('unhandled error in route', { error: e as Error });
    return opts.relay ? transient(500) : jsonError(500, 'internal', 'internal error');
  }
}
