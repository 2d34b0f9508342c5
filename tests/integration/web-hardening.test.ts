// Web hardening through the real built app (docs/security.md): the client is the socket peer unless
// TRUST_PROXY (a random X-Forwarded-For does not reset the rate limit), sign-in is throttled per
// account and per client, weak passwords are refused everywhere a password is set, `next`
// cannot leave the origin, a malformed session cookie is no session, webhooks cannot point
// inside, DATA_DIR is private, and a revoked BOOTSTRAP_API_KEY survives a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { startApp, type AppServer } from '../helpers/app-server';
import { DGUB } from '../helpers/keys';

const EMAIL = 'owner@shop.test';
const PASSWORD = 'a strong admin password';
const KEY = 'hardening-bootstrap-' + randomBytes(12).toString('hex');
const ENV = {
  ADMIN_EMAIL: EMAIL,
  ADMIN_PASSWORD: PASSWORD,
  BOOTSTRAP_API_KEY: KEY,
  STORE_XPUB: DGUB,
  RATE_LIMIT_RPS: '1',
  RATE_LIMIT_BURST: '10',
};

const dataDir = mkdtempSync(join(tmpdir(), 'counter-hardening-app-'));
let app: AppServer;
let owner: { cookie: string; csrf: string };

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(app.url + path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
}
function as(method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { Cookie: owner.cookie, 'X-CSRF-Token': owner.csrf };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return fetch(app.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'manual' });
}
async function signIn(email: string, password: string) {
  const r = await post('/api/auth/login', { email, password });
  return { r, cookie: (r.headers.get('set-cookie') ?? '').split(';')[0], csrf: r.ok ? (await r.json()).csrf_token : '' };
}

/** Every path under `root` (itself included) that group or others may read, write or enter. */
function openToOthers(root: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = statSync(p);
    if (st.mode & 0o077) out.push(`${p} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
  };
  walk(root);
  return out;
}

beforeAll(async () => {
  app = await startApp(ENV, { keepDataDir: dataDir });
  const s = await signIn(EMAIL, PASSWORD);
  expect(s.r.status).toBe(200);
  owner = { cookie: s.cookie, csrf: s.csrf };
});
afterAll(async () => {
  await app?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the client is the socket peer (TRUST_PROXY off)', () => {
  it('a different X-Forwarded-For (or a forged peer stamp) on each request does not reset the rate limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40 && !statuses.includes(429); i++) {
      const ip = `198.51.100.${i + 1}`;
      const r = await post('/relay/status', { id: 'nope' }, { 'X-Forwarded-For': ip, 'X-Real-IP': ip, 'X-Counter-Peer': `x http ${ip}` });
      statuses.push(r.status);
      await r.body?.cancel();
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 404).length).toBeLessThanOrEqual(12); // the burst (10) and a refill or two
  });

  it('yet two real clients (two loopback source addresses) have buckets of their own', async () => {
    // The relay bucket of 127.0.0.1 is spent (above); a request from 127.0.0.2 still goes through,
    // which shows the app sees the socket's peer, not one shared "unknown" client.
    const from = (localAddress: string) =>
      new Promise<number>((resolve, reject) => {
        const u = new URL(app.url + '/relay/status');
        const req = request(
          {
            host: u.hostname,
            port: u.port,
            path: u.pathname,
            method: 'POST',
            localAddress,
            agent: false,
            headers: { 'Content-Type': 'application/json' },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ id: 'nope' }));
      });
    let spent = 0;
    for (let i = 0; i < 5 && spent !== 429; i++) spent = await from('127.0.0.1'); // a token may have refilled
    expect(spent).toBe(429);
    expect(await from('127.0.0.2')).toBe(404);
  });
});

describe('`next` after sign-in stays on this origin', () => {
  const attacks = [
    '/\t/evil.example/phish',
    '/\n/evil.example/phish',
    '/\r/evil.example/phish',
    '//evil.example/phish',
    '/\\evil.example/phish',
  ];
  it.each(attacks)('%j: the sign-in page does not hand it to the form', async (next) => {
    const r = await fetch(`${app.url}/login?next=${encodeURIComponent(next)}`);
    expect(r.status).toBe(200);
    // The sign-in form (a client component) follows its `next` prop: in the page's flight data
    // it must be the harmless "/" (the page URL itself appears there too, so look at the prop).
    const props = [...(await r.text()).matchAll(/\\"next\\":\\"(.*?)\\"/g)].map((m) => m[1]);
    expect(props.length).toBeGreaterThan(0);
    expect(
      props.every((p) => p === '/'),
      props.join(' | '),
    ).toBe(true);
  });
  it.each(attacks)('%j: a signed-in visit is redirected on this origin', async (next) => {
    const r = await as('GET', `/login?next=${encodeURIComponent(next)}`);
    expect(r.status).toBe(307);
    expect(new URL(r.headers.get('location')!, app.url).origin).toBe(new URL(app.url).origin);
  });
  it.each([
    ['/%E3%80%82evil', '/%E3%80%82evil'],
    ['/%F0%9F%98%80?q=%C4%80', '/%F0%9F%98%80?q=%C4%80'],
    ['/caf%C3%A9', '/caf%C3%A9'],
  ])('next=%s (a character above U+00FF, or above U+007F): a redirect, never a 500', async (raw, location) => {
    const r = await as('GET', `/login?next=${raw}`); // sent as the attacker wrote it, decoded by the page
    expect(r.status).toBe(307);
    expect(r.headers.get('location')).toBe(location);
    expect(new URL(r.headers.get('location')!, app.url).origin).toBe(new URL(app.url).origin);
  });
  it('a same-origin path is followed', async () => {
    const r = await as('GET', `/login?next=${encodeURIComponent('/admin/settings')}`);
    expect(r.status).toBe(307);
    expect(new URL(r.headers.get('location')!, app.url).pathname).toBe('/admin/settings');
  });
});

describe('a malformed session cookie is no session, never a 500', () => {
  it.each([
    ['bad UTF-8', '%E0%A4%A'],
    ['lone %', '%'],
    ['bad escape', '%zz'],
    ['control character', 'a%01b'],
    ['5,000 characters', 'x'.repeat(5000)],
  ])('%s', async (_what, value) => {
    const headers = { Cookie: `counter_session=${value}` };
    expect((await fetch(app.url + '/api/auth/me', { headers })).status).toBe(401);
    expect((await fetch(app.url + '/api/v1/events', { headers })).status).toBe(401);
    expect((await fetch(app.url + '/api/admin/settings', { headers })).status).toBe(401);
    expect((await fetch(app.url + '/api/auth/logout', { method: 'POST', headers })).status).toBe(200);
    const page = await fetch(app.url + '/admin', { headers, redirect: 'manual' });
    expect(page.status).toBe(307);
    expect(page.headers.get('location')).toMatch(/\/login\?next=/);
  });
});

describe('passwords: at least 12 characters and not one of the 10,000 most common', () => {
  it('refuses them on user creation and password change', async () => {
    for (const password of ['qwerty123456', '1q2w3e4r5t6y', 'eleven char']) {
      const r = await as('POST', '/api/admin/users', { email: `u${randomBytes(3).toString('hex')}@shop.test`, password, role: 'cashier' });
      expect(r.status, password).toBe(400);
      expect((await r.json()).message).toMatch(/password.*(most common|at least 12)/);
    }
    const me = await (await as('GET', '/api/auth/me')).json();
    const change = await as('PATCH', `/api/admin/users/${me.user.id}`, { password: 'qwerty123456' });
    expect(change.status).toBe(400);
    expect(
      (await as('POST', '/api/admin/users', { email: 'ok@shop.test', password: 'a sensible passphrase', role: 'cashier' })).status,
    ).toBe(201);
  });
});

describe('webhook URLs that point inside are refused when saved (SSRF)', () => {
  it.each([
    'http://127.0.0.1:3000/x',
    'http://[::1]/x',
    'http://0x7f000001/x',
    'http://2130706433/x',
    'http://169.254.169.254/latest/meta-data/',
  ])('%s', async (url) => {
    const r = await as('PATCH', '/api/admin/settings', { webhook_url: url });
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({
      error: 'invalid_request',
      message: expect.stringMatching(/^webhook_url: .*loopback, private, link-local or metadata/),
    });
    expect((await (await as('GET', '/api/admin/settings')).json()).webhook_url).toBe('');
  });
});

describe('sign-in throttling (runs last: it locks this client out for a while)', () => {
  it('after 5 failures an account answers 429 with a growing Retry-After, even to the right password', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await signIn(EMAIL, `wrong password ${i}`)).r.status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const locked = (await signIn(EMAIL, PASSWORD)).r;
    expect(locked.status).toBe(429);
    expect(await locked.json()).toMatchObject({ error: 'rate_limited' });
    const first = Number(locked.headers.get('retry-after'));
    expect(first).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, first * 1000 + 100));
    expect((await signIn(EMAIL, 'wrong password 6')).r.status).toBe(401);
    const again = (await signIn(EMAIL, PASSWORD)).r;
    expect(again.status).toBe(429);
    const second = Number(again.headers.get('retry-after'));
    expect(second).toBeGreaterThan(first);
    await new Promise((r) => setTimeout(r, second * 1000 + 100));
    expect((await signIn(EMAIL, PASSWORD)).r.status).toBe(200); // the lock ends; success clears the account
  });

  it('per client too: failures spread over many accounts still lock the client', async () => {
    let limited: Response | null = null;
    for (let i = 0; i < 8 && !limited; i++) {
      const { r } = await signIn(`nobody${i}@shop.test`, 'wrong password here');
      if (r.status === 429) limited = r;
      else expect(r.status).toBe(401);
    }
    expect(limited).not.toBeNull();
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('restart on the same DATA_DIR', () => {
  it('a revoked BOOTSTRAP_API_KEY stays revoked, and DATA_DIR is private', async () => {
    const bearer = { Authorization: `Bearer ${KEY}` };
    expect((await fetch(app.url + '/api/v1/events', { headers: bearer })).status).toBe(200);
    expect((await as('DELETE', '/api/admin/api-keys/bootstrap')).status).toBe(200);
    expect((await fetch(app.url + '/api/v1/events', { headers: bearer })).status).toBe(401);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(openToOthers(dataDir)).toEqual([]);

    await app.stop();
    app = await startApp(ENV, { keepDataDir: dataDir });
    expect((await fetch(app.url + '/api/v1/events', { headers: bearer })).status).toBe(401);
    expect(app.logs()).toMatch(/BOOTSTRAP_API_KEY was revoked in the back office and stays revoked/);
    expect(openToOthers(dataDir)).toEqual([]);
  }, 180_000);
});
