// Errors of the domain carry a code, never an HTTP status: lib/api/error-table.ts is the one
// place that turns a code into a status and the JSON error body (docs/api.md#errors), so domain
// code never needs an HTTP helper (docs/architecture.md#layers).
import type { ZodError } from 'zod';

/** Every code a domain error may carry; each has exactly one row in lib/api/error-table.ts. */
export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'body_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'too_many_streams'
  | 'too_many_open_payments'
  | 'rate_unavailable'
  | 'not_ready'
  | 'unavailable'
  | 'smtp_not_configured'
  | 'smtp_failed'
  | 'store_suspended';

/**
 * A refusal the caller can act on. `field` names the offending input, if any; `details` are extra
 * members of the error body (the readiness problems, for one).
 */
export class DomainError extends Error {
  /** A brand besides the class: Next.js may bundle this module into more than one chunk. */
  readonly domainError = true;
  /** Seconds after which a retry may succeed, when the refusal is a budget or a wait. */
  retryAfterSec?: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field = '',
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  /** The same error, saying when to retry. */
  retryAfter(seconds: number): this {
    this.retryAfterSec = seconds;
    return this;
  }
}

export function isDomainError(e: unknown): e is DomainError {
  return (
    e instanceof DomainError ||
    (e instanceof Error && (e as Partial<DomainError>).domainError === true && typeof (e as Partial<DomainError>).code === 'string')
  );
}

/** invalid_request; `field` names the offending field, and the message starts with it. */
export class InvalidRequestError extends DomainError {
  constructor(field: string, message: string) {
    super('invalid_request', field ? `${field}: ${message}` : message, field);
    this.name = 'InvalidRequestError';
  }
}

export const notFound = (message: string): DomainError => new DomainError('not_found', message);
export const conflict = (message: string, field = ''): DomainError => new DomainError('conflict', message, field);
export const forbidden = (message: string): DomainError => new DomainError('forbidden', message);

/** Renders a zod path like items[1].unit. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

/**
 * The first zod issue's field and message (unknown keys listed by name). `dotted` keeps the
 * plainer wording the sign-in, display and demo routes have always answered: a path joined with
 * dots, `body` for the whole body, zod's own message.
 */
export function zodIssue(err: ZodError, style: { dotted?: boolean } = {}): { field: string; message: string } {
  const issue = err.issues[0];
  if (style.dotted) return { field: issue?.path.join('.') || 'body', message: issue?.message ?? 'invalid' };
  const field = issue ? fieldPath(issue.path) : '';
  let message = issue?.message ?? 'invalid request';
  if (issue?.code === 'unrecognized_keys') message = `unknown field(s): ${(issue as { keys: string[] }).keys.join(', ')}`;
  return { field, message };
}

/** The first zod issue as an invalid_request naming its field. */
export function fromZod(err: ZodError, style: { dotted?: boolean } = {}): InvalidRequestError {
  const { field, message } = zodIssue(err, style);
  return new InvalidRequestError(field, message);
}

export type Parser<T> = { safeParse(v: unknown): { success: true; data: T } | { success: false; error: ZodError } };

/** Parses with a zod schema, throwing invalid_request naming the field. */
export function parseWith<T>(schema: Parser<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) throw fromZod(r.error);
  return r.data;
}

/** A suspended store takes no new payments, cash sales or charge-again (docs/architecture.md#data). */
export class StoreSuspendedError extends DomainError {
  constructor() {
    super('store_suspended', 'this store is suspended: it takes no new payments; the ones already open run to their end');
    this.name = 'StoreSuspendedError';
  }
}
