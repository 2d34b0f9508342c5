// Sign-in guesses sent all at once, against the real built app (docs/security.md, sign-in
// throttling): each attempt is counted in the database before its password or PIN is checked,
// so of N simultaneous guesses at most 5 are checked (401, or 200 for the right one) and the
// rest answer 429 with Retry-After and no session. On embedded PGlite (one
// process) and on PostgreSQL with the burst split over two app processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_FAILURES, lockMs } from '@/lib/auth/sign-in-throttle';
import { until } from '../helpers/wait';
import { devnetAppEnv, startApp, type AppServer } from '../helpers/app-server';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';
import { testXpub } from '../helpers/keys';
import type { Health } from '../helpers/json-shapes';

const PASSWORD = 'sign-in burst password 9';
const PIN = '2580';
const XPUB = testXpub(33);
const ENV = devnetAppEnv({
  ADMIN_EMAIL: 'owner@burst.test',
  ADMIN_PASSWORD: PASSWORD,
  STORE_XPUB: XPUB,
  RATE_LIMIT_RPS: '0',
  TRUST_PROXY: '1',
});

interface Who {
  cookie: string;
  csrf: string;
}
let ip = 0;
/** A fresh client address (TRUST_PROXY=1), so that each burst has its own client key. */
const freshClient = () => `10.7.${Math.floor(++ip / 250)}.${ip % 250}`;
const firstCookie = (r: Response, name: string): string =>
  (r.headers.getSetCookie?.() ?? []).find((c) => c.startsWith(`${name}=`))?.split(';')[0] ?? '';

async function post(
  url: string,
  path: string,
  body: unknown,
  opts: { who?: Who; cookie?: string; client?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Forwarded-For': opts.client ?? freshClient() };
  const cookies = [opts.who?.cookie, opts.cookie].filter(Boolean).join('; ');
  if (cookies) headers.Cookie = cookies;
  if (opts.who) headers['X-CSRF-Token'] = opts.who.csrf;
  return fetch(url + path, { method: 'POST', headers, body: JSON.stringify(body) });
}

/**
 * Simultaneous requests, each body read (429s must say when to come back), and how many of them
 * the throttle may check. Five are free; each check after them waits out the lock the one before
 * it set (1 s, then 2 s, 4 s…: lockMs). A burst that a loaded machine spreads over more than a
 * lock can so be checked a sixth time, never sooner: the bound comes from the burst's own span.
 */
async function burst(requests: (() => Promise<Response>)[]): Promise<{ answers: Response[]; statuses: number[]; mayCheck: number }> {
  const t0 = Date.now();
  const answers = await Promise.all(requests.map((f) => f()));
  for (const r of answers) {
    await r.text();
    if (r.status === 429) expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  }
  const span = Date.now() - t0;
  let mayCheck = FREE_FAILURES;
  for (let waited = lockMs(mayCheck); waited <= span; waited += lockMs(mayCheck)) mayCheck += 1;
  return { answers, statuses: answers.map((r) => r.status), mayCheck };
}
const count = (statuses: number[], s: number) => statuses.filter((x) => x === s).length;

/** The owner signs in, adds a cashier with a PIN and registers a till; on the first app. */
async function setUp(url: string): Promise<{ cashierId: string; till: string }> {
  const health = await until(
    async () => (await fetch(url + '/api/health')).json(),
    (h: Health) => h.ready === true,
    60_000,
  );
  expect(health.ready, JSON.stringify(health.problems)).toBe(true);
  const login = await post(url, '/api/auth/login', { email: ENV.ADMIN_EMAIL, password: PASSWORD });
  expect(login.status).toBe(200);
  const owner = { cookie: firstCookie(login, 'counter_session'), csrf: (await login.json()).csrf_token };
  const u = await post(
    url,
    '/api/admin/users',
    { email: 'cashier@burst.test', name: 'Cashier', password: PASSWORD, role: 'cashier' },
    { who: owner },
  );
  expect(u.status).toBe(201);
  const cashierId = (await u.json()).id;
  const pin = await fetch(`${url}/api/admin/users/${cashierId}/pin`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Cookie: owner.cookie, 'X-CSRF-Token': owner.csrf },
    body: JSON.stringify({ pin: PIN }),
  });
  expect(pin.status).toBe(204);
  const t = await post(url, '/api/admin/terminals', { name: 'Burst till' }, { who: owner });
  expect(t.status).toBe(201);
  return { cashierId, till: firstCookie(t, 'counter_terminal') };
}

/** The bursts, over one or more app processes sharing one database (requests alternate). */
function bursts(urls: () => string[], ctx: () => { cashierId: string; till: string }) {
  const at = (i: number) => urls()[i % urls().length];

  // A lock lasts 1 s after the 5th failure: a guess sent *after* the burst may or may not fall
  // inside it on a loaded machine, so the right secret goes in the burst itself. Only a checked
  // attempt can sign in; every 429 carries no session.
  it('40 simultaneous PINs, the right one among them: at most 5 checked, the rest 429 without a session', async () => {
    const { cashierId, till } = ctx();
    const pins = Array.from({ length: 40 }, (_, i) => (i === 39 ? PIN : '9999'));
    const { answers, statuses, mayCheck } = await burst(
      pins.map((pin, i) => () => post(at(i), '/api/auth/pin', { user_id: cashierId, pin }, { cookie: till })),
    );
    const checked = count(statuses, 401) + count(statuses, 200);
    expect(checked).toBeLessThanOrEqual(mayCheck);
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(count(statuses, 429)).toBe(40 - checked);
    for (const r of answers) if (r.status !== 200) expect(firstCookie(r, 'counter_session')).toBe('');
  });

  it('30 simultaneous passwords, the right one among them: at most 5 checked, the rest 429 without a session', async () => {
    const client = freshClient();
    const guesses = Array.from({ length: 30 }, (_, i) => (i === 29 ? PASSWORD : `wrong guess ${i} abcdef`));
    const { answers, statuses, mayCheck } = await burst(
      guesses.map((password, i) => () => post(at(i), '/api/auth/login', { email: ENV.ADMIN_EMAIL, password }, { client })),
    );
    const checked = count(statuses, 401) + count(statuses, 200);
    expect(checked).toBeLessThanOrEqual(mayCheck);
    expect(count(statuses, 429)).toBe(30 - checked);
    for (const r of answers) if (r.status !== 200) expect(firstCookie(r, 'counter_session')).toBe('');
  });

  it('the per-account count holds across clients: 40 wrong passwords from 40 addresses, at most 5 checked', async () => {
    const email = 'cashier@burst.test';
    const { statuses, mayCheck } = await burst(
      Array.from({ length: 40 }, (_, i) => () => post(at(i), '/api/auth/login', { email, password: `wrong guess ${i} abcdef` })),
    );
    expect(count(statuses, 401)).toBeLessThanOrEqual(mayCheck);
    expect(count(statuses, 429)).toBe(40 - count(statuses, 401));
  });
}

describe('simultaneous guesses on embedded PGlite', () => {
  let app: AppServer;
  let setup: { cashierId: string; till: string };
  beforeAll(async () => {
    app = await startApp(ENV);
    setup = await setUp(app.url);
  }, 180_000);
  afterAll(async () => app?.stop());
  bursts(
    () => [app.url],
    () => setup,
  );
});

describe('simultaneous guesses on PostgreSQL, split over two app processes', () => {
  let pg: PgServer;
  let a: AppServer;
  let b: AppServer;
  let setup: { cashierId: string; till: string };
  beforeAll(async () => {
    pg = await startPostgres();
    const dbUrl = await createDatabase(pg, 'burst');
    a = await startApp({ ...ENV, DATABASE_URL: dbUrl });
    b = await startApp({ ...ENV, DATABASE_URL: dbUrl, WORKER: 'off' });
    setup = await setUp(a.url);
    await until(
      async () => (await fetch(b.url + '/api/health')).json(),
      (h: Health) => h.ready === true,
      60_000,
    );
  }, 240_000);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await pg?.stop();
  });
  bursts(
    () => [a.url, b.url],
    () => setup,
  );
});
