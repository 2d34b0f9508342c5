// Errors of back-office operations; lib/api/admin.ts turns them into JSON answers.
import type { ZodError } from 'zod';
import { fieldPath } from '../errors';

export type BackofficeCode = 'invalid_request' | 'not_found' | 'conflict' | 'forbidden';

const STATUS: Record<BackofficeCode, number> = { invalid_request: 400, forbidden: 403, not_found: 404, conflict: 409 };

export class BackofficeError extends Error {
  constructor(readonly code: BackofficeCode, message: string, readonly field = '') {
    super(field ? `${field}: ${message}` : message);
    this.name = 'BackofficeError';
  }
  get status(): number {
    return STATUS[this.code];
  }
}

export function invalid(field: string, message: string): BackofficeError {
  return new BackofficeError('invalid_request', message, field);
}

export function fromZodIssue(err: ZodError): BackofficeError {
  const issue = err.issues[0];
  let message = issue?.message ?? 'invalid request';
  if (issue?.code === 'unrecognized_keys') message = `unknown field(s): ${(issue as { keys: string[] }).keys.join(', ')}`;
  return invalid(issue ? fieldPath(issue.path) : '', message);
}

/** Parses with a zod schema, throwing a 400 BackofficeError naming the field. */
export function parseWith<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: ZodError } }, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) throw fromZodIssue(r.error);
  return r.data;
}
