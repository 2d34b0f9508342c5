// One error path (docs/api.md#errors): domain errors carry a code, lib/api/error-table.ts alone
// turns a code into a status and the JSON error body, and routes throw or answer through it.
// The scan fails on an error body built anywhere else in app/ or lib/, or on a domain error class
// outside lib/api that carries an HTTP status (a browser component's read error may keep the
// status it received).
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { errorAnswer, errorResponse, ERROR_TABLE } from '@/lib/api/error-table';
import { BodyTooLargeError } from '@/lib/api/body';
import { DomainError, InvalidRequestError, fromZod } from '@/lib/errors';
import { BackofficeError } from '@/lib/backoffice/errors';
import { StoreNotReadyError } from '@/lib/readiness';
import { z } from 'zod';
import { idempotencyKey, intParam, oneOf, queryParam } from '@/lib/api/validate';

const ROOT = resolve(__dirname, '../..');
const THE_TABLE = 'lib/api/error-table.ts';

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    if (e.name === 'generated' || e.name === 'dist' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p));
    else if (/\.(ts|tsx)$/.test(e.name)) out.push(p);
  }
  return out;
}

/** Ways of building an error answer by hand: a status and an `error` body outside the table. */
const HAND_MADE = [
  /\bjsonError\s*\(/,
  /\bjson\(\s*\{\s*error\s*[:,]/,
  /NextResponse\.json\(\s*\{\s*error\b/,
  /Response\.json\(\s*\{\s*error\b/,
  /JSON\.stringify\(\s*\{\s*error\s*[:,]/,
];

/** A domain error that knows HTTP: a status field on an error class. */
const STATUS_ON_ERROR = /class \w+ extends (?:Error|DomainError)[^{]*\{[^}]*\breadonly status\b/s;

export function handMadeErrors(sources: { path: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { path, text } of sources) {
    if (path === THE_TABLE) continue;
    for (const re of HAND_MADE) if (re.test(text)) found.push(`${path}: ${re.source}`);
    // A browser component's read error keeps the status it was answered with: it answers nobody.
    const browser = /^\s*['"]use client['"]/.test(text);
    if (!path.startsWith('lib/api/') && !browser && STATUS_ON_ERROR.test(text)) found.push(`${path}: an error class with an HTTP status`);
  }
  return found;
}

const read = (p: string) => ({ path: relative(ROOT, join(ROOT, p)).split('\\').join('/'), text: readFileSync(join(ROOT, p), 'utf8') });

describe('one error path', () => {
  it('no error answer is made by hand in app/ or lib/, and no domain error carries an HTTP status', () => {
    const sources = [...files('app'), ...files('lib')].map(read);
    expect(sources.length).toBeGreaterThan(100);
    expect(handMadeErrors(sources)).toEqual([]);
  });

  it('the scan catches each way of making one by hand', () => {
    const planted = [
      "return jsonError(404, 'not_found', 'x');",
      "return json({ error: 'not_found', message: 'x' }, 404);",
      "return NextResponse.json({ error: 'x' }, { status: 400 });",
      "return Response.json({ error: 'x' });",
      "new Response(JSON.stringify({ error: 'x', message: 'y' }), { status: 400 })",
      'export class ShiftError extends Error {\n  constructor(readonly status: 409, message: string) { super(message); }\n}',
    ];
    for (const text of planted) expect(handMadeErrors([{ path: 'app/api/x/route.ts', text }]), text).not.toEqual([]);
    expect(handMadeErrors([{ path: THE_TABLE, text: planted[1] }])).toEqual([]);
  });

  it('the table answers the documented statuses and bodies', async () => {
    const cases: [unknown, number, Record<string, unknown>][] = [
      [new InvalidRequestError('items[0].unit', 'is required'), 400, { error: 'invalid_request', message: 'items[0].unit: is required' }],
      [new BackofficeError('not_found', 'no such product'), 404, { error: 'not_found', message: 'no such product' }],
      [new BackofficeError('conflict', 'taken', 'sku'), 409, { error: 'conflict', message: 'sku: taken' }],
      [new DomainError('unsupported_media_type', 'send the file as text/csv'), 415, { error: 'unsupported_media_type' }],
      [new BodyTooLargeError(10), 413, { error: 'invalid_request', message: 'request body exceeds 10 bytes' }],
      [new StoreNotReadyError([{ code: 'no_wallet' } as never]), 503, { error: 'not_ready', problems: [{ code: 'no_wallet' }] }],
      [new Error('boom'), 500, { error: 'internal', message: 'internal error' }],
    ];
    for (const [e, status, body] of cases) {
      const r = errorAnswer(e);
      expect(r.status, String(e)).toBe(status);
      expect(await r.json()).toMatchObject(body);
    }
    const relay = errorAnswer(new BodyTooLargeError(10), { relay: true });
    expect([relay.status, ((await relay.json()) as { error: string }).error]).toEqual([413, 'invalid_tx']);
    expect(errorAnswer(new Error('boom'), { relay: true }).status).toBe(500);
    // a full connection pool (Prisma's P2024), wrapped as a driver error's cause: busy, not broken
    const pool = errorAnswer(
      new Error('query failed', { cause: Object.assign(new Error('Timed out fetching a connection'), { code: 'P2024' }) }),
    );
    expect([pool.status, pool.headers.get('retry-after'), await pool.text()]).toEqual([503, '1', '']);
    const limited = errorAnswer(new DomainError('rate_limited', 'later').retryAfter(7));
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '7']);
    expect(errorResponse('too_many_open_payments', 'x').headers.get('retry-after')).toBe('60');
    expect(Object.fromEntries(Object.entries(ERROR_TABLE).map(([k, v]) => [k, v.status]))).toMatchObject({
      invalid_request: 400,
      unauthorized: 401,
      forbidden: 403,
      not_found: 404,
      conflict: 409,
      rate_limited: 429,
    });
  });

  it('one zod rendering, naming the field', () => {
    const r = z
      .object({ items: z.array(z.object({ unit: z.string() })) })
      .strict()
      .safeParse({ items: [{}] });
    expect(r.success).toBe(false);
    if (!r.success) {
      expect(fromZod(r.error).message).toBe('items[0].unit: Invalid input: expected string, received undefined');
      expect(fromZod(r.error, { dotted: true }).message).toBe('items.0.unit: Invalid input: expected string, received undefined');
    }
  });

  it("the route convention's checks answer the messages the routes always gave", () => {
    const at = (q: string, headers: Record<string, string> = {}) => new Request(`http://shop.example/x${q}`, { headers });
    const days = intParam(1, 366, 30);
    expect(queryParam(at(''), 'days', days)).toBe(30);
    expect(queryParam(at('?days=007'), 'days', days)).toBe(7);
    for (const bad of ['0', '367', '0400', '', 'x', '1.5']) {
      expect(() => queryParam(at(`?days=${bad}`), 'days', days), bad).toThrow(/^days: must be an integer 1–366$/);
    }
    expect(queryParam(at(''), 'format', oneOf(['json', 'csv'], 'json'))).toBe('json');
    expect(() => queryParam(at('?format=xml'), 'format', oneOf(['json', 'csv'], 'json'))).toThrow(/^format: must be json or csv$/);
    expect(idempotencyKey(at(''))).toBeNull();
    expect(idempotencyKey(at('', { 'Idempotency-Key': 'k-1' }))).toBe('k-1');
    expect(() => idempotencyKey(at('', { 'Idempotency-Key': 'a b' }))).toThrow(/^Idempotency-Key: must be 1–200 visible ASCII characters$/);
  });
});
