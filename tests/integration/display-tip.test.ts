// Tips on the customer's display (docs/counter.md#tips-on-the-customers-display) on the real built
// app (devnet, PGlite): the display's tip route answers 409 outside its till's wait whatever the
// body, 204 inside it, 400 over 100 % of the sale or for a bad body; the till opens the wait only
// with a paired display, reads the answer, and ends the wait; the display's stream shows the
// choices with their amounts from the store's tip_percents, a setting the settings API validates.
import { beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { until } from '../helpers/wait';
import { sharedShop, type SharedShop } from '../helpers/shared-app';
import { testXpub } from '../helpers/keys';
import { firstCookie, type Answer } from '../helpers/client';
import type { ErrorJson } from '../helpers/json-shapes';

const PASSWORD = 'display tip password 4';

interface Who {
  cookie: string;
  csrf: string;
}
/** What the display's stream says (the part this test reads). */
interface DisplayEventJson {
  tip?: { answered: boolean } | null;
}
/** POST /api/pos/display/tip: whether the till waits, and the display's choices when it does. */
interface TipWaitJson {
  waiting: boolean;
  options?: { percent: number; amount: string }[];
}
/** GET /api/pos/display/tip: the wait and the display's answer. */
interface TipAnswerJson {
  waiting: boolean;
  answer: string | null;
}

/** The display's stream: the last `display` event's data, as it arrives. */
function follow(base: string, cookie: string): { last: () => DisplayEventJson | null; close: () => void } {
  let last: DisplayEventJson | null = null;
  let buf = '';
  const req = http.get(`${base}/api/display/events`, { headers: { Cookie: cookie }, agent: false }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (d: string) => {
      buf += d;
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const m = /^event: display\ndata: (.*)$/m.exec(buf.slice(0, i));
        buf = buf.slice(i + 2);
        if (m) last = JSON.parse(m[1]);
      }
    });
  });
  req.on('error', () => undefined);
  return { last: () => last, close: () => req.destroy() };
}

describe('tips on the customer display', () => {
  let app: SharedShop;
  let owner: Who;
  let tillA: string;
  let tillB: string;
  let display: string;

  /** `T` is how the test reads the JSON answer (null when it is not JSON). */
  async function req<T = unknown>(
    w: Partial<Who> | null,
    method: string,
    path: string,
    body?: unknown,
    cookie = '',
    raw?: string,
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    const cookies = [w?.cookie, cookie].filter(Boolean).join('; ');
    if (cookies) headers.Cookie = cookies;
    if (w?.csrf && method !== 'GET') headers['X-CSRF-Token'] = w.csrf;
    const r = await fetch(app.url + path, { method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
    const text = await r.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: r.status, body: parsed as T, text, headers: r.headers };
  }
  const tip = <T = unknown>(body: unknown, raw?: string) => req<T>(null, 'POST', '/api/display/tip', body, display, raw);
  const wait = (till: string, total: string, currency = 'DOGE') =>
    req<TipWaitJson>(owner, 'POST', '/api/pos/display/tip', { total, currency }, till);

  beforeAll(async () => {
    app = await sharedShop('tip.test', { xpub: testXpub(48), password: PASSWORD });
    const login = await req<{ csrf_token: string }>(null, 'POST', '/api/auth/login', { email: 'owner@tip.test', password: PASSWORD });
    expect(login.status, login.text).toBe(200);
    owner = { cookie: firstCookie(login, 'counter_session'), csrf: login.body.csrf_token };
    for (const name of ['Front counter', 'Patio']) {
      const r = await req(owner, 'POST', '/api/admin/terminals', { name });
      expect(r.status, r.text).toBe(201);
      if (name === 'Patio') tillB = firstCookie(r, 'counter_terminal');
      else tillA = firstCookie(r, 'counter_terminal');
    }
    const code = await req<{ code: string }>(owner, 'POST', '/api/pos/display/pairing', {}, tillA);
    expect(code.status, code.text).toBe(201);
    const paired = await req(null, 'POST', '/api/display/pair', { code: code.body.code });
    expect(paired.status, paired.text).toBe(200);
    display = firstCookie(paired, 'counter_display');
  }, 180_000);

  it('tip_percents: three different whole percentages from 1 to 100, default [10, 15, 20]', async () => {
    expect((await req<{ tip_percents: number[] }>(owner, 'GET', '/api/admin/settings')).body.tip_percents).toEqual([10, 15, 20]);
    for (const bad of [[10, 15], [10, 15, 20, 25], [0, 10, 20], [10, 10, 20], [10, 15.5, 20], [10, 15, 101], ['10', 15, 20], 'x']) {
      const r = await req<ErrorJson>(owner, 'PATCH', '/api/admin/settings', { tip_percents: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.message).toMatch(/tip_percents/);
    }
    expect((await req(owner, 'PATCH', '/api/admin/settings', { tip_percents: [12, 18, 25] })).status).toBe(200);
    expect((await req<{ tip_percents: number[] }>(owner, 'GET', '/api/admin/settings')).body.tip_percents).toEqual([12, 18, 25]);
  });

  it('409 outside the wait, whatever the body; 204 inside; 400 over 100 % or a bad body', async () => {
    for (const body of [{ percent: 10 }, { percent: 500 }, { amount: '1' }, { nonsense: true }, null]) {
      expect((await tip(body)).status, JSON.stringify(body)).toBe(409);
    }
    expect((await tip(undefined, '{not json')).status).toBe(409);
    expect((await req(null, 'POST', '/api/display/tip', { percent: 10 })).status).toBe(401); // no display cookie

    // A till without a paired display is not asked; a till with one waits.
    expect((await wait(tillB, '1000000000')).body).toEqual({ waiting: false });
    const stream = follow(app.url, display);
    try {
      const opened = await wait(tillA, '1000000000'); // Ð 10 before the tip
      expect(opened.status, opened.text).toBe(201);
      expect(opened.body.options).toEqual([
        { percent: 12, amount: '120000000' },
        { percent: 18, amount: '180000000' },
        { percent: 25, amount: '250000000' },
      ]);
      // The display's stream shows the choices.
      const shown = await until(stream.last, (s) => !!s?.tip, 5_000, 10);
      expect(shown?.tip).toMatchObject({ currency: 'DOGE', base: '1000000000', answered: false });

      for (const [body, field] of [
        [{ percent: 101 }, 'percent'],
        [{ amount: '10.00000001' }, 'amount'],
        [{ amount: '-1' }, 'amount'],
        [{ amount: 'ten' }, 'amount'],
        [{ percent: 10, amount: '1' }, 'body'],
        [{ percent: 1.5 }, 'body'],
      ] as const) {
        const r = await tip<ErrorJson>(body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.message).toContain(field);
      }
      expect((await req<TipAnswerJson>(owner, 'GET', '/api/pos/display/tip', undefined, tillA)).body).toEqual({
        waiting: true,
        answer: null,
      });
      expect((await tip({ amount: '1.5' })).status).toBe(204);
      expect((await req<TipAnswerJson>(owner, 'GET', '/api/pos/display/tip', undefined, tillA)).body).toEqual({
        waiting: true,
        answer: '150000000',
      });
      expect((await tip({ percent: 0 })).status).toBe(409); // answered once
      await until(stream.last, (s) => s?.tip?.answered === true, 5_000, 10);

      // Ended by the till: outside the wait again.
      expect((await req(owner, 'DELETE', '/api/pos/display/tip', undefined, tillA)).status).toBe(204);
      expect((await tip({ percent: 12 })).status).toBe(409);
      expect((await req<TipAnswerJson>(owner, 'GET', '/api/pos/display/tip', undefined, tillA)).body).toEqual({
        waiting: false,
        answer: null,
      });

      // A percentage of a fiat sale, rounded half up to the cent: 18 % of $10.25 is $1.845 → $1.85.
      expect((await wait(tillA, '1025', 'USD')).status).toBe(201);
      expect((await tip({ percent: 18 })).status).toBe(204);
      expect((await req<TipAnswerJson>(owner, 'GET', '/api/pos/display/tip', undefined, tillA)).body.answer).toBe('185');
      expect((await tip({ percent: 12 })).status).toBe(409);
    } finally {
      stream.close();
    }
  });

  it("the till's side needs the session on the registered till", async () => {
    expect((await req(null, 'POST', '/api/pos/display/tip', { total: '100', currency: 'DOGE' }, tillA)).status).toBe(401);
    expect((await req(owner, 'POST', '/api/pos/display/tip', { total: '100', currency: 'DOGE' })).status).toBe(403);
    expect((await req(owner, 'POST', '/api/pos/display/tip', { total: '-1', currency: 'DOGE' }, tillA)).status).toBe(400);
  });
});
