// The route convention's input checks (docs/api.md#errors): each parses with a zod schema and
// throws a domain error naming the field; the route wrapper (lib/api/handle via vendorRoute,
// adminRoute) answers it through the one error table.
import { z } from 'zod';
import { fromZod, InvalidRequestError, type Parser } from '../errors';
import { parseJsonOrUndefined, readBodyText, MAX_BODY_BYTES } from './body';

/** The request's JSON body, bounded, parsed with `schema`; invalid JSON is refused as a `body` error. */
export async function jsonBody<T>(req: Request, schema: Parser<T>, opts: { limit?: number } = {}): Promise<T> {
  const r = schema.safeParse(parseJsonOrUndefined(await readBodyText(req, opts.limit ?? MAX_BODY_BYTES)));
  if (!r.success) throw fromZod(r.error, { dotted: true });
  return r.data;
}

/** One query parameter parsed with `schema` (absent is undefined), refused naming the parameter. */
export function queryParam<T>(req: Request, name: string, schema: Parser<T>): T {
  const value = new URL(req.url).searchParams.get(name) ?? undefined;
  const r = schema.safeParse(value);
  if (!r.success) throw new InvalidRequestError(name, r.error.issues[0]?.message ?? 'invalid');
  return r.data;
}

/** An integer query parameter from `min` to `max`, `fallback` when absent. */
export const intParam = (min: number, max: number, fallback: number) => {
  const message = `must be an integer ${min}–${max}`;
  return z
    .string()
    .regex(new RegExp(`^\\d{1,${String(max).length}}$`), message)
    .transform(Number)
    .refine((n) => n >= min && n <= max, message)
    .optional()
    .transform((n) => n ?? fallback);
};

/** One of `values`, `fallback` when absent. */
export const oneOf = <V extends string>(values: readonly [V, ...V[]], fallback: V) =>
  z
    .enum(values, { message: `must be ${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}` })
    .optional()
    .transform((v) => v ?? fallback);

const IDEMPOTENCY_KEY = z
  .string()
  .regex(/^[!-~]{1,200}$/, 'must be 1–200 visible ASCII characters')
  .nullable();

/** The Idempotency-Key header (docs/api.md#idempotency), or null when the request has none. */
export function idempotencyKey(req: Request): string | null {
  const r = IDEMPOTENCY_KEY.safeParse(req.headers.get('idempotency-key'));
  if (!r.success) throw new InvalidRequestError('Idempotency-Key', r.error.issues[0]?.message ?? 'invalid');
  return r.data;
}
