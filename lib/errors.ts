// Request errors of the domain: lib/api turns them into HTTP answers (400 invalid_request), so domain
// code never needs an HTTP helper (docs/architecture.md#layers).
import type { ZodError } from 'zod';

/** 400 invalid_request on the vendor API; `field` names the offending field. */
export class InvalidRequestError extends Error {
  constructor(readonly field: string, message: string) {
    super(field ? `${field}: ${message}` : message);
    this.name = 'InvalidRequestError';
  }
}

/** Renders a zod path like items[1].unit. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

export function fromZod(err: ZodError): InvalidRequestError {
  const issue = err.issues[0];
  const field = issue ? fieldPath(issue.path) : '';
  let message = issue?.message ?? 'invalid request';
  if (issue?.code === 'unrecognized_keys') message = `unknown field(s): ${(issue as { keys: string[] }).keys.join(', ')}`;
  return new InvalidRequestError(field, message);
}
