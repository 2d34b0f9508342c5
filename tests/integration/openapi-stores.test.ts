// docs/openapi.yaml's `stores` operations (the operator's stores, a store's invite, open sign-up)
// against the real built app with SIGNUP=open: every answer is checked against the document, and
// every (method, path, status) the document names for these operations must have been exercised.
// The rest of the document is the other openapi-*.test.ts files' (tests/helpers/openapi-calls.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../helpers/app-server';
import { OpenApiChecker, loadOpenApi, documentedResponses } from '../helpers/openapi';
import { signIn, type Session } from '../helpers/sessions';

const doc = loadOpenApi();
const checker = new OpenApiChecker(doc);
const PASSWORD = 'openapi stores password';
const OPERATOR = 'operator@openapi-stores.test';

/** A store the operator made, and the owner's invite to it. */
interface NewStoreJson {
  id: number;
  invite_url: string;
}

describe('openapi: the stores operations', () => {
  let app: AppServer;
  let operator: Session;
  let owner: Session;
  let key = '';

  /** One request, checked against the document; `who` a session, an API key, or nobody. `T` is how the test reads the answer. */
  async function call<T = unknown>(
    method: string,
    template: string,
    params: Record<string, string>,
    who: Session | string | null,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const path = template.replace(/\{(\w+)\}/g, (_, k) => encodeURIComponent(params[k]));
    const h: Record<string, string> = { 'Content-Type': 'application/json', ...headers };
    if (typeof who === 'string') h.Authorization = `Bearer ${who}`;
    else if (who) Object.assign(h, { Cookie: who.cookie, 'X-CSRF-Token': who.csrf });
    const r = await fetch(app.url + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return {
      status: r.status,
      headers: r.headers,
      body: checker.check<T>(method, template, { status: r.status, headers: r.headers, text }),
    };
  }

  beforeAll(async () => {
    app = await startApp({ ADMIN_EMAIL: OPERATOR, ADMIN_PASSWORD: PASSWORD, RATE_LIMIT_RPS: '0', SIGNUP: 'open' });
    operator = await signIn(app.url, OPERATOR, PASSWORD);
    const k = await fetch(`${app.url}/api/admin/api-keys`, {
      method: 'POST',
      headers: { Cookie: operator.cookie, 'X-CSRF-Token': operator.csrf, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'reader', scopes: ['payments:read'] }),
    });
    expect(k.status).toBe(201);
    key = ((await k.json()) as { secret: string }).secret;
  }, 240_000);
  afterAll(async () => {
    await app?.stop();
  });

  it('the operator lists, creates, suspends and resumes stores; others are 401 or 403', async () => {
    const stores = '/api/operator/stores';
    expect((await call('GET', stores, {}, operator)).status).toBe(200);
    expect((await call('GET', stores, {}, null)).status).toBe(401);
    expect((await call('GET', stores, {}, key)).status).toBe(403);
    expect((await call('POST', stores, {}, operator, { name: '', owner_email: 'x' })).status).toBe(400);
    expect((await call('POST', stores, {}, null, { name: 'S', owner_email: 'a@b.test' })).status).toBe(401);
    expect((await call('POST', stores, {}, key, { name: 'S', owner_email: 'a@b.test' })).status).toBe(403);
    const made = await call<NewStoreJson>('POST', stores, {}, operator, { name: 'Harbour', owner_email: 'owner@harbour.test' });
    expect(made.status).toBe(201);
    const one = '/api/operator/stores/{id}';
    const id = String(made.body.id);
    expect((await call('PATCH', one, { id }, operator, { suspended: true })).body).toMatchObject({ suspended: true });
    expect((await call('PATCH', one, { id }, operator, { suspended: false })).status).toBe(200);
    expect((await call('PATCH', one, { id }, operator, { suspended: 'no' })).status).toBe(400);
    expect((await call('PATCH', one, { id: '9999' }, operator, { suspended: true })).status).toBe(404);
    expect((await call('PATCH', one, { id }, null, { suspended: true })).status).toBe(401);
    expect((await call('PATCH', one, { id }, key, { suspended: true })).status).toBe(403);

    // The invite: a new account takes it; then it is used.
    const token = made.body.invite_url.split('/invite/')[1];
    const account = '/api/invites/{token}/account';
    expect((await call('POST', account, { token }, null, { name: 'Hana', password: 'short' })).status).toBe(400);
    expect(
      (await call('POST', account, { token }, null, { name: 'Hana', password: PASSWORD }, { Origin: 'https://evil.test' })).status,
    ).toBe(403);
    const taken = await call<{ csrf_token: string }>('POST', account, { token }, null, { name: 'Hana', password: PASSWORD });
    expect(taken.status).toBe(201);
    owner = {
      cookie: taken.headers
        .getSetCookie()
        .find((c) => c.startsWith('counter_session='))!
        .split(';')[0],
      csrf: taken.body.csrf_token,
    };
    expect((await call('POST', account, { token }, null, { name: 'Hana', password: PASSWORD })).status).toBe(404);
    expect((await call('GET', stores, {}, owner)).status).toBe(403);

    // An invite to an email that has an account is 409 for a new account; its holder accepts it.
    const second = await call<NewStoreJson>('POST', stores, {}, operator, { name: 'Second', owner_email: 'owner@harbour.test' });
    const token2 = second.body.invite_url.split('/invite/')[1];
    expect((await call('POST', account, { token: token2 }, null, { name: 'Hana', password: PASSWORD })).status).toBe(409);
    const accept = '/api/invites/{token}/accept';
    expect((await call('POST', accept, { token: token2 }, null)).status).toBe(401);
    expect((await call('POST', accept, { token: token2 }, { cookie: owner.cookie, csrf: 'wrong' })).status).toBe(403);
    const accepted = await call('POST', accept, { token: token2 }, owner);
    expect(accepted.body).toMatchObject({ store: { name: 'Second', role: 'owner' } });
    expect((await call('POST', accept, { token: token2 }, owner)).status).toBe(404);
  });

  it('open sign-up: 201, 400, 403, 409, then 429 for the client', async () => {
    const signup = '/api/auth/signup';
    const body = (n: number, over: Record<string, unknown> = {}) => ({
      store_name: `Shop ${n}`,
      name: `Owner ${n}`,
      email: `owner${n}@signup.test`,
      password: PASSWORD,
      ...over,
    });
    expect((await call('POST', signup, {}, null, body(1))).status).toBe(201);
    expect((await call('POST', signup, {}, null, body(2, { password: 'short' }))).status).toBe(400);
    expect((await call('POST', signup, {}, null, body(3), { Origin: 'https://evil.test' })).status).toBe(403);
    expect((await call('POST', signup, {}, null, body(4, { email: 'owner1@signup.test' }))).status).toBe(409);
    let last = 0;
    for (let n = 5; n < 12 && last !== 429; n++) last = (await call('POST', signup, {}, null, body(n))).status;
    expect(last).toBe(429);
  });

  it('exercised every (method, path, status) the document names for these operations', () => {
    const missing = documentedResponses(doc, (tags) => tags.includes('stores')).filter((t) => !checker.seen.has(t));
    expect(missing).toEqual([]);
  });
});
