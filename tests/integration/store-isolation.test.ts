// Isolation between stores (docs/architecture.md#data), tried as an attacker would, on the real
// built app. Store B is made in the database before the app starts (a store row, its owner and
// membership); everything else of B (a product, a terminal, an API key, a cashier, payments, an
// event) is made through B's own API. Then store A's owner, cashier and API key call every route
// under app/api that takes an id, found from the files (a new route is covered, or fails here
// until it says which id it takes), with B's ids and with ids that do not exist: the answers are
// the same (404, never 403, never B's data), and A's lists, exports and reports hold none of B.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { randomUUID } from 'node:crypto';
import { openDb } from '@/lib/db';
import { hashPassword } from '@/lib/auth';
import { until } from '../helpers/wait';
import { devnetAppEnv, startApp, type AppServer } from '../helpers/app-server';
import { seedDataDir } from '../helpers/pglite-template';
import { testXpub } from '../helpers/keys';
import { firstCookie, type Answer } from '../helpers/client';
import type { ErrorJson, EventJson, Health, ListedPaymentJson, ProductJson, TerminalJson, UserJson } from '../helpers/json-shapes';

const PASSWORD = 'store isolation password';
const ROOT = join(__dirname, '..', '..');
const B_SKU = 'B-ONLY-SKU-7731';
const B_EMAIL = 'owner-b@isolation.test';

interface Who {
  cookie?: string;
  csrf?: string;
  key?: string;
}
/** A new API key: its id, and its secret (shown once). */
interface NewKeyJson {
  id: string;
  secret: string;
}
type Kind = 'payment' | 'product' | 'terminal' | 'user' | 'api_key' | 'event_seq';

/** Which id each dynamic route takes; routes not about a store's objects say why they are left out. */
const ID_OF: [RegExp, Kind | null][] = [
  [/^\/api\/v1\/payments\/\[id\]/, 'payment'],
  [/^\/api\/admin\/invoices\/\[id\]/, 'payment'],
  [/^\/api\/pos\/sales\/\[id\]/, 'payment'],
  [/^\/api\/admin\/products\/\[id\]/, 'product'],
  [/^\/api\/admin\/terminals\/\[id\]/, 'terminal'],
  [/^\/api\/admin\/users\/\[id\]/, 'user'],
  [/^\/api\/admin\/api-keys\/\[id\]/, 'api_key'],
  [/^\/api\/admin\/events\/\[seq\]/, 'event_seq'],
  // The customer's checkout stream: the unguessable payment id is the capability (docs/relay.md).
  [/^\/api\/checkout\/\[id\]/, null],
  // Wallet-check runs belong to the installation, not to a store.
  [/^\/api\/wallet-check\//, null],
  // The operator's stores: 403 to every principal of a store (tests/integration/operator-stores.test.ts).
  [/^\/api\/operator\/stores\/\[id\]/, null],
  // A store's invite: its unguessable token is the capability, whoever holds it may take it
  // (tests/integration/store-invites.test.ts).
  [/^\/api\/invites\/\[token\]/, null],
  // Open tickets are not scoped by store yet (tests/unit/store-scoped-queries.allow.ts).
  [/^\/api\/pos\/tickets\/\[id\]/, null],
];

/** A body each method is sent: shaped as the route wants, so the answer is about the id, not the body. */
function bodyFor(method: string, path: string): unknown {
  if (method === 'GET' || method === 'DELETE') return undefined;
  if (path.endsWith('/mark')) return { as: 'settled', note: 'x' };
  if (path.endsWith('/refunds')) return { reason: 'isolation' };
  if (path.endsWith('/receipt')) return { email: 'customer@isolation.test' };
  if (path.endsWith('/charge-again')) return { order_reference: 'again' };
  if (path.endsWith('/stock')) return { delta: 1, reason: 'received' };
  if (path.endsWith('/pin')) return { pin: '1357' };
  return { name: 'Taken over' };
}

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? routeFiles(p) : e === 'route.ts' ? [p] : [];
  });
}

/** `METHOD /api/...` of every handler of a route under app/api that takes an id. */
function idRoutes(): string[] {
  return routeFiles(join(ROOT, 'app', 'api')).flatMap((f) => {
    const path = '/' + relative(join(ROOT, 'app'), f).replace(/\/route\.ts$/, '');
    if (!path.includes('[')) return [];
    return [...readFileSync(f, 'utf8').matchAll(/export (?:async )?function (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => `${m[1]} ${path}`);
  });
}

describe("another store's objects are 404 to every principal, exactly like ids that do not exist", () => {
  let app: AppServer;
  let dataDir = '';
  const b: Record<Kind, string> = { payment: '', product: '', terminal: '', user: '', api_key: '', event_seq: '' };
  const missing: Record<Kind, string> = {
    payment: 'AAAAAAAAAAAAAAAAAAAAAA',
    product: randomUUID(),
    terminal: randomUUID(),
    user: randomUUID(),
    api_key: randomUUID(),
    event_seq: '999999999',
  };
  const a: Record<'owner' | 'cashier' | 'key', Who> = { owner: {}, cashier: {}, key: {} };
  let bKey = '';

  /** `T` is how the test reads the JSON answer (null for a live feed or an answer that is not JSON). */
  async function req<T = unknown>(w: Who | null, method: string, path: string, body?: unknown): Promise<Answer<T>> {
    const h: Record<string, string> = { 'Content-Type': 'application/json' };
    if (w?.key) h.Authorization = `Bearer ${w.key}`;
    else if (w?.cookie) h.Cookie = w.cookie;
    if (w?.csrf && method !== 'GET') h['X-CSRF-Token'] = w.csrf;
    const r = await fetch(app.url + path, {
      method,
      headers: h,
      redirect: 'manual',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
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
  async function login(email: string): Promise<Who> {
    const r = await req<{ csrf_token: string }>(null, 'POST', '/api/auth/login', { email, password: PASSWORD });
    expect(r.status, r.text).toBe(200);
    return { cookie: firstCookie(r, 'counter_session'), csrf: r.body.csrf_token };
  }
  /** A request that must succeed (2xx); its answer, read as `T`. */
  async function ok<T = unknown>(w: Who, method: string, path: string, body?: unknown): Promise<T> {
    const r = await req<T>(w, method, path, body);
    expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300);
    return r.body;
  }

  /** Store B and its owner, written to the database before the app opens it. */
  async function makeStoreB(): Promise<void> {
    const db = await openDb({ dataDir });
    try {
      await db.query(`INSERT INTO store (id, name, store_xpub) VALUES (2, 'Store B', $1)`, [testXpub(52)]);
      await db.query(`SELECT setval('store_id_seq', 3, false)`);
      const id = randomUUID();
      await db.query(
        `INSERT INTO "user" (id, email, name, password_hash, role, updated_at) VALUES ($1, $2, 'Owner B', $3, 'owner', now())`,
        [id, B_EMAIL, await hashPassword(PASSWORD)],
      );
      await db.query(`INSERT INTO membership (store_id, user_id, role) VALUES (2, $1, 'owner')`, [id]);
    } finally {
      await db.close();
    }
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'counter-isolation-'));
    await seedDataDir(dataDir);
    await makeStoreB();
    app = await startApp(
      devnetAppEnv({
        ADMIN_EMAIL: 'owner-a@isolation.test',
        ADMIN_PASSWORD: PASSWORD,
        STORE_XPUB: testXpub(51),
        RATE_LIMIT_RPS: '0',
      }),
      { keepDataDir: dataDir },
    );
    await until(
      async () => (await fetch(app.url + '/api/health')).json(),
      (h: Health) => h.ready === true,
      60_000,
    );

    // Store B, through its own owner's session and key.
    const ownerB = await login(B_EMAIL);
    b.product = (await ok<{ id: string }>(ownerB, 'POST', '/api/admin/products', { sku: B_SKU, name: 'Tea of B', price: '1' })).id;
    b.terminal = (await ok<{ id: string }>(ownerB, 'POST', '/api/admin/terminals', { name: 'Till of B' })).id;
    b.user = (
      await ok<{ id: string }>(ownerB, 'POST', '/api/admin/users', {
        email: 'cashier-b@isolation.test',
        name: 'Cashier B',
        password: PASSWORD,
        role: 'cashier',
      })
    ).id;
    const keyB = await ok<NewKeyJson>(ownerB, 'POST', '/api/admin/api-keys', {
      name: 'B key',
      scopes: ['payments:read', 'payments:write'],
    });
    b.api_key = keyB.id;
    bKey = keyB.secret;
    b.payment = (
      await ok<{ id: string }>({ key: bKey }, 'POST', '/api/v1/payments', {
        items: [{ type: 'item', id: B_SKU, name: 'Tea of B', count: 1, unit: '3' }],
      })
    ).id;
    const cancelled = (
      await ok<{ id: string }>({ key: bKey }, 'POST', '/api/v1/payments', {
        items: [{ type: 'item', id: B_SKU, name: 'Tea of B', count: 1, unit: '2' }],
      })
    ).id;
    await ok({ key: bKey }, 'POST', `/api/v1/payments/${cancelled}/cancel`, {});
    const events = await ok<{ events: EventJson[] }>({ key: bKey }, 'GET', '/api/v1/events');
    expect(events.events.length, 'B has an event').toBeGreaterThan(0);
    b.event_seq = events.events[0].cursor;

    // Store A's principals: its owner, a cashier, an owner-scoped API key; and one sale of A.
    a.owner = await login('owner-a@isolation.test');
    await ok(a.owner, 'POST', '/api/admin/users', {
      email: 'cashier-a@isolation.test',
      name: 'Cashier A',
      password: PASSWORD,
      role: 'cashier',
    });
    a.cashier = await login('cashier-a@isolation.test');
    const keyA = await ok<NewKeyJson>(a.owner, 'POST', '/api/admin/api-keys', {
      name: 'A key',
      scopes: ['payments:read', 'payments:write', 'payments:refund', 'invoices:read', 'reports:read'],
    });
    a.key = { key: keyA.secret };
    await ok(a.key, 'POST', '/api/v1/payments', { items: [{ type: 'item', id: 'A-SKU', name: 'Coffee of A', count: 1, unit: '4' }] });
  }, 240_000);
  afterAll(async () => {
    await app?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("every route that takes an id answers B's ids exactly as ids that do not exist", async () => {
    const routes = idRoutes();
    expect(routes.length).toBeGreaterThan(15);
    const checked: string[] = [];
    for (const route of routes) {
      const [method, pattern] = route.split(' ');
      const rule = ID_OF.find(([re]) => re.test(pattern));
      expect(rule, `${route}: a new route that takes an id: say in ID_OF which id it takes`).toBeDefined();
      const kind = rule![1];
      if (!kind) continue;
      const path = (id: string) => pattern.replace(/\[[^\]]+\]/, encodeURIComponent(id));
      for (const [who, w] of Object.entries(a)) {
        const theirs = await req<ErrorJson | null>(w, method, path(b[kind]), bodyFor(method, pattern));
        const none = await req<ErrorJson | null>(w, method, path(missing[kind]), bodyFor(method, pattern));
        const seen = `${who} ${route}: B's id ${theirs.status} ${theirs.text.slice(0, 160)} | no such id ${none.status} ${none.text.slice(0, 160)}`;
        expect(theirs.status, seen).toBe(none.status);
        expect(theirs.body?.error, seen).toBe(none.body?.error);
        expect([200, 201, 202, 204], seen).not.toContain(theirs.status);
        for (const id of Object.values(b)) if (id.length > 8) expect(theirs.text, seen).not.toContain(id);
        checked.push(`${who} ${route}`);
      }
    }
    expect(checked.length).toBeGreaterThan(40);
  }, 240_000);

  it("B's objects are untouched by all that", async () => {
    const ownerB = await login(B_EMAIL);
    expect((await ok<{ status: string }>({ key: bKey }, 'GET', `/api/v1/payments/${b.payment}`)).status).toBe('unpaid');
    const products = await ok<{ products: ProductJson[] }>(ownerB, 'GET', '/api/admin/products?archived=1');
    expect(products.products.find((p: ProductJson) => p.id === b.product)).toMatchObject({ name: 'Tea of B', stock: null });
    const terminals = await ok<{ terminals: TerminalJson[] }>(ownerB, 'GET', '/api/admin/terminals');
    expect(terminals.terminals.find((t: TerminalJson) => t.id === b.terminal)).toMatchObject({ name: 'Till of B', revoked: false });
    const keys = await ok<{ api_keys: { id: string }[] }>(ownerB, 'GET', '/api/admin/api-keys');
    expect(keys.api_keys.find((k: { id: string }) => k.id === b.api_key)).toMatchObject({ revoked_at: null });
    const users = await ok<{ users: UserJson[] }>(ownerB, 'GET', '/api/admin/users');
    expect(users.users.find((u: UserJson) => u.id === b.user)).toMatchObject({ name: 'Cashier B', disabled: false });
  });

  it("A's lists, exports, reports and logs hold none of B", async () => {
    const reads: [Who, string][] = [
      [a.key, '/api/v1/payments?limit=100'],
      [a.key, '/api/v1/events'],
      [a.key, '/api/v1/reports/sales?format=json'],
      [a.key, '/api/v1/reports/sales?format=csv'],
      [a.cashier, '/api/v1/payments'],
      [a.cashier, '/api/v1/events'],
      [a.owner, '/api/admin/invoices'],
      [a.owner, '/api/admin/invoices/export?format=csv'],
      [a.owner, '/api/admin/invoices/export?format=json'],
      [a.owner, '/api/admin/products?archived=1'],
      [a.owner, '/api/admin/products/export'],
      [a.owner, '/api/admin/terminals'],
      [a.owner, '/api/admin/users'],
      [a.owner, '/api/admin/api-keys'],
      [a.owner, '/api/admin/audit'],
      [a.owner, '/api/admin/sales'],
      [a.owner, '/api/admin/relay-key'],
    ];
    const bRelay = await ok<{ pubkey: string }>(await login(B_EMAIL), 'GET', '/api/admin/relay-key');
    for (const [w, path] of reads) {
      const r = await req(w, 'GET', path);
      expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(200);
      for (const needle of [
        ...Object.values(b).filter((id) => id.length > 8),
        B_SKU,
        B_EMAIL,
        'cashier-b@isolation.test',
        'Till of B',
        bRelay.pubkey,
      ]) {
        expect(r.text, `${path} shows ${needle}`).not.toContain(needle);
      }
    }
    // And A sees its own: the lists are not simply empty.
    expect((await ok<{ payments: ListedPaymentJson[] }>(a.key, 'GET', '/api/v1/payments')).payments.length).toBe(1);
  });
});
