// Live updates at scale (docs/api.md#live-updates) on the real built app (devnet,
// PGlite): streams are capped per user (API key or signed-in user: the 11th gets 429) and per
// process (MAX_STREAMS: 503 beyond); a closed stream frees its slot; 1,000 open streams (100
// keys × 10) each get their view while the app keeps answering, and a state change reaches
// exactly its payment's streams and ends them. On PostgreSQL, a stream served by one web
// process sees a change made through another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testXpub } from '../helpers/keys';
import { devnetAppEnv, startApp, type AppServer } from '../helpers/app-server';
import { until, sleep } from '../helpers/wait';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';
import { signIn } from '../helpers/sessions';
import { openEventStream } from '../helpers/streams';

const API_KEY = 'test-feed-scale-' + randomBytes(12).toString('hex');
const PASSWORD = 'feed scale password 1';
const xpub = testXpub(23);
const ENV = devnetAppEnv({
  STORE_XPUB: xpub,
  BOOTSTRAP_API_KEY: API_KEY,
  ADMIN_EMAIL: 'owner@scale.test',
  ADMIN_PASSWORD: PASSWORD,
  RATE_LIMIT_RPS: '0',
});

/** Opens GET /api/v1/payments/<id>/events; resolves once the status line is in. */
const openStream = (base: string, id: string, headers: Record<string, string>) =>
  openEventStream(`${base}/api/v1/payments/${id}/events`, headers);

async function getJson(base: string, path: string, init: RequestInit = {}) {
  const r = await fetch(base + path, init);
  return { status: r.status, body: await r.json().catch(() => null), headers: r.headers };
}

const login = (base: string, email: string) => signIn(base, email, PASSWORD);

async function createPayment(base: string, key = API_KEY): Promise<string> {
  const r = await getJson(base, '/api/v1/payments', {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ items: [{ type: 'item', id: 'TEA', name: 'Tea', count: 1, unit: '1.5' }] }),
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

/** Runs `fn` over `xs` with at most `n` at a time. */
async function pool<T, R>(xs: T[], n: number, fn: (x: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(xs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < xs.length) {
        const i = next++;
        out[i] = await fn(xs[i], i);
      }
    }),
  );
  return out;
}

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

describe('live update caps and scale (default MAX_STREAMS)', () => {
  let app: AppServer;
  let owner: { cookie: string; csrf: string };
  let keys: string[] = [];
  let payments: string[] = [];

  beforeAll(async () => {
    app = await startApp(ENV);
    owner = await login(app.url, ENV.ADMIN_EMAIL);
    // 100 read-only API keys, as 100 tills or integrations would hold.
    keys = await pool(
      Array.from({ length: 100 }, (_, i) => i),
      4,
      async (i) => {
        const r = await getJson(app.url, '/api/admin/api-keys', {
          method: 'POST',
          headers: { Cookie: owner.cookie, 'X-CSRF-Token': owner.csrf, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: `till ${i}`, scopes: ['payments:read'] }),
        });
        expect(r.status).toBe(201);
        return r.body.secret as string;
      },
    );
    payments = await pool(
      Array.from({ length: 100 }, () => 0),
      4,
      () => createPayment(app.url),
    );
  }, 240_000);

  afterAll(async () => app?.stop());

  it('refuses the 11th stream of one API key with 429, and a closed stream frees its slot', async () => {
    const key = keys[0];
    const open = await Promise.all(payments.slice(0, 10).map((id) => openStream(app.url, id, bearer(key))));
    expect(open.map((s) => s.status)).toEqual(Array(10).fill(200));
    const eleventh = await openStream(app.url, payments[10], bearer(key));
    expect(eleventh.status).toBe(429);
    await until(
      () => eleventh.ended,
      (x) => x,
      5_000,
      20,
    );
    expect(JSON.parse(eleventh.body)).toMatchObject({ error: 'too_many_streams', message: expect.any(String) });
    // Another key is not affected.
    const other = await openStream(app.url, payments[10], bearer(keys[1]));
    expect(other.status).toBe(200);
    other.close();

    // The client goes away: its slot is released, and a new stream of the same key is let in.
    open[0].close();
    const retry = await until(
      async () => {
        const s = await openStream(app.url, payments[11], bearer(key));
        if (s.status !== 200) s.close();
        return s;
      },
      (s) => s.status === 200,
      5_000,
      100,
    );
    expect(retry.status).toBe(200);
    expect((await openStream(app.url, payments[12], bearer(key))).status).toBe(429);
    for (const s of [...open, retry]) s.close();
    // All of them released: ten fresh streams fit again.
    const again = await until(
      async () => {
        const s = await Promise.all(payments.slice(20, 30).map((id) => openStream(app.url, id, bearer(key))));
        for (const x of s) if (x.status !== 200) x.close();
        return s;
      },
      (s) => s.every((x) => x.status === 200),
      5_000,
      200,
    );
    expect(again.map((s) => s.status)).toEqual(Array(10).fill(200));
    for (const s of again) s.close();
  });

  it("counts a cashier's streams against the cashier, across its sessions", async () => {
    const r = await getJson(app.url, '/api/admin/users', {
      method: 'POST',
      headers: { Cookie: owner.cookie, 'X-CSRF-Token': owner.csrf, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'cashier@scale.test', password: PASSWORD, role: 'cashier' }),
    });
    expect(r.status).toBe(201);
    const a = await login(app.url, 'cashier@scale.test');
    const b = await login(app.url, 'cashier@scale.test'); // a second tablet, same cashier
    expect(a.cookie).not.toBe(b.cookie);
    // A cashier follows only its own sales (docs/api.md#authentication-and-scopes): it rings up eleven of them.
    const own: string[] = [];
    for (let i = 0; i < 11; i++) {
      const c = await getJson(app.url, '/api/v1/payments', {
        method: 'POST',
        headers: { Cookie: a.cookie, 'X-CSRF-Token': a.csrf, 'Content-Type': 'application/json' },
        body: JSON.stringify({ items: [{ type: 'item', id: 'T', name: 'Tea', count: 1, unit: '1.5' }] }),
      });
      expect(c.status, JSON.stringify(c.body)).toBe(201);
      own.push(c.body.id);
    }
    expect((await openStream(app.url, payments[40], { Cookie: a.cookie })).status).toBe(404); // not its sale
    const first = await Promise.all(own.slice(0, 5).map((id) => openStream(app.url, id, { Cookie: a.cookie })));
    const second = await Promise.all(own.slice(5, 10).map((id) => openStream(app.url, id, { Cookie: b.cookie })));
    expect([...first, ...second].map((s) => s.status)).toEqual(Array(10).fill(200));
    const over = await openStream(app.url, own[10], { Cookie: b.cookie });
    expect(over.status).toBe(429);
    // The owner (another user) still gets a stream.
    const ownerStream = await openStream(app.url, payments[50], { Cookie: owner.cookie });
    expect(ownerStream.status).toBe(200);
    for (const s of [...first, ...second, ownerStream]) s.close();
  });

  // How fast the app answers and how much memory it keeps with streams open is measured by
  // `npm run bench` (live, streams: docs/performance.md), not here.
  it('1,000 open streams: each gets its view, the app still answers, and updates keep flowing', async () => {
    // Let the slots of the earlier tests' closed streams be released.
    await sleep(500);
    const streams = await pool(
      Array.from({ length: 1000 }, (_, i) => i),
      50,
      async (i) => {
        const s = await openStream(app.url, payments[i % payments.length], bearer(keys[Math.floor(i / 10)]));
        return s;
      },
    );
    expect(streams.filter((s) => s.status !== 200).map((s) => s.status)).toEqual([]);
    // Every stream got the current view.
    await until(
      () => streams.filter((s) => s.statuses.length > 0).length,
      (n) => n === 1000,
      30_000,
      200,
    );
    expect(streams.every((s) => s.statuses[0] === 'unpaid')).toBe(true);
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200);

    // A state change (a cancel) still reaches the streams of that payment promptly, and ends them.
    const id = payments[7];
    const watching = streams.filter((_, i) => i % payments.length === 7);
    expect(watching.length).toBe(10);
    expect((await getJson(app.url, `/api/v1/payments/${id}/cancel`, { method: 'POST', headers: bearer(API_KEY) })).status).toBe(200);
    await until(
      () => watching.every((s) => s.statuses.includes('declined')),
      (x) => x,
      10_000,
      20,
    );
    await until(
      () => watching.every((s) => s.ended),
      (x) => x,
      5_000,
      50,
    );
    expect(streams.filter((s) => s.ended).length).toBe(10); // the others stay open

    for (const s of streams) s.close();
    // All slots come back: a key can open ten streams again.
    const after = await until(
      async () => {
        const s = await Promise.all(payments.slice(0, 10).map((p) => openStream(app.url, p, bearer(keys[99]))));
        for (const x of s) x.close();
        return s.map((x) => x.status);
      },
      (st) => st.every((x) => x === 200),
      10_000,
      250,
    );
    expect(after).toEqual(Array(10).fill(200));
  }, 180_000);
});

describe('the process-wide cap (MAX_STREAMS)', () => {
  let app: AppServer;
  beforeAll(async () => {
    app = await startApp({ ...ENV, MAX_STREAMS: '5' });
  }, 120_000);
  afterAll(async () => app?.stop());

  it('answers 503 beyond MAX_STREAMS, whoever asks, and lets streams in again once some close', async () => {
    const id = await createPayment(app.url);
    const owner = await login(app.url, ENV.ADMIN_EMAIL);
    const five = await Promise.all(Array.from({ length: 5 }, () => openStream(app.url, id, bearer(API_KEY))));
    expect(five.map((s) => s.status)).toEqual(Array(5).fill(200));
    const sixth = await openStream(app.url, id, { Cookie: owner.cookie });
    expect(sixth.status).toBe(503);
    await until(
      () => sixth.ended,
      (x) => x,
      5_000,
      20,
    );
    expect(JSON.parse(sixth.body)).toMatchObject({ error: 'unavailable' });
    five[0].close();
    const back = await until(
      async () => {
        const s = await openStream(app.url, id, { Cookie: owner.cookie });
        if (s.status !== 200) s.close();
        return s;
      },
      (s) => s.status === 200,
      5_000,
      100,
    );
    expect(back.status).toBe(200);
    for (const s of [...five, back]) s.close();
  });
});

describe('two web processes on one PostgreSQL', () => {
  let pg: PgServer;
  let a: AppServer;
  let b: AppServer;
  beforeAll(async () => {
    pg = await startPostgres();
    const url = await createDatabase(pg, 'feed_scale');
    a = await startApp({ ...ENV, DATABASE_URL: url });
    b = await startApp({ ...ENV, DATABASE_URL: url, WORKER: 'off' });
  }, 180_000);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await pg?.stop();
  });

  it('a stream on one process sees a change made through the other', async () => {
    const ids = await Promise.all([0, 1, 2].map(() => createPayment(a.url)));
    const streams = await Promise.all(ids.map((id) => openStream(b.url, id, bearer(API_KEY))));
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200]);
    await until(
      () => streams.every((s) => s.statuses.length > 0),
      (x) => x,
      10_000,
      20,
    );
    expect((await getJson(a.url, `/api/v1/payments/${ids[1]}/cancel`, { method: 'POST', headers: bearer(API_KEY) })).status).toBe(200);
    await until(
      () => streams[1].ended,
      (x) => x,
      5_000,
      20,
    );
    expect(streams[1].statuses).toEqual(['unpaid', 'declined']);
    expect(streams[0].statuses).toEqual(['unpaid']);
    expect(streams[0].ended).toBe(false);
    for (const s of streams) s.close();
  });
});
