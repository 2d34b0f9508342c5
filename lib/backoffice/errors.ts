// Errors of back-office operations: domain errors with a code (lib/errors.ts); the one error table
// (lib/api/error-table.ts) answers them.
import { DomainError, zodIssue, type Parser } from '../errors';

export type BackofficeCode = 'invalid_request' | 'not_found' | 'conflict' | 'forbidden';

export class BackofficeError extends DomainError {
  constructor(code: BackofficeCode, message: string, field = '') {
    super(code, field ? `${field}: ${message}` : message, field);
    this.name = 'BackofficeError';
  }
}

export function invalid(field: string, message: string): BackofficeError {
  return new BackofficeError('invalid_request', message, field);
}

/** Parses with a zod schema, throwing an invalid_request BackofficeError naming the field. */
export function parseWith<T>(schema: Parser<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const { field, message } = zodIssue(r.error);
  throw invalid(field, message);
}
