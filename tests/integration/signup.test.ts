// Open sign-up (SIGNUP=open, docs/configuration.md) on the real built app: anyone creates an
// account and a store of its own, whose owner it is, and is signed in; a taken email is 409 and
// leaves no store behind; the password rules are those of every account; sign-ups from one
// client are throttled like sign-ins (429 with Retry-After). With SIGNUP unset (off), /signup is a
// 404 page and its API a 404 answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../helpers/app-server';
import { signIn } from '../helpers/sessions';

const PASSWORD = 'signup test password';
const OPERATOR = 'operator@signup.test';

interface Answer {
  error?: string;
  csrf_token?: string;
  user?: { email: string; name: string; role: string };
  store?: { id: number; name: string; role: string };
  stores?: { id: number; name: string; role: string }[];
}

async function post(app: AppServer, path: string, body: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(app.url + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
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

const shop = (n: number, over: Record<string, unknown> = {}) => ({
  store_name: `Shop ${n}`,
  name: `Owner ${n}`,
  email: `owner${n}@signup.test`,
  password: PASSWORD,
  ...over,
});

describe('SIGNUP=open', () => {
  let app: AppServer;
  beforeAll(async () => {
    app = await startApp({ ADMIN_EMAIL: OPERATOR, ADMIN_PASSWORD: PASSWORD, RATE_LIMIT_RPS: '0', SIGNUP: 'open' });
  }, 240_000);
  afterAll(async () => {
    await app?.stop();
  });

  it('creates an account and its own store, signed in as its owner; refusals leave nothing behind; throttled per client', async () => {
    const page = await fetch(app.url + '/signup');
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const s of ['Open your store', 'Store name', 'Create account']) expect(html).toContain(s);

    const made = await post(app, '/api/auth/signup', shop(1, { email: 'Owner1@Signup.test' }));
    expect(made.status, made.text).toBe(201);
    expect(made.body.user).toMatchObject({ email: 'owner1@signup.test', name: 'Owner 1', role: 'owner' });
    const cookie = made.headers
      .getSetCookie()
      .find((c) => c.startsWith('counter_session='))!
      .split(';')[0];
    const me = (await fetch(app.url + '/api/auth/me', { headers: { Cookie: cookie } }).then((r) => r.json())) as Answer;
    expect(me.stores).toEqual([{ id: me.store!.id, name: 'Shop 1', role: 'owner' }]);
    expect(me.store!.id).not.toBe(1);

    // The operator sees the new store; the new owner sees none of the operator's.
    const op = await signIn(app.url, OPERATOR, PASSWORD);
    const stores = (await fetch(app.url + '/api/operator/stores', { headers: { Cookie: op.cookie } }).then((r) => r.json())) as {
      stores: { name: string }[];
    };
    expect(stores.stores.map((s) => s.name)).toContain('Shop 1');
    expect((await fetch(app.url + '/api/operator/stores', { headers: { Cookie: cookie } })).status).toBe(403);

    // Refusals: a taken email (409, no store left behind), a weak password, a bad body, another origin.
    expect((await post(app, '/api/auth/signup', shop(2, { email: 'owner1@signup.test' }))).status).toBe(409);
    expect((await post(app, '/api/auth/signup', shop(3, { password: '1qaz2wsx3edc' }))).status).toBe(400);
    expect((await post(app, '/api/auth/signup', shop(4, { store_name: 'Bad\u202eName' }))).status).toBe(400);
    expect((await post(app, '/api/auth/signup', shop(5), { Origin: 'https://evil.test' })).status).toBe(403);
    const after = (await fetch(app.url + '/api/operator/stores', { headers: { Cookie: op.cookie } }).then((r) => r.json())) as {
      stores: { name: string }[];
    };
    expect(after.stores.map((s) => s.name).filter((n) => n.startsWith('Shop '))).toEqual(['Shop 1']);

    // Five attempts from this client so far (the cross-origin one was never counted): the next is
    // free, then the client waits, longer each time.
    expect((await post(app, '/api/auth/signup', shop(6))).status).toBe(201);
    const limited = await post(app, '/api/auth/signup', shop(7));
    expect([limited.status, limited.body.error]).toEqual([429, 'rate_limited']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('SIGNUP off (the default)', () => {
  let app: AppServer;
  beforeAll(async () => {
    app = await startApp({ ADMIN_EMAIL: OPERATOR, ADMIN_PASSWORD: PASSWORD, RATE_LIMIT_RPS: '0' });
  }, 240_000);
  afterAll(async () => {
    await app?.stop();
  });

  it('/signup is a 404 page and its API refuses with 404, creating nothing', async () => {
    expect((await fetch(app.url + '/signup')).status).toBe(404);
    const r = await post(app, '/api/auth/signup', shop(1));
    expect([r.status, r.body.error]).toEqual([404, 'not_found']);
    expect((await post(app, '/api/auth/login', { email: 'owner1@signup.test', password: PASSWORD })).status).toBe(401);
  });
});
