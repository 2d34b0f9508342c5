// The customer's display (docs/counter.md#the-customers-display) on the real built app: how a
// display pairs with a till and stops following it. Pairing codes (session + terminal cookie,
// single use, one live code per till, short-lived), pairing throttled per client, the display
// cookie (httpOnly, opens its own stream and nothing else: no back office, no till, no vendor
// API), and the ways a display stops following its till: pairing again, unpairing from the back
// office, the till revoked. What the display shows is customer-display-cart.test.ts's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cart, displayCounter, eventually, lastDisplay, openStream } from '../helpers/customer-display';

describe('the customer display', () => {
  const { url, start, stop, manager, cashier, tillA, tillB, req, register, newCode, publish, pair } = displayCounter();
  beforeAll(start, 180_000);
  afterAll(stop);

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
      const s = await openStream(url(), cookie);
      expect(s.status, cookie).toBe(401);
      s.close();
    }
    expect((await req(null, 'GET', '/api/display', undefined, { cookie: tillA.cookie })).status).toBe(401);
  });

  it('pairing again replaces the old pairing: the old cookie stops at once and the display follows the new till', async () => {
    const old = await pair(tillA);
    const s = await openStream(url(), old);
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
    const s2 = await openStream(url(), fresh);
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
    const sa = await openStream(url(), a);
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
    const sc = await openStream(url(), c);
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
    const again = await openStream(url(), c);
    expect(again.status).toBe(401);
    expect((await req(null, 'POST', '/api/display/pair', { code: pending })).status).toBe(401); // a revoked till's code pairs nothing
    expect((await newCode(till)).status).toBe(403);
    for (const x of [sa, sc, again]) x.close();
  });
});
