// The operator's routes and a member's stores (docs/architecture.md#data), on the real built app:
// /api/operator/stores is 401 without credentials and 403 to every API key and to every session
// but the operator's; the operator creates a store with a single-use invite stored hashed, lists
// the stores with their payment counts, and suspends one, which then refuses new payments, cash
// sales and charge-again (403 store_suspended) until resumed. A user of another store added by
// email becomes a member of two stores, sees both in /api/auth/me and switches between them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import { openDb } from '@/lib/db';
import { hashPassword } from '@/lib/auth';
import { until } from '../helpers/wait';
import { devnetAppEnv, startApp, type AppServer } from '../helpers/app-server';
import { seedDataDir } from '../helpers/pglite-template';
import { testXpub } from '../helpers/keys';
import type { Answer } from '../helpers/client';
import type { ErrorJson, Health, ListedPaymentJson } from '../helpers/json-shapes';

const PASSWORD = 'operator stores password';
const OPERATOR = 'operator@stores.test';
const OTHER = 'owner-two@stores.test';

interface Who {
  cookie?: string;
  csrf?: string;
  key?: string;
}

/** GET /api/operator/stores: every store with its payment count. */
interface StoresJson {
  stores: { id: number; name: string; suspended: boolean; payments: number }[];
}
/** A store of the signed-in user, with its role there. */
interface MembershipJson {
  id: number;
  name: string;
  role: string;
}
/** GET /api/auth/me: the store the session acts for, and every store the user belongs to. */
interface MeJson {
  store: MembershipJson;
  stores: MembershipJson[];
  csrf_token: string;
}

describe('the operator and the stores', () => {
  let app: AppServer;
  let dataDir = '';
  const who: Record<'operator' | 'owner' | 'manager' | 'cashier' | 'other', Who> = {
    operator: {},
    owner: {},
    manager: {},
    cashier: {},
    other: {},
  };
  let ownerKey: Who = {};
  let inviteToken = '';
  let stopped = false;

  /** `T` is how the test reads the JSON answer (null when it is not JSON). */
  async function req<T = unknown>(w: Who | null, method: string, path: string, body?: unknown): Promise<Answer<T>> {
    const h: Record<string, string> = { 'Content-Type': 'application/json' };
    if (w?.key) h.Authorization = `Bearer ${w.key}`;
    else if (w?.cookie) h.Cookie = w.cookie;
    if (w?.csrf && method !== 'GET') h['X-CSRF-Token'] = w.csrf;
    const r = await fetch(app.url + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: r.status, body: json as T, text, headers: r.headers };
  }
  async function login(email: string): Promise<Who> {
    const r = await req<{ csrf_token: string }>(null, 'POST', '/api/auth/login', { email, password: PASSWORD });
    expect(r.status, r.text).toBe(200);
    const cookie = (r.headers.getSetCookie?.() ?? []).find((c) => c.startsWith('counter_session='))!.split(';')[0];
    return { cookie, csrf: r.body.csrf_token };
  }
  /** A request that must succeed (2xx); its answer, read as `T`. */
  async function ok<T = unknown>(w: Who, method: string, path: string, body?: unknown): Promise<T> {
    const r = await req<T>(w, method, path, body);
    expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300);
    return r.body;
  }

  /** Store 2 and its owner, written before the app opens the database. */
  async function makeStoreTwo(): Promise<void> {
    const db = await openDb({ dataDir });
    try {
      await db.query(`INSERT INTO store (id, name, store_xpub) VALUES (2, 'Store two', $1)`, [testXpub(82)]);
      await db.query(`SELECT setval('store_id_seq', 3, false)`);
      const id = randomUUID();
      await db.query(
        `INSERT INTO "user" (id, email, name, password_hash, role, updated_at) VALUES ($1, $2, 'Owner two', $3, 'owner', now())`,
        [id, OTHER, await hashPassword(PASSWORD)],
      );
      await db.query(`INSERT INTO membership (store_id, user_id, role) VALUES (2, $1, 'owner')`, [id]);
    } finally {
      await db.close();
    }
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'counter-operator-'));
    await seedDataDir(dataDir);
    await makeStoreTwo();
    app = await startApp(
      devnetAppEnv({
        ADMIN_EMAIL: OPERATOR,
        ADMIN_PASSWORD: PASSWORD,
        STORE_XPUB: testXpub(81),
        RATE_LIMIT_RPS: '0',
      }),
      { keepDataDir: dataDir },
    );
    await until(
      async () => (await fetch(app.url + '/api/health')).json(),
      (h: Health) => h.ready === true,
      60_000,
    );
    who.operator = await login(OPERATOR);
    for (const role of ['owner', 'manager', 'cashier'] as const) {
      await ok(who.operator, 'POST', '/api/admin/users', { email: `${role}@stores.test`, name: role, password: PASSWORD, role });
      who[role] = await login(`${role}@stores.test`);
    }
    who.other = await login(OTHER);
    ownerKey = {
      key: (
        await ok<{ secret: string }>(who.operator, 'POST', '/api/admin/api-keys', {
          name: 'all',
          scopes: ['payments:read', 'payments:write'],
        })
      ).secret,
    };
  }, 240_000);
  afterAll(async () => {
    if (!stopped) await app?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('401 without credentials, 403 to every API key and every session but the operator’s', async () => {
    const calls: [string, string, unknown][] = [
      ['GET', '/api/operator/stores', undefined],
      ['POST', '/api/operator/stores', { name: 'Sneaky', owner_email: 'x@stores.test' }],
      ['PATCH', '/api/operator/stores/1', { suspended: true }],
    ];
    for (const [method, path, body] of calls) {
      expect((await req(null, method, path, body)).status, `${method} ${path} anonymous`).toBe(401);
      expect((await req({ key: 'not-a-key' }, method, path, body)).status, `${method} ${path} bad key`).toBe(401);
      expect((await req(ownerKey, method, path, body)).status, `${method} ${path} API key`).toBe(403);
      for (const role of ['owner', 'manager', 'cashier', 'other'] as const) {
        const r = await req<ErrorJson>(who[role], method, path, body);
        expect(r.status, `${method} ${path} as ${role}: ${r.text}`).toBe(403);
        expect(r.body.error).toBe('forbidden');
      }
    }
    const stores = await ok<StoresJson>(who.operator, 'GET', '/api/operator/stores');
    expect(stores.stores.map((s) => s.name)).not.toContain('Sneaky');
  });

  it('creates a store with a single-use invite stored hashed, and lists every store with its payment count only', async () => {
    await ok(ownerKey, 'POST', '/api/v1/payments', { items: [{ type: 'item', id: 'A', name: 'Tea', count: 1, unit: '2' }] });
    const bad = await req(who.operator, 'POST', '/api/operator/stores', { name: '', owner_email: 'nope' });
    expect(bad.status).toBe(400);
    const made = await req<{ invite_url: string }>(who.operator, 'POST', '/api/operator/stores', {
      name: 'Third shop',
      owner_email: 'Third@Stores.test',
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toEqual({ id: 3, name: 'Third shop', invite_url: expect.stringMatching(/\/invite\/[A-Za-z0-9_-]{40,}$/) });
    const token = made.body.invite_url.split('/invite/')[1];
    const list = await ok<StoresJson>(who.operator, 'GET', '/api/operator/stores');
    expect(list.stores.map((s) => [s.id, s.name, s.suspended, s.payments])).toEqual([
      [1, expect.any(String), false, 1],
      [2, 'Store two', false, 0],
      [3, 'Third shop', false, 0],
    ]);
    for (const s of list.stores) expect(Object.keys(s).sort()).toEqual(['created_at', 'id', 'name', 'payments', 'suspended']);
    inviteToken = token;
  });

  it('a suspended store refuses new payments, cash sales and charge-again with 403 store_suspended; reads still work; resumed, it sells again', async () => {
    const sale = await ok<{ id: string }>(who.owner, 'POST', '/api/v1/payments', {
      items: [{ type: 'item', id: 'B', name: 'Cake', count: 1, unit: '3' }],
    });
    expect((await req(who.operator, 'PATCH', '/api/operator/stores/999', { suspended: true })).status).toBe(404);
    expect((await req(who.operator, 'PATCH', '/api/operator/stores/1', { suspended: 'yes' })).status).toBe(400);
    const s = await ok(who.operator, 'PATCH', '/api/operator/stores/1', { suspended: true });
    expect(s).toMatchObject({ id: 1, suspended: true, payments: 2 });
    const item = { items: [{ type: 'item', id: 'C', name: 'Bun', count: 1, unit: '1' }] };
    for (const [w, path, body] of [
      [ownerKey, '/api/v1/payments', item],
      [who.cashier, '/api/v1/payments', item],
      [who.cashier, '/api/v1/payments', { ...item, tender: 'cash', cash_received: '20' }],
      [who.owner, `/api/pos/sales/${sale.id}/charge-again`, { order_reference: 'again' }],
    ] as [Who, string, unknown][]) {
      const r = await req<ErrorJson | null>(w, 'POST', path, body);
      expect([r.status, r.body?.error], `${path}: ${r.text}`).toEqual([403, 'store_suspended']);
    }
    expect((await ok<{ status: string }>(ownerKey, 'GET', `/api/v1/payments/${sale.id}`)).status).toBe('unpaid');
    // Cancel still works (the API's status of a cancelled payment is `declined`).
    expect((await ok<{ status: string }>(ownerKey, 'POST', `/api/v1/payments/${sale.id}/cancel`, {})).status).toBe('declined');
    // Another store is not touched by this one's suspension.
    const two = await ok<{ id: string }>(who.other, 'POST', '/api/v1/payments', item);
    expect(two.id).toBeTruthy();
    expect(await ok(who.operator, 'PATCH', '/api/operator/stores/1', { suspended: false })).toMatchObject({ suspended: false });
    expect((await req(ownerKey, 'POST', '/api/v1/payments', item)).status).toBe(201);
  });

  it('an existing account added by email joins the store as it is, sees both stores, and switches between them', async () => {
    const added = await req(who.operator, 'POST', '/api/admin/users', {
      email: OTHER,
      name: 'Renamed',
      password: 'ignored password 123',
      role: 'manager',
    });
    expect(added.status, added.text).toBe(201);
    expect(added.body).toMatchObject({ email: OTHER, name: 'Owner two', role: 'manager' });
    expect((await req(who.operator, 'POST', '/api/admin/users', { email: OTHER, role: 'cashier' })).status).toBe(409);
    // The old password still signs in; the session acts for the oldest membership (store 2).
    const other = await login(OTHER);
    const me = await ok<MeJson>(other, 'GET', '/api/auth/me');
    expect(me.stores).toEqual([
      { id: 2, name: 'Store two', role: 'owner' },
      { id: 1, name: expect.any(String), role: 'manager' },
    ]);
    expect(me.store).toEqual({ id: 2, name: 'Store two', role: 'owner' });
    const inTwo = (await ok<{ payments: ListedPaymentJson[] }>(other, 'GET', '/api/v1/payments')).payments.map((p) => p.id);

    expect((await req({ cookie: other.cookie }, 'POST', '/api/auth/store', { store_id: 1 })).status).toBe(403); // no CSRF token
    expect((await req(other, 'POST', '/api/auth/store', { store_id: 3 })).status).toBe(404); // not a member
    expect((await req(other, 'POST', '/api/auth/store', { store_id: 999 })).status).toBe(404); // no such store
    expect((await req(other, 'POST', '/api/auth/store', { store_id: '1' })).status).toBe(400);
    expect((await req(null, 'POST', '/api/auth/store', { store_id: 1 })).status).toBe(401);
    expect((await req(other, 'POST', '/api/auth/store', { store_id: 1 })).status).toBe(204);
    const after = await ok<MeJson>(other, 'GET', '/api/auth/me');
    expect(after.store).toMatchObject({ id: 1, role: 'manager' });
    expect(after.csrf_token).toBe(other.csrf); // the same session, the same CSRF token
    const inOne = (await ok<{ payments: ListedPaymentJson[] }>(other, 'GET', '/api/v1/payments')).payments.map((p) => p.id);
    expect(inOne.some((id) => inTwo.includes(id))).toBe(false);
    // A manager of store 1 now: its owner's pages are not its own, its store's products are.
    expect((await req(other, 'GET', '/api/admin/api-keys')).status).toBe(403);
    // The next sign-in opens the store used last.
    expect((await ok<MeJson>(await login(OTHER), 'GET', '/api/auth/me')).store.id).toBe(1);
  });

  it('/api/health is about the signed-in member’s store: a store with no wallet yet is not ready while the first store is', async () => {
    const taken = await req<{ csrf_token: string }>(null, 'POST', `/api/invites/${inviteToken}/account`, {
      name: 'Third owner',
      password: PASSWORD,
    });
    expect(taken.status, taken.text).toBe(201);
    const third: Who = {
      cookie: taken.headers
        .getSetCookie()
        .find((c) => c.startsWith('counter_session='))!
        .split(';')[0],
      csrf: taken.body.csrf_token,
    };
    const health = async (w: Who | null) => (await req<Health>(w, 'GET', '/api/health')).body;
    expect(await health(null)).toMatchObject({ ok: true, ready: true }); // no session: the first store
    expect(await health(who.cashier)).toMatchObject({ ok: true, ready: true });
    expect(await health({ cookie: 'counter_session=not-a-session' })).toMatchObject({ ok: true, ready: true });
    const thirds = await health(third);
    expect(thirds).toMatchObject({ ok: true, ready: false });
    expect(thirds.problems.map((p) => p.code)).toEqual(['no_wallet']);
    // Its till refuses to charge for the same reason, and says so.
    const refused = await req<ErrorJson & { problems: { code: string }[] }>(third, 'POST', '/api/v1/payments', {
      items: [{ type: 'item', id: 'T', name: 'Toast', count: 1, unit: '2' }],
    });
    expect([refused.status, refused.body.error, refused.body.problems.map((p) => p.code)]).toEqual([503, 'not_ready', ['no_wallet']]);
    await ok(third, 'PATCH', '/api/admin/settings', { store_xpub: testXpub(83) });
    expect(await health(third)).toMatchObject({ ok: true, ready: true, problems: [] });
  });

  it('keeps the invite only as its SHA-256, for 7 days, naming the owner-to-be', async () => {
    expect(inviteToken).not.toBe('');
    await app.stop();
    stopped = true;
    const db = await openDb({ dataDir });
    try {
      const rows = await db.query<{ token_hash: string; email: string; store_id: number; days: number }>(
        `SELECT token_hash, email, store_id, extract(epoch FROM expires_at - created_at) / 86400 AS days FROM store_invite`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        token_hash: createHash('sha256').update(inviteToken).digest('hex'),
        email: 'third@stores.test',
        store_id: 3,
      });
      expect(Math.round(Number(rows[0].days))).toBe(7);
      expect(JSON.stringify(rows)).not.toContain(inviteToken);
    } finally {
      await db.close();
    }
  }, 60_000);
});
