// HTTP hardening on the real built app (embedded PGlite): every vendor route checks its key and
// scope (401/403), every POST endpoint bounds its body (413), /relay/* and /api/v1/* rate-limit
// per client with 429 + Retry-After, and the security headers are on every kind of response.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { openMigratedDb } from '@/lib/db';
import { seedDataDir } from '../helpers/stores';
import { createApiKey } from '@/lib/auth';
import { deriveAddress, parseXpub, getNetwork } from '@/lib/doge';
import { startApp, type AppServer } from '../helpers/app-server';
import { answer } from '../helpers/vendor-client';
import type { ErrorJson } from '../helpers/json-shapes';
import { DGUB } from '../helpers/keys';

const SELLER = deriveAddress(parseXpub(DGUB, getNetwork('mainnet')), 0, getNetwork('mainnet'));
const BURST = 20;
let app: AppServer;
let dataDir: string;
const keys: Record<string, string> = {};
let paymentId = '';

// Each request comes from its own client address unless a test pins one, so only the
// rate-limit test spends a bucket.
const freshIp = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

/** `T` is how the test reads the answer. */
async function call<T = unknown>(
  method: string,
  path: string,
  opts: { key?: string; body?: BodyInit; ip?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { 'X-Forwarded-For': opts.ip ?? freshIp(), ...(opts.headers ?? {}) };
  if (opts.key) headers.Authorization = `Bearer ${opts.key}`;
  const init: RequestInit & { duplex?: string } = { method, headers, body: opts.body };
  if (opts.body instanceof ReadableStream) init.duplex = 'half';
  return answer<T>(await fetch(app.url + path, init));
}

beforeAll(async () => {
  // Keys are created on the app's own database before it starts (PGlite is single-process).
  dataDir = mkdtempSync(join(tmpdir(), 'counter-hard-'));
  await seedDataDir(dataDir);
  const db = await openMigratedDb({ dataDir });
  keys.owner = (
    await createApiKey(db, {
      storeId: 1,
      name: 'owner',
      scopes: ['payments:read', 'payments:write', 'invoices:read', 'node:read', 'node:wallet'],
    })
  ).secret;
  keys.read = (await createApiKey(db, { storeId: 1, name: 'read', scopes: ['payments:read'] })).secret;
  keys.write = (await createApiKey(db, { storeId: 1, name: 'write', scopes: ['payments:write'] })).secret;
  keys.other = (await createApiKey(db, { storeId: 1, name: 'node', scopes: ['node:read', 'invoices:read'] })).secret;
  await db.close();
  // The test plays a reverse proxy that names each client in X-Forwarded-For: TRUST_PROXY=1.
  // (Without it the header is ignored: tests/integration/web-hardening.test.ts.)
  app = await startApp(
    { STORE_XPUB: DGUB, RATE_LIMIT_RPS: '0.5', RATE_LIMIT_BURST: String(BURST), TRUST_PROXY: '1' },
    { keepDataDir: dataDir },
  );
  const p = await call<{ id: string }>('POST', '/api/v1/payments', {
    key: keys.owner,
    body: JSON.stringify({ items: [{ type: 'item', id: 'a', name: 'A', count: 1, unit: '1' }] }),
  });
  expect(p.status).toBe(201);
  paymentId = p.body.id;
});

afterAll(async () => {
  await app?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const ITEMS = JSON.stringify({ items: [{ type: 'item', id: 'a', name: 'A', count: 1, unit: '1' }] });

// [method, path, scope needed, body]
const vendorRoutes = (): [string, string, 'read' | 'write', string | undefined][] => [
  ['POST', '/api/v1/payments', 'write', ITEMS],
  ['GET', '/api/v1/payments', 'read', undefined],
  ['GET', `/api/v1/payments/${paymentId}`, 'read', undefined],
  ['POST', `/api/v1/payments/${paymentId}/cancel`, 'write', undefined],
  ['GET', '/api/v1/events', 'read', undefined],
];

describe('vendor route authorisation', () => {
  it('answers 401 without a key, or with an unknown or malformed one, on every vendor route', async () => {
    for (const [method, path, , body] of vendorRoutes()) {
      for (const auth of [undefined, 'Bearer ck_unknown', 'Basic dXNlcjpwYXNz', `Bearer ${keys.owner}x`]) {
        const r = await call<ErrorJson>(method, path, { body, headers: auth ? { Authorization: auth } : {} });
        expect(r.status, `${method} ${path} with ${auth}`).toBe(401);
        expect(r.body.error).toBe('unauthorized');
        expect(r.headers.get('www-authenticate')).toBe('Bearer');
      }
    }
  });

  it('answers 403 with a key that lacks the scope, and lets the right scope through', async () => {
    for (const [method, path, need, body] of vendorRoutes()) {
      const wrong = need === 'read' ? keys.write : keys.read;
      for (const key of [wrong, keys.other]) {
        const r = await call<ErrorJson>(method, path, { key, body });
        expect(r.status, `${method} ${path}`).toBe(403);
        expect(r.body).toMatchObject({ error: 'forbidden' });
        expect(r.body.message).toContain(need === 'read' ? 'payments:read' : 'payments:write');
      }
    }
    // The right scope passes the check (cancel last: it changes the payment).
    for (const [method, path, need, body] of vendorRoutes()) {
      const r = await call(method, path, { key: need === 'read' ? keys.read : keys.write, body });
      expect(r.status, `${method} ${path}`).toBeLessThan(300);
    }
    expect((await call<{ status: string }>('GET', `/api/v1/payments/${paymentId}`, { key: keys.read })).body.status).toBe('declined');
  });
});

describe('body size limits', () => {
  const big = 'x'.repeat(1024 * 1024 + 1);
  const posts = () =>
    [
      ['/api/v1/payments', keys.owner],
      [`/api/v1/payments/${paymentId}/cancel`, keys.owner],
      ['/relay/pay', undefined],
      ['/relay/status', undefined],
    ] as const;

  it('answers 413 to a body over 1 MiB on every POST endpoint (declared length)', async () => {
    for (const [path, key] of posts()) {
      const r = await call('POST', path, { key, body: big });
      expect(r.status, path).toBe(413);
      expect(r.headers.get('cache-control')).toContain('no-store');
    }
  });

  it('answers 413 to a streamed body without Content-Length once it passes 1 MiB', async () => {
    // A raw chunked upload: the server may answer (and close) before the client is done writing.
    const streamed = (path: string, key?: string) =>
      new Promise<number>((resolve, reject) => {
        const u = new URL(app.url + path);
        const req = request({
          host: u.hostname,
          port: u.port,
          path: u.pathname,
          method: 'POST',
          agent: false,
          headers: { 'Transfer-Encoding': 'chunked', 'X-Forwarded-For': freshIp(), ...(key ? { Authorization: `Bearer ${key}` } : {}) },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        // The server may answer 413 and close while we are still writing (EPIPE/ECONNRESET): the
        // answer can still arrive, so give it a moment before failing.
        req.on('error', (e) =>
          setTimeout(
            () =>
              (e as NodeJS.ErrnoException).code === 'ECONNRESET' || (e as NodeJS.ErrnoException).code === 'EPIPE' ? resolve(-1) : reject(e),
            2000,
          ),
        );
        const chunk = Buffer.alloc(64 * 1024, 'y');
        let n = 0;
        const write = () => {
          while (n < 40) {
            // 2.5 MiB in all
            n++;
            if (!req.write(chunk)) return void req.once('drain', write);
          }
          req.end();
        };
        write();
      });
    // A reset that beat the 413 to the client (the kernel drops an answer when unread upload
    // bytes are still arriving as the server closes) is the transport race, not an answer: once
    // more, and then it must be a 413.
    for (const [path, key] of posts()) {
      let status = await streamed(path, key);
      if (status === -1) status = await streamed(path, key);
      expect(status, path).toBe(413);
    }
  });

  it('accepts a body just under the limit (it is then judged on its content)', async () => {
    const r = await call('POST', '/relay/status', { body: JSON.stringify({ id: 'nope', pad: 'z'.repeat(1024 * 1024 - 100) }) });
    expect(r.status).toBe(404);
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After once a client spends its burst, per client and group', async () => {
    const ip = '192.0.2.7';
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof call>> | null = null;
    for (let i = 0; i < BURST + 10 && !limited; i++) {
      const r = await call('POST', '/relay/status', { ip, body: JSON.stringify({ id: 'nope' }) });
      statuses.push(r.status);
      if (r.status === 429) limited = r;
    }
    expect(limited).not.toBeNull();
    // At 0.5 req/s refill, the burst plus what refilled during the loop went through first.
    expect(statuses.filter((s) => s === 404).length).toBeGreaterThanOrEqual(BURST);
    expect(limited!.body).toMatchObject({ error: 'rate_limited' });
    const retry = Number(limited!.headers.get('retry-after'));
    expect(Number.isInteger(retry) && retry >= 1).toBe(true);
    expect(limited!.headers.get('cache-control')).toContain('no-store');
    // Same client on /relay/pay: the relay group's bucket is shared.
    expect((await call('POST', '/relay/pay', { ip, body: '{}' })).status).toBe(429);
    // Another client, and the same client on another group, are unaffected.
    expect((await call('POST', '/relay/status', { body: JSON.stringify({ id: 'nope' }) })).status).toBe(404);
    expect((await call('GET', '/api/v1/events', { ip, key: keys.read })).status).toBe(200);
    // Health is never limited.
    expect((await call('GET', '/api/health', { ip })).status).toBe(200);
    // After Retry-After the client may go on.
    await new Promise((r) => setTimeout(r, retry * 1000 + 100));
    expect((await call('POST', '/relay/status', { ip, body: JSON.stringify({ id: 'nope' }) })).status).toBe(404);
  });

  it('limits the vendor API group too', async () => {
    const ip = '192.0.2.8';
    let last = 0;
    for (let i = 0; i < BURST + 10 && last !== 429; i++) last = (await call('GET', '/api/v1/events', { ip, key: keys.read })).status;
    expect(last).toBe(429);
  });

  it('limits the invoice listing and the live payment feed', async () => {
    const ip = '192.0.2.9';
    let last = 0;
    for (let i = 0; i < BURST + 10 && last !== 429; i++) last = (await call('GET', `/invoices/${SELLER}`, { ip, key: keys.other })).status;
    expect(last).toBe(429);
    const ip2 = '192.0.2.10';
    last = 0;
    for (let i = 0; i < BURST + 10 && last !== 429; i++)
      last = (await call('GET', '/api/v1/payments/nope/events', { ip: ip2, key: keys.read })).status;
    expect(last).toBe(429);
  });
});

describe('security headers', () => {
  it('sets CSP with frame-ancestors, referrer policy, nosniff and frame denial on pages, API, relay and errors', async () => {
    const responses = [
      await call('GET', '/'),
      await call('GET', '/api/health'),
      await call('GET', '/api/v1/events'), // 401
      await call('POST', '/relay/status', { body: '{"id":"x"}' }), // 404
      await call('GET', `/dc/${paymentId}`),
      await call('GET', '/no-such-page'),
    ];
    for (const r of responses) {
      const csp = r.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
      expect(r.headers.get('x-frame-options')).toBe('DENY');
      expect(r.headers.get('x-powered-by')).toBeNull();
    }
  });
});

describe('unknown paths', () => {
  it('answer 404 in the asker’s vocabulary: node-API text, vendor/relay JSON, or an HTML page', async () => {
    const plain = await fetch(`${app.url}/getNothing`);
    expect([plain.status, plain.headers.get('content-type'), await plain.text()]).toEqual([404, 'text/plain; charset=utf-8', 'Not Found']);
    const deep = await fetch(`${app.url}/no/such/path`, { method: 'POST', body: 'x' });
    expect([deep.status, await deep.text()]).toEqual([404, 'Not Found']);
    const vendor = await fetch(`${app.url}/api/v1/nothing-here`);
    expect([vendor.status, await vendor.json()]).toEqual([404, { error: 'not_found', message: 'no such endpoint' }]);
    const relay = await fetch(`${app.url}/relay/nothing`, { method: 'POST', body: '{}' });
    expect([relay.status, (await relay.json()).error]).toEqual([404, 'not_found']);
    const page = await fetch(`${app.url}/admin/no-such-page`, { headers: { Accept: 'text/html,application/xhtml+xml' } });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('Page not found');
    // Real routes are untouched by the catch-all.
    expect((await fetch(`${app.url}/getChaintip`)).status).toBe(200);
    expect((await fetch(`${app.url}/login`, { headers: { Accept: 'text/html' } })).status).toBe(200);
  });
});
