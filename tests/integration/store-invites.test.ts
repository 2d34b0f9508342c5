// Store invites, the operator's page and the back office's store select on the real built app
// (docs/architecture.md#data). The operator's new store emails its invite to the owner through a
// real SMTP server (in-process); the invite page offers a visitor Create account and a signed-in
// user Accept; taking it makes the taker the store's owner, once: a used or unknown token is a
// 404 page and a 404 answer. The password rules are those of every account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../helpers/wait';
import { startApp, type AppServer } from '../helpers/app-server';
import { signIn, type Session } from '../helpers/sessions';
import { startSmtp, type Mail } from '../helpers/smtp';

const PASSWORD = 'invite test password';
const OPERATOR = 'operator@invites.test';
const inbox: Mail[] = [];

interface MemberStore {
  id: number;
  name: string;
  role: string;
}
/** The JSON answers this test reads. */
interface Answer {
  error?: string;
  invite_url?: string;
  csrf_token?: string;
  user?: { email: string; name: string; role: string };
  store?: MemberStore;
  stores?: MemberStore[];
}

describe('store invites on the app', () => {
  let app: AppServer;
  let smtp: { port: number; close: () => Promise<void> };
  let operator: Session;

  async function call(who: Partial<Session> | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const h: Record<string, string> = { 'Content-Type': 'application/json', ...headers };
    if (who?.cookie) h.Cookie = who.cookie;
    if (who?.csrf && method !== 'GET') h['X-CSRF-Token'] = who.csrf;
    const r = await fetch(app.url + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
    const text = await r.text();
    let json: Answer = {};
    try {
      json = JSON.parse(text);
    } catch {
      /* a page */
    }
    return { status: r.status, body: json, text, headers: r.headers };
  }
  async function newStore(name: string, owner_email: string): Promise<string> {
    const r = await call(operator, 'POST', '/api/operator/stores', { name, owner_email });
    expect(r.status, r.text).toBe(201);
    return r.body.invite_url!.split('/invite/')[1];
  }
  const sessionOf = (headers: Headers, csrf: string): Session => ({
    cookie: headers
      .getSetCookie()
      .find((c) => c.startsWith('counter_session='))!
      .split(';')[0],
    csrf,
  });

  beforeAll(async () => {
    smtp = await startSmtp(inbox);
    app = await startApp({
      ADMIN_EMAIL: OPERATOR,
      ADMIN_PASSWORD: PASSWORD,
      RATE_LIMIT_RPS: '0',
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SMTP_FROM: 'Counter <relay@invites.test>',
    });
    await until(
      async () => (await fetch(app.url + '/api/health')).json(),
      (h: { ready?: unknown }) => typeof h.ready === 'boolean',
      60_000,
    );
    operator = await signIn(app.url, OPERATOR, PASSWORD);
  }, 240_000);
  afterAll(async () => {
    await app?.stop();
    await smtp?.close();
  });

  it('emails the invite to the owner; a visitor creates the account with the invite’s email and owns the store, once', async () => {
    const token = await newStore('Harbour Café', 'New.Owner@Invites.test');
    await until(
      () => inbox.length,
      (n) => n >= 1,
    );
    expect(inbox[0].to).toEqual(['new.owner@invites.test']);
    expect(inbox[0].raw.replace(/=\r?\n/g, '')).toContain(`${app.url}/invite/${token}`);

    const page = await call(null, 'GET', `/invite/${token}`);
    expect(page.status).toBe(200);
    for (const s of ['Harbour Café', 'new.owner@invites.test', 'Create account', 'Name', 'Password']) expect(page.text).toContain(s);

    // The password rules of every account; a refused password leaves the invite open.
    for (const password of ['short', '1qaz2wsx3edc']) {
      const weak = await call(null, 'POST', `/api/invites/${token}/account`, { name: 'Nia', password });
      expect([weak.status, weak.body.error], weak.text).toEqual([400, 'invalid_request']);
    }
    expect((await call(null, 'POST', `/api/invites/${token}/account`, { name: 'Nia', password: PASSWORD, email: 'x@y.z' })).status).toBe(
      400,
    );
    const foreign = await call(
      null,
      'POST',
      `/api/invites/${token}/account`,
      { name: 'Nia', password: PASSWORD },
      { Origin: 'https://evil.test' },
    );
    expect(foreign.status).toBe(403);

    const made = await call(null, 'POST', `/api/invites/${token}/account`, { name: 'Nia', password: PASSWORD });
    expect(made.status, made.text).toBe(201);
    expect(made.body.user).toMatchObject({ email: 'new.owner@invites.test', name: 'Nia', role: 'owner' });
    const nia = sessionOf(made.headers, made.body.csrf_token!);
    const me = (await call(nia, 'GET', '/api/auth/me')).body;
    expect(me.store).toMatchObject({ name: 'Harbour Café', role: 'owner' });
    expect(me.stores).toHaveLength(1);
    // The new owner sets the wallet of its own store.
    expect((await call(nia, 'GET', '/api/admin/settings')).status).toBe(200);

    // Used: the page says so with 404, and neither action takes it again.
    const used = await call(null, 'GET', `/invite/${token}`);
    expect(used.status).toBe(404);
    expect(used.text).toContain('This invite cannot be used');
    expect((await call(null, 'POST', `/api/invites/${token}/account`, { name: 'Again', password: PASSWORD })).status).toBe(404);
    expect((await call(operator, 'POST', `/api/invites/${token}/accept`)).status).toBe(404);
    expect((await signIn(app.url, 'new.owner@invites.test', PASSWORD)).csrf).toBeTruthy();
  });

  it('a signed-in user gets Accept: it becomes the owner, keeps its other stores and now acts for this one', async () => {
    const token = await newStore('Second Site', 'whoever@invites.test');
    const page = await call(operator, 'GET', `/invite/${token}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Accept');
    expect(page.text).not.toContain('Create account');
    expect((await call(null, 'POST', `/api/invites/${token}/accept`)).status).toBe(401);
    expect((await call({ cookie: operator.cookie }, 'POST', `/api/invites/${token}/accept`)).status).toBe(403); // no CSRF token

    const [a, b] = await Promise.all([
      call(operator, 'POST', `/api/invites/${token}/accept`),
      call(operator, 'POST', `/api/invites/${token}/accept`),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 404]);
    const me = (await call(operator, 'GET', '/api/auth/me')).body;
    expect(me.store).toMatchObject({ name: 'Second Site', role: 'owner' });
    expect(me.stores!.map((s) => s.role)).toEqual(['owner', 'owner']);

    // Two stores: the back office shows the Store select, and switching back reads store 1.
    const admin = await call(operator, 'GET', '/admin');
    expect(admin.status).toBe(200);
    expect(admin.text).toContain('data-testid="store-select"');
    const first = me.stores!.find((s) => s.name !== 'Second Site')!;
    expect((await call(operator, 'POST', '/api/auth/store', { store_id: first.id })).status).toBe(204);
    expect((await call(operator, 'GET', '/api/auth/me')).body.store?.id).toBe(first.id);
  });

  it('an unknown or malformed token is a 404 page and a 404 answer', async () => {
    for (const t of ['A'.repeat(43), 'bad token', 'x']) {
      const page = await call(null, 'GET', `/invite/${encodeURIComponent(t)}`);
      expect(page.status, t).toBe(404);
      expect((await call(null, 'POST', `/api/invites/${encodeURIComponent(t)}/account`, { name: 'N', password: PASSWORD })).status).toBe(
        404,
      );
    }
  });

  it('/operator is the operator’s alone: New store and the stores for it, a redirect for anyone else', async () => {
    const page = await call(operator, 'GET', '/operator');
    expect(page.status).toBe(200);
    for (const s of ['New store', 'Store name', 'Owner’s email', 'Create', 'Harbour Café', 'Suspend']) expect(page.text).toContain(s);
    const anonymous = await call(null, 'GET', '/operator');
    expect(anonymous.status).toBe(307);
    expect(anonymous.headers.get('location')).toContain('/login');
    const nia = await signIn(app.url, 'new.owner@invites.test', PASSWORD);
    const owner = await call(nia, 'GET', '/operator');
    expect(owner.status).toBe(307);
    expect(owner.headers.get('location')).toContain('/admin?denied=1');
    // A member of one store sees its name, and no Store select.
    const admin = await call(nia, 'GET', '/admin');
    expect(admin.text).toContain('data-testid="current-store"');
    expect(admin.text).not.toContain('data-testid="store-select"');
    // The way to /operator is in the operator's back office only.
    expect(admin.text).not.toContain('href="/operator"');
    expect((await call(operator, 'GET', '/admin')).text).toContain('href="/operator"');
  });
});
