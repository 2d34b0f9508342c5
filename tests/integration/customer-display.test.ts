// The customer's display (docs/counter.md#the-customers-display) on the real built app:
// pairing codes (session + terminal cookie, single use, one live code per till, short-lived),
// pairing throttled per client, the display cookie (httpOnly, opens its own stream and nothing
// else: no back office, no till, no vendor API), the live stream (the till's cart within a
// second; never another till's cart; the payment's customer-facing state and no staff name),
// the published cart's validation, size bound and rate limit, and the ways a display stops
// following its till: pairing again, unpairing from the back office, the till revoked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { until } from '../helpers/wait';
import { startApp, type AppServer } from '../helpers/app-server';
import { testXpub } from '../helpers/keys';
import { firstCookie, request } from '../helpers/client';
import type { ErrorJson } from '../helpers/json-shapes';

const PASSWORD = 'customer display password 3';
const XPUB = testXpub(31);

interface Who {
  cookie: string;
  csrf: string;
}
/** A pairing code as POST /api/pos/display/pairing answers. */
interface PairingJson {
  code: string;
  path: string;
  expires_at: string;
}
/** A sale as POST /api/v1/payments answers (the fields the display must show). */
interface SaleJson {
  id: string;
  terminal: string | null;
  total: string;
  uri: string;
  connect_uri: string;
  expires_at: string;
}

/** A `display` event's data (the fields tests read): the cart being rung up and, once charged, the payment. */
interface DisplayJson {
  cart?: { lines?: { name: string }[] } | null;
  payment?: { live?: { status: string }; [field: string]: unknown } | null;
  [field: string]: unknown;
}

/** An open display stream read with node:http: its events, in order. */
interface Stream {
  status: number;
  raw: string;
  events: { event: string; data: DisplayJson }[];
  ended: boolean;
  close(): void;
}
function openStream(base: string, cookie: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/api/display/events`, { headers: cookie ? { Cookie: cookie } : {}, agent: false }, (res) => {
      const s: Stream = { status: res.statusCode ?? 0, raw: '', events: [], ended: false, close: () => req.destroy() };
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        s.raw += d;
        buf += d;
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const m = /^event: (\w+)\ndata: (.*)$/m.exec(block);
          if (m) s.events.push({ event: m[1], data: JSON.parse(m[2]) });
        }
      });
      const done = () => (s.ended = true);
      res.on('end', done);
      res.on('close', done);
      resolve(s);
    });
    req.on('error', reject);
  });
}
/** Waits until `ok` holds of `fn()`, and fails the test if it never does. */
async function eventually<T>(fn: () => T, ok: (v: T) => boolean, ms = 5_000, stepMs = 10): Promise<T> {
  const v = await until(fn, ok, ms, stepMs);
  expect(ok(v), `condition not met within ${ms} ms`).toBe(true);
  return v;
}
const lastDisplay = (s: Stream) => [...s.events].reverse().find((e) => e.event === 'display')?.data;

const cart = (name: string, count = 1, paymentId: string | null = null) => ({
  currency: 'DOGE',
  lines: [{ name, count, total: String(150_000_000 * count) }],
  adjustments: [{ kind: 'tax', amount: '1000' }],
  total: String(150_000_000 * count + 1000),
  payment_id: paymentId,
});

describe('the customer display', () => {
  let app: AppServer;
  let manager: Who & { id: string };
  let cashier: Who;
  let tillA: { id: string; cookie: string };
  let tillB: { id: string; cookie: string };
  let ip = 0;
  /** A fresh client address (TRUST_PROXY=1): pairing failures are throttled per client. */
  const client = () => `10.1.${Math.floor(++ip / 250)}.${ip % 250}`;

  /** A request from a fresh client address unless told (a raw body is sent as it is); `T` is how the test reads the JSON answer. */
  const req = <T = unknown>(
    w: Partial<Who> | null,
    method: string,
    path: string,
    body?: unknown,
    extra: { cookie?: string; headers?: Record<string, string>; raw?: string } = {},
  ) =>
    request<T>(app.url, w, method, path, extra.raw ?? body, {
      extraCookie: extra.cookie,
      headers: { 'X-Forwarded-For': extra.headers?.['X-Forwarded-For'] ?? client(), ...extra.headers },
    });
  async function login(email: string): Promise<Who & { id: string }> {
    const r = await req<{ csrf_token: string; user: { id: string } }>(null, 'POST', '/api/auth/login', { email, password: PASSWORD });
    expect(r.status, r.text).toBe(200);
    return { cookie: firstCookie(r, 'counter_session'), csrf: r.body.csrf_token, id: r.body.user.id };
  }
  async function register(name: string): Promise<{ id: string; cookie: string }> {
    const r = await req<{ id: string }>(manager, 'POST', '/api/admin/terminals', { name });
    expect(r.status, r.text).toBe(201);
    return { id: r.body.id, cookie: firstCookie(r, 'counter_terminal') };
  }
  const newCode = (till: { cookie: string }, w: Who = manager) =>
    req<PairingJson>(w, 'POST', '/api/pos/display/pairing', {}, { cookie: till.cookie });
  const publish = (till: { cookie: string }, body: unknown, w: Who = manager) =>
    req<ErrorJson | null>(w, 'PUT', '/api/pos/display/cart', body, { cookie: till.cookie });
  /** Pairs a new display with `till`; returns its cookie. */
  async function pair(till: { cookie: string }, previous = ''): Promise<string> {
    const c = await newCode(till);
    expect(c.status, c.text).toBe(201);
    const r = await req(null, 'POST', '/api/display/pair', { code: c.body.code }, { cookie: previous });
    expect(r.status, r.text).toBe(200);
    return firstCookie(r, 'counter_display');
  }

  beforeAll(async () => {
    app = await startApp({
      ADMIN_EMAIL: 'owner@display.test',
      ADMIN_PASSWORD: PASSWORD,
      STORE_XPUB: XPUB,
      RATE_LIMIT_RPS: '0',
      TRUST_PROXY: '1',
      DOGE_NETWORK: 'regtest',
      CHAIN_BACKEND: 'devnet',
      DEVNET_BLOCK_SECONDS: '0',
    });
    const owner = await login('owner@display.test');
    for (const [k, role] of [
      ['manager', 'manager'],
      ['cashier', 'cashier'],
    ] as const) {
      const r = await req(owner, 'POST', '/api/admin/users', { email: `${k}@display.test`, name: `Staff ${k}`, password: PASSWORD, role });
      expect(r.status, r.text).toBe(201);
    }
    manager = await login('manager@display.test');
    cashier = await login('cashier@display.test');
    tillA = await register('Front counter');
    tillB = await register('Patio');
  }, 180_000);
  afterAll(async () => app?.stop());

  it('gives a pairing code only to a signed-in session on a registered till', async () => {
    expect((await req(null, 'POST', '/api/pos/display/pairing', {}, { cookie: tillA.cookie })).status).toBe(401);
    expect((await req(manager, 'POST', '/api/pos/display/pairing', {})).status).toBe(403); // no terminal cookie
    expect((await req({ cookie: manager.cookie }, 'POST', '/api/pos/display/pairing', {}, { cookie: tillA.cookie })).status).toBe(403); // no CSRF
    expect(
      (await req(manager, 'POST', '/api/pos/display/pairing', {}, { cookie: tillA.cookie, headers: { Origin: 'http://evil.test' } }))
        .status,
    ).toBe(403);
    const r = await newCode(tillA, cashier);
    expect(r.status, r.text).toBe(201);
    expect(r.body.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(r.body.path).toBe(`/display?code=${r.body.code.replace('-', '')}`);
    const ttl = Date.parse(r.body.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000 + 2_000);
  });

  it('pairs with a code once, in any case and spacing; a newer code replaces the older; the cookie is httpOnly', async () => {
    const first = (await newCode(tillA)).body.code;
    const second = (await newCode(tillA)).body.code;
    expect(second).not.toBe(first);
    expect((await req(null, 'POST', '/api/display/pair', { code: first })).status).toBe(401); // replaced
    const typed = ` ${second.toLowerCase().replace('-', ' - ')} `;
    expect((await req(null, 'POST', '/api/display/pair', { code: typed }, { headers: { Origin: 'http://evil.test' } })).status).toBe(403);
    const ok = await req(null, 'POST', '/api/display/pair', { code: typed });
    expect(ok.status, ok.text).toBe(200);
    const set = ok.headers.getSetCookie().find((c) => c.startsWith('counter_display='))!;
    expect(set).toMatch(/; HttpOnly/);
    expect(set).toMatch(/; SameSite=Strict/);
    expect(set.split(';')[0].split('=')[1].length).toBeGreaterThanOrEqual(43);
    expect(ok.text).not.toContain(set.split(';')[0].split('=')[1]);
    expect((await req(null, 'POST', '/api/display/pair', { code: second })).status).toBe(401); // used
    for (const bad of [{}, { code: 7 }, { code: 'x'.repeat(41) }, { code: second, more: 1 }]) {
      expect((await req(null, 'POST', '/api/display/pair', bad)).status, JSON.stringify(bad)).toBe(400);
    }
    expect((await req(null, 'POST', '/api/display/pair', undefined, { raw: '{nope' })).status).toBe(400);
  });

  it('throttles wrong codes per client: from the 5th failure 429 with Retry-After, before the code is even looked at', async () => {
    const guesser = { 'X-Forwarded-For': '10.66.6.6' };
    const valid = (await newCode(tillB)).body.code;
    for (let i = 0; i < 5; i++)
      expect((await req(null, 'POST', '/api/display/pair', { code: `AAAA-AAA${i}` }, { headers: guesser })).status).toBe(401);
    const locked = await req(null, 'POST', '/api/display/pair', { code: valid }, { headers: guesser });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The throttled attempt did not spend the code: another client pairs with it.
    expect((await req(null, 'POST', '/api/display/pair', { code: valid })).status).toBe(200);
  });

  it("a display cookie opens nothing but the display's own stream", async () => {
    const display = await pair(tillA);
    expect((await req(null, 'GET', '/api/display', undefined, { cookie: display })).status).toBe(200);
    for (const [method, path] of [
      ['GET', '/api/admin/terminals'],
      ['GET', '/api/admin/users'],
      ['GET', '/api/auth/me'],
      ['GET', '/api/v1/payments'],
      ['POST', '/api/pos/display/pairing'],
      ['PUT', '/api/pos/display/cart'],
      ['DELETE', `/api/admin/terminals/${tillA.id}/display`],
    ] as const) {
      const r = await req(null, method, path, method === 'GET' ? undefined : cart('Hack'), { cookie: display });
      expect(r.status, `${method} ${path}`).toBe(401);
    }
    expect((await req(null, 'GET', '/api/pos/lock', undefined, { cookie: display })).status).toBe(403);
    const pos = await req(null, 'GET', '/pos', undefined, { cookie: display });
    expect(pos.status).toBe(307);
    expect(pos.headers.get('location')).toMatch(/^\/login/);
    // Without a display cookie, or with one that is not a display's, nothing streams.
    for (const cookie of ['', 'counter_display=nope', tillA.cookie.replace('counter_terminal', 'counter_display'), manager.cookie]) {
      const s = await openStream(app.url, cookie);
      expect(s.status, cookie).toBe(401);
      s.close();
    }
    expect((await req(null, 'GET', '/api/display', undefined, { cookie: tillA.cookie })).status).toBe(401);
  });

  // How fast the cart arrives is the live bench's to measure (docs/performance.md), not a test's.
  it("streams its till's cart, never another till's, and the payment without any staff name", async () => {
    const display = await pair(tillA);
    const s = await openStream(app.url, display);
    expect(s.status).toBe(200);
    expect(
      await eventually(
        () => lastDisplay(s),
        (d) => d !== undefined,
        5_000,
        20,
      ),
    ).toBeDefined();
    expect((await publish(tillA, cart('Green tea', 2))).status).toBe(204);
    const d = await eventually(
      () => lastDisplay(s),
      (x) => x?.cart?.lines?.[0]?.name === 'Green tea',
      5_000,
      10,
    );
    expect(d!.cart).toEqual({
      currency: 'DOGE',
      lines: [{ name: 'Green tea', count: 2, total: '300000000' }],
      adjustments: [{ kind: 'tax', amount: '1000' }],
      total: '300001000',
    });

    // Another till's cart never reaches this display.
    expect((await publish(tillB, cart('Secret patio order'))).status).toBe(204);
    expect((await publish(tillA, cart('Scone'))).status).toBe(204);
    await eventually(
      () => lastDisplay(s),
      (x) => x?.cart?.lines?.[0]?.name === 'Scone',
      5_000,
      10,
    );
    expect(s.raw).not.toContain('Secret patio order');

    // A sale of this till (session + terminal cookie): the display gets its customer-facing state.
    const p = await req<SaleJson>(
      manager,
      'POST',
      '/api/v1/payments',
      { items: [{ type: 'item', id: 'SCONE', name: 'Scone', count: 1, unit: '2.5' }] },
      { cookie: tillA.cookie },
    );
    expect(p.status, p.text).toBe(201);
    expect(p.body.terminal).toBe('Front counter');
    expect((await publish(tillA, cart('Scone', 1, p.body.id))).status).toBe(204);
    const withPay = await eventually(
      () => lastDisplay(s),
      (x) => x?.payment?.id === p.body.id,
      5_000,
      10,
    );
    expect(withPay!.payment).toMatchObject({
      total: p.body.total,
      uri: p.body.uri,
      connect_uri: p.body.connect_uri,
      form: 'dogecoin',
      expires_at: p.body.expires_at,
    });
    expect(withPay!.payment!.live).toMatchObject({ status: 'unpaid', expired: false });
    expect(withPay!.payment!.items).toEqual([{ name: 'Scone', desc: '', count: 1, total: '2.5' }]);
    expect(Object.keys(withPay!.payment!).sort()).toEqual([
      'connect_uri',
      'expires_at',
      'fiat_currency',
      'fiat_total',
      'form',
      'id',
      'items',
      'live',
      'total',
      'uri',
    ]);
    const cancel = await req(manager, 'POST', `/api/v1/payments/${p.body.id}/cancel`, {}, { cookie: tillA.cookie });
    expect(cancel.status, cancel.text).toBe(200);
    await eventually(
      () => lastDisplay(s),
      (x) => x?.payment?.live?.status === 'declined',
      5_000,
      10,
    );
    for (const secret of ['Staff manager', 'manager@display.test', 'Front counter', 'Patio', manager.id])
      expect(s.raw).not.toContain(secret);

    // Another till's sale cannot be put on this till's display.
    const other = await req<SaleJson>(
      manager,
      'POST',
      '/api/v1/payments',
      { items: [{ type: 'item', id: 'X', name: 'Patio lunch', count: 1, unit: '9' }] },
      { cookie: tillB.cookie },
    );
    expect(other.status).toBe(201);
    const refused = await publish(tillA, cart('Scone', 1, other.body.id));
    expect(refused.status).toBe(400);
    expect(refused.body?.message).toMatch(/^payment_id:/);
    await new Promise((r) => setTimeout(r, 300));
    expect(s.raw).not.toContain('Patio lunch');
    s.close();
  });

  it('refuses a bad or oversized cart with 400 or 413, and rate-limits a till that publishes too fast', async () => {
    const till = await register('Busy till');
    const bad: unknown[] = [
      {},
      { ...cart('x'), extra: 1 },
      cart('bad\u0000name'),
      cart('tab\there'),
      cart(''),
      { ...cart('x'), total: '1.5' },
      { ...cart('x'), total: 5 },
      { ...cart('x'), currency: 'doge' },
      { ...cart('x'), lines: [{ name: 'x', count: 0, total: '1' }] },
      { ...cart('x'), lines: [{ name: 'x', count: 1.5, total: '1' }] },
      { ...cart('x'), adjustments: [{ kind: 'bribe', amount: '1' }] },
      { ...cart('x'), payment_id: 'no such payment' },
      { ...cart('x'), total: '1'.repeat(21) },
      { ...cart('x'), lines: Array.from({ length: 201 }, () => ({ name: 'x', count: 1, total: '1' })) },
    ];
    for (const b of bad) {
      const r = await publish(till, b);
      expect(r.status, JSON.stringify(b).slice(0, 80)).toBe(400);
      expect(r.body?.error).toBe('invalid_request');
    }
    expect((await publish(till, cart('x'.repeat(201)))).status).toBe(400);
    expect((await req(manager, 'PUT', '/api/pos/display/cart', undefined, { cookie: till.cookie, raw: '{' })).status).toBe(400);
    expect(
      (
        await req(manager, 'PUT', '/api/pos/display/cart', undefined, {
          cookie: till.cookie,
          raw: JSON.stringify(cart('x'.repeat(100))).padEnd(70 * 1024),
        })
      ).status,
    ).toBe(413);
    expect((await publish({ cookie: '' }, cart('x'))).status).toBe(403);
    expect((await req(null, 'PUT', '/api/pos/display/cart', cart('x'), { cookie: till.cookie })).status).toBe(401);
    // 10 a second with bursts of 30, per till: of 200 updates sent at once, the burst goes
    // through and the rest get 429 with Retry-After, except those the bucket refilled for while
    // the server answered. The bound follows from the bucket, so it holds however slowly a
    // loaded machine serves them: at most 30 + 10 per elapsed second pass.
    const busy = await register('Busier till');
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => publish(busy, cart('x', i + 1))));
    const allowed = 30 + Math.ceil((10 * (performance.now() - started)) / 1000);
    const ok = answers.filter((r) => r.status === 204).length;
    expect(ok).toBeGreaterThanOrEqual(30);
    expect(ok).toBeLessThanOrEqual(allowed);
    expect(answers.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(Math.max(0, 200 - allowed));
    for (const r of answers.filter((x) => x.status === 429)) expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(ok + answers.filter((r) => r.status === 429).length).toBe(200);
  });

  it('pairing again replaces the old pairing: the old cookie stops at once and the display follows the new till', async () => {
    const old = await pair(tillA);
    const s = await openStream(app.url, old);
    expect(s.status).toBe(200);
    await eventually(
      () => lastDisplay(s),
      (d) => d !== undefined,
      5_000,
      20,
    );
    const fresh = await pair(tillB, old);
    expect(fresh).not.toBe(old);
    await eventually(
      () => s.events.some((e) => e.event === 'unpaired'),
      (x) => x,
      5_000,
      10,
    );
    expect((await req(null, 'GET', '/api/display', undefined, { cookie: old })).status).toBe(401);
    const s2 = await openStream(app.url, fresh);
    expect((await publish(tillB, cart('Patio coffee'))).status).toBe(204);
    await eventually(
      () => lastDisplay(s2),
      (x) => x?.cart?.lines?.[0]?.name === 'Patio coffee',
      5_000,
      10,
    );
    s.close();
    s2.close();
  });

  it('unpairing from the back office (manager, not cashier) returns open displays to pairing; so does revoking the till', async () => {
    const till = await register('Side door');
    const a = await pair(till);
    const b = await pair(till);
    const sa = await openStream(app.url, a);
    await eventually(
      () => lastDisplay(sa),
      (d) => d !== undefined,
      5_000,
      20,
    );
    expect((await req(cashier, 'DELETE', `/api/admin/terminals/${till.id}/display`)).status).toBe(403);
    expect((await req({ cookie: manager.cookie }, 'DELETE', `/api/admin/terminals/${till.id}/display`)).status).toBe(403); // no CSRF
    expect((await req(manager, 'DELETE', '/api/admin/terminals/nope/display')).status).toBe(404);
    const r = await req(manager, 'DELETE', `/api/admin/terminals/${till.id}/display`);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ unpaired: 2 });
    await eventually(
      () => sa.events.some((e) => e.event === 'unpaired'),
      (x) => x,
      5_000,
      10,
    );
    expect((await req(null, 'GET', '/api/display', undefined, { cookie: a })).status).toBe(401);
    expect((await req(null, 'GET', '/api/display', undefined, { cookie: b })).status).toBe(401);
    expect((await req(null, 'GET', '/api/admin/audit', undefined, { cookie: manager.cookie })).status).toBe(403); // audit is the owner's

    const c = await pair(till);
    const sc = await openStream(app.url, c);
    await eventually(
      () => lastDisplay(sc),
      (d) => d !== undefined,
      5_000,
      20,
    );
    const pending = (await newCode(till)).body.code;
    expect((await req(manager, 'DELETE', `/api/admin/terminals/${till.id}`)).status).toBe(200);
    await eventually(
      () => sc.events.some((e) => e.event === 'unpaired'),
      (x) => x,
      5_000,
      10,
    );
    expect((await req(null, 'GET', '/api/display', undefined, { cookie: c })).status).toBe(401);
    const again = await openStream(app.url, c);
    expect(again.status).toBe(401);
    expect((await req(null, 'POST', '/api/display/pair', { code: pending })).status).toBe(401); // a revoked till's code pairs nothing
    expect((await newCode(till)).status).toBe(403);
    for (const x of [sa, sc, again]) x.close();
  });
});
