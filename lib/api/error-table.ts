// The one error path of every route: a domain error's code (lib/errors.ts) becomes an HTTP status
// and the JSON body `{ "error": "<code>", "message": "<detail>" }` here and nowhere else
// (docs/api.md#errors). Routes throw domain errors, or answer a refusal with errorResponse().
import { json, transient } from './respond';
import { isDomainError, type ErrorCode } from '../errors';
import { isBackendUnavailable } from '../chain';
import { isDataException, isDbBusy } from '../db';
import { log } from '../log';

interface Row {
  status: number;
  /** The body's `error` when it differs from the code. */
  error?: string;
  /** The relay's word for it, when the relay answers this code in its own vocabulary. */
  relayError?: string;
  /** Headers every answer of this code carries (a caller may add or override). */
  headers?: Record<string, string>;
}

/** Code → HTTP answer. A code is added here first, in lib/errors.ts's ErrorCode, or not at all. */
export const ERROR_TABLE: Readonly<Record<ErrorCode, Row>> = {
  invalid_request: { status: 400 },
  unauthorized: { status: 401 },
  forbidden: { status: 403 },
  not_found: { status: 404 },
  conflict: { status: 409 },
  body_too_large: { status: 413, error: 'invalid_request', relayError: 'invalid_tx' },
  unsupported_media_type: { status: 415 },
  rate_limited: { status: 429 },
  too_many_streams: { status: 429 },
  too_many_open_payments: { status: 429, headers: { 'Retry-After': '60' } },
  rate_unavailable: { status: 503, headers: { 'Retry-After': '30' } },
  not_ready: { status: 503, headers: { 'Retry-After': '10' } },
  unavailable: { status: 503 },
  smtp_not_configured: { status: 503 },
  smtp_failed: { status: 502 },
  store_suspended: { status: 403 },
};

export interface ErrorOptions {
  /** Extra headers (Retry-After, WWW-Authenticate). */
  headers?: Record<string, string>;
  /** Extra members of the body, after error and message. */
  details?: Record<string, unknown>;
  /** Answer in the relay's vocabulary. */
  relay?: boolean;
}

/** The HTTP answer for a refusal with this code. */
export function errorResponse(code: ErrorCode, message: string, opts: ErrorOptions = {}): Response {
  const row = ERROR_TABLE[code];
  const error = (opts.relay ? row.relayError : undefined) ?? row.error ?? code;
  return json({ error, message, ...opts.details }, row.status, { ...row.headers, ...opts.headers });
}

/** The refusal as a value, for the helpers that answer before a route's work starts. */
export type Refusal = { ok: false; response: Response };
export const refuse = (code: ErrorCode, message: string, opts?: ErrorOptions): Refusal => ({
  ok: false,
  response: errorResponse(code, message, opts),
});

const DB_OUTAGE =
  /ECONNREFUSED|ECONNRESET|EPIPE|terminating connection|Connection terminated|connect ETIMEDOUT|not queryable|server closed the connection|the database system is (starting up|shutting down|in recovery mode)|57P0[123]|P1001|P1017|DatabaseNotReachable|timeout exceeded when trying to connect/i;

/** A database outage, judged from the error and its causes (drivers and Prisma wrap them). */
function looksLikeDbOutage(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 4) return false;
  const x = e as { message?: unknown; code?: unknown; kind?: unknown; cause?: unknown };
  const m = `${String(x.message ?? '')} ${String(x.code ?? '')} ${String(x.kind ?? '')}`;
  return DB_OUTAGE.test(m) || looksLikeDbOutage(x.cause, depth + 1);
}

/** The answer for anything a route threw: a domain error by its code, never internals. */
export function errorAnswer(e: unknown, opts: { relay?: boolean } = {}): Response {
  if (isDomainError(e) && e.code in ERROR_TABLE) {
    const headers = e.retryAfterSec !== undefined ? { 'Retry-After': String(e.retryAfterSec) } : undefined;
    return errorResponse(e.code, e.message, { details: e.details, relay: opts.relay, headers });
  }
  if (isDataException(e)) {
    // Last line of defence: the database refused a value from the request (a NUL character,
    // a number or date out of range) that no validator caught. Bad input, not a server fault.
    log.warn('database refused a request value', { error: e as Error });
    return errorResponse(
      'invalid_request',
      'the request holds a value that cannot be stored (a NUL character, or a number or date out of range)',
    );
  }
  if (isDbBusy(e)) {
    // Load, not a fault: the request changed nothing (its transaction never started), and the
    // client may send it again, with its Idempotency-Key where it has one. Bodiless, as every
    // 503 (docs/api.md#errors).
    log.warn('database busy', { error: e as Error });
    return transient(503, { 'Retry-After': '1' });
  }
  if (isBackendUnavailable(e) || looksLikeDbOutage(e)) {
    log.warn('service unavailable', { error: e as Error });
    return transient(503);
  }
  log.error('unhandled error in route', { error: e as Error });
  return opts.relay ? transient(500) : json({ error: 'internal', message: 'internal error' }, 500);
}
