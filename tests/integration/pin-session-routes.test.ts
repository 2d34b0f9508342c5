// A PIN session holds the till's grants only (docs/security.md#pin-sessions-hold-the-tills-grants-only),
// on the real built app: every route file under app/api/v1 and app/api/admin, every method it
// exports, is asked by a manager's and an owner's PIN session. Only the till's routes answer
// anything but 403; marking a sale and refunding it, and the whole back office, are refused.
// Marking stays open to a manager's password session and to an API key with payments:write.
import { beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { until } from '../helpers/wait';
import { sharedShop, type SharedShop } from '../helpers/shared-app';
import { testXpub } from '../helpers/keys';
import { firstCookie, type Answer } from '../helpers/client';
import type { ErrorJson, Health } from '../helpers/json-shapes';

const PASSWORD = 'pin session routes password';
const XPUB = testXpub(31);
const ROOT = join(__dirname, '..', '..');

/** What the till does with a PIN: charge (crypto or cash), follow, cancel, email the receipt, see its sales and its shift. */
const TILL_ROUTES = new Set([
  'GET /api/v1/payments',
  'POST /api/v1/payments',
  'GET /api/v1/payments/[id]',
  'GET /api/v1/payments/[id]/events',
  'POST /api/v1/payments/[id]/cancel',
  'POST /api/v1/payments/[id]/receipt',
  'GET /api/v1/payments/[id]/refunds',
  'GET /api/v1/events',
  'GET /api/v1/rates',
  'GET /api/v1/reports/sales',
]);

interface Who {
  cookie: string;
  csrf: string;
}
/** Every route.ts under `dir`. */
function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? routeFiles(p) : e === 'route.ts' ? [p] : [];
  });
}

/** `METHOD /api/...` for every handler the route files export. */
function everyRoute(): string[] {
  const files = [...routeFiles(join(ROOT, 'app', 'api', 'v1')), ...routeFiles(join(ROOT, 'app', 'api', 'admin'))];
  return files.flatMap((f) => {
    const path = '/' + relative(join(ROOT, 'app'), f).replace(/\/route\.ts$/, '');
    return [...readFileSync(f, 'utf8').matchAll(/export (?:async )?function (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => `${m[1]} ${path}`);
  });
}

describe("a PIN session holds the till's grants only", () => {
  let app: SharedShop;
  let owner: Who & { id: string };
  let manager: Who & { id: string };
  let terminal = '';

  /** `T` is how the test reads the JSON answer (null for a live feed or an answer that is not JSON). */
  async function req<T = unknown>(
    w: Partial<Who> | null,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const h: Record<string, string> = { 'Content-Type': 'application/json', ...headers };
    const cookies = [w?.cookie, terminal].filter(Boolean).join('; ');
    if (cookies && !h.Authorization) h.Cookie = cookies;
    if (w?.csrf && method !== 'GET') h['X-CSRF-Token'] = w.csrf;
    const r = await fetch(app.url + path, {
      method,
      headers: h,
      redirect: 'manual',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // A live feed (text/event-stream) never ends: its status is the answer.
    if ((r.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      await r.body?.cancel();
      return { status: r.status, body: null as T, text: '(event stream)', headers: r.headers };
    }
    const text = await r.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: r.status, body: parsed as T, text, headers: r.headers };
  }
  async function login(email: string): Promise<Who & { id: string }> {
    const r = await req<{ csrf_token: string; user: { id: string } }>(null, 'POST', '/api/auth/login', { email, password: PASSWORD });
    expect(r.status, r.text).toBe(200);
    return { cookie: firstCookie(r, 'counter_session'), csrf: r.body.csrf_token, id: r.body.user.id };
  }
  async function pinSession(userId: string, pin: string): Promise<Who> {
    const r = await req<{ csrf_token: string }>(null, 'POST', '/api/auth/pin', { user_id: userId, pin });
    expect(r.status, r.text).toBe(200);
    return { cookie: firstCookie(r, 'counter_session'), csrf: r.body.csrf_token };
  }
  async function sale(w: Who): Promise<string> {
    const r = await req<{ id: string }>(w, 'POST', '/api/v1/payments', {
      items: [{ type: 'item', id: 'A', name: 'Tea', count: 1, unit: '500' }],
    });
    expect(r.status, r.text).toBe(201);
    return r.body.id;
  }

  beforeAll(async () => {
    app = await sharedShop('pin-routes.test', { xpub: XPUB, password: PASSWORD });
    const health = await until(
      async () => (await fetch(app.url + '/api/health')).json(),
      (h: Health) => h.ready === true,
      60_000,
    );
    expect(health.ready, JSON.stringify(health.problems)).toBe(true);
    owner = await login('owner@pin-routes.test');
    const m = await req(owner, 'POST', '/api/admin/users', {
      email: 'manager@pin-routes.test',
      name: 'Manager',
      password: PASSWORD,
      role: 'manager',
    });
    expect(m.status, m.text).toBe(201);
    manager = await login('manager@pin-routes.test');
    expect((await req(owner, 'PUT', `/api/admin/users/${owner.id}/pin`, { pin: '2468' })).status).toBe(204);
    expect((await req(owner, 'PUT', `/api/admin/users/${manager.id}/pin`, { pin: '2580' })).status).toBe(204);
    const t = await req(manager, 'POST', '/api/admin/terminals', { name: 'Front counter' });
    expect(t.status, t.text).toBe(201);
    terminal = firstCookie(t, 'counter_terminal');
  }, 180_000);

  for (const [role, pin] of [
    ['manager', '2580'],
    ['owner', '2468'],
  ] as const) {
    it(`${role === 'owner' ? 'an owner' : 'a manager'}'s PIN session: the till's routes answer, every other /api/v1 and /api/admin route is 403`, async () => {
      const s = await pinSession(role === 'owner' ? owner.id : manager.id, pin);
      const routes = everyRoute();
      expect(routes.length).toBeGreaterThan(35);
      for (const r of TILL_ROUTES) expect(routes, `${r} is gone: update TILL_ROUTES`).toContain(r);
      for (const route of routes) {
        const [method, pattern] = route.split(' ');
        // Each route meets a fresh unpaid sale of this till, so what it may do, it does for real.
        const path = (pattern.includes('[id]') ? pattern.replace('[id]', await sale(s)) : pattern).replace(/\[[^\]]+\]/g, '1');
        const r = await req<ErrorJson | null>(s, method, path, method === 'GET' ? undefined : {});
        const seen = `${route}: ${r.status} ${r.text.slice(0, 200)}`;
        if (TILL_ROUTES.has(route)) {
          // Its own answer (201, 200, 400 for the empty body, 503 with no rate source…): never refused, never a crash.
          expect([401, 403, 500], seen).not.toContain(r.status);
        } else {
          expect(r.status, seen).toBe(403);
          expect(r.body?.error, seen).toBe('forbidden');
        }
      }
    }, 120_000);
  }

  it('a PIN session cannot mark an unpaid sale settled or invalid; it stays unpaid', async () => {
    const s = await pinSession(manager.id, '2580');
    const id = await sale(s);
    for (const as of ['settled', 'invalid']) {
      const r = await req<ErrorJson>(s, 'POST', `/api/v1/payments/${id}/mark`, { as, note: 'by PIN' });
      expect(r.status, r.text).toBe(403);
      expect(r.body.message).toMatch(/PIN opens the till only/);
    }
    const after = await req(s, 'GET', `/api/v1/payments/${id}`);
    expect(after.body).toMatchObject({ status: 'unpaid', exception: null, decision: null });
  });

  it('the same manager by password marks; so does an API key with payments:write alone, and one without it may not', async () => {
    const pinned = await pinSession(manager.id, '2580');
    const byPassword = await req(manager, 'POST', `/api/v1/payments/${await sale(pinned)}/mark`, { as: 'settled', note: 'counted' });
    expect(byPassword.status, byPassword.text).toBe(200);
    expect(byPassword.body).toMatchObject({ status: 'confirmed', exception: 'marked_settled' });

    const key = async (scopes: string[]) => {
      const k = await req<{ secret: string }>(owner, 'POST', '/api/admin/api-keys', { name: scopes.join(' '), scopes });
      expect(k.status, k.text).toBe(201);
      return { Authorization: `Bearer ${k.body.secret}` };
    };
    const writer = await key(['payments:write']);
    const marked = await req(null, 'POST', `/api/v1/payments/${await sale(pinned)}/mark`, { as: 'invalid' }, writer);
    expect(marked.status, marked.text).toBe(200);
    expect(marked.body).toMatchObject({ status: 'declined', exception: 'marked_invalid' });
    const reader = await key(['payments:read']);
    const refused = await req<ErrorJson>(null, 'POST', `/api/v1/payments/${await sale(pinned)}/mark`, { as: 'invalid' }, reader);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.message).toMatch(/payments:write/);
    // payments:mark is a session grant, not a scope a key can be created with.
    expect((await req(owner, 'POST', '/api/admin/api-keys', { name: 'mark', scopes: ['payments:mark'] })).status).toBe(400);
  });
});
