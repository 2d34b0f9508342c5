// Registered tills and staff PINs (docs/counter.md), on the real built app: who may
// register a terminal, the terminal cookie, weak PINs, PIN sign-in only on a registered and
// unrevoked terminal, throttling per terminal and per user, a PIN session that opens the till
// and never the back office, PIN hashes never served, and sales that record their terminal.
import { beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { until } from '../helpers/wait';
import { sharedShop, type SharedShop } from '../helpers/shared-app';
import { testXpub } from '../helpers/keys';
import { firstCookie, request } from '../helpers/client';
import type { AuditEntryJson, ErrorJson, Health, TerminalJson, UserJson } from '../helpers/json-shapes';

const PASSWORD = 'counter pins password 7';
const XPUB = testXpub(30);
const ROOT = join(__dirname, '..', '..');

interface Who {
  cookie: string;
  csrf: string;
}
/** A terminal as POST /api/admin/terminals answers. */
interface NewTerminalJson {
  id: string;
  name: string;
  created_at: string;
}
/** GET /api/pos/lock: the till's name and who may sign in on it by PIN. */
interface LockJson {
  terminal: string;
  users: UserJson[];
}
/** A sale and the terminal it records. */
interface SaleJson {
  id: string;
  terminal: string | null;
}

/** Every file under `dir` whose name is `file`. */
function filesNamed(dir: string, file: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...filesNamed(p, file));
    else if (e === file) out.push(p);
  }
  return out;
}

describe('terminals and staff PINs', () => {
  let app: SharedShop;
  const who = {} as Record<'owner' | 'manager' | 'cashier' | 'cashier2', Who & { id: string }>;

  /** A request as `w` (with a terminal's cookie beside its session's); `T` is how the test reads the JSON answer. */
  const req = <T = unknown>(w: Partial<Who> | null, method: string, path: string, body?: unknown, extraCookie = '') =>
    request<T>(app.url, w, method, path, body, { extraCookie });
  async function login(email: string): Promise<Who & { id: string }> {
    const r = await req<{ csrf_token: string; user: { id: string } }>(null, 'POST', '/api/auth/login', { email, password: PASSWORD });
    expect(r.status, r.text).toBe(200);
    return { cookie: firstCookie(r, 'counter_session'), csrf: r.body.csrf_token, id: r.body.user.id };
  }
  /** Registers a fresh terminal as the manager; returns its id and cookie. */
  async function register(name: string): Promise<{ id: string; cookie: string }> {
    const r = await req<{ id: string }>(who.manager, 'POST', '/api/admin/terminals', { name });
    expect(r.status, r.text).toBe(201);
    return { id: r.body.id, cookie: firstCookie(r, 'counter_terminal') };
  }
  const pin = (terminalCookie: string, userId: string, p: string) =>
    req<{ csrf_token: string }>(null, 'POST', '/api/auth/pin', { user_id: userId, pin: p }, terminalCookie);
  async function pinSession(terminalCookie: string, userId: string, p: string): Promise<Who> {
    const r = await pin(terminalCookie, userId, p);
    expect(r.status, r.text).toBe(200);
    return { cookie: firstCookie(r, 'counter_session'), csrf: r.body.csrf_token };
  }

  beforeAll(async () => {
    app = await sharedShop('pins.test', { xpub: XPUB, password: PASSWORD });
    const health = await until(
      async () => (await fetch(app.url + '/api/health')).json(),
      (h: Health) => h.ready === true,
      60_000,
    );
    expect(health.ready, JSON.stringify(health.problems)).toBe(true);
    who.owner = await login('owner@pins.test');
    for (const [k, role] of [
      ['manager', 'manager'],
      ['cashier', 'cashier'],
      ['cashier2', 'cashier'],
    ] as const) {
      const r = await req(who.owner, 'POST', '/api/admin/users', { email: `${k}@pins.test`, name: `Staff ${k}`, password: PASSWORD, role });
      expect(r.status, r.text).toBe(201);
      who[k] = await login(`${k}@pins.test`);
    }
  }, 180_000);

  it('a cashier cannot register a terminal; an owner or manager can, and the browser gets an httpOnly terminal cookie', async () => {
    const c = await req(who.cashier, 'POST', '/api/admin/terminals', { name: 'Sneaky' });
    expect(c.status, c.text).toBe(403);
    expect(firstCookie(c, 'counter_terminal')).toBe('');
    expect((await req(who.cashier, 'GET', '/api/admin/terminals')).status).toBe(403);
    expect((await req(null, 'POST', '/api/admin/terminals', { name: 'Anon' })).status).toBe(401);
    expect((await req({ cookie: who.manager.cookie }, 'POST', '/api/admin/terminals', { name: 'No CSRF' })).status).toBe(403);

    const r = await req<NewTerminalJson>(who.manager, 'POST', '/api/admin/terminals', { name: 'Front counter' });
    expect(r.status, r.text).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(['created_at', 'id', 'name']);
    expect(r.body.name).toBe('Front counter');
    const set = r.headers.getSetCookie().find((s) => s.startsWith('counter_terminal='))!;
    expect(set).toMatch(/; HttpOnly/);
    expect(set).toMatch(/; SameSite=(Strict|Lax)/);
    expect(set).not.toMatch(/; Secure/); // PUBLIC_URL is http:// here
    const token = set.split(';')[0].split('=')[1];
    expect(token.length).toBeGreaterThanOrEqual(43); // 256 random bits
    expect(r.text).not.toContain(token);

    const o = await req(who.owner, 'POST', '/api/admin/terminals', { name: 'Patio' });
    expect(o.status).toBe(201);
    const list = await req<{ terminals: TerminalJson[] }>(who.manager, 'GET', '/api/admin/terminals');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(token);
    const front = list.body.terminals.find((t: TerminalJson) => t.id === r.body.id);
    expect(front).toEqual({ id: r.body.id, name: 'Front counter', created_at: r.body.created_at, last_seen_at: null, revoked: false });
  });

  it('refuses bad terminal names with 400 naming the field; renames and audits', async () => {
    for (const name of ['', '   ', 'Front\u0000counter', 'Tab\there', 'x'.repeat(61), 7]) {
      const r = await req<ErrorJson>(who.manager, 'POST', '/api/admin/terminals', { name });
      expect(r.status, JSON.stringify(name)).toBe(400);
      expect(r.body.message).toMatch(/^name:/);
    }
    expect((await req(who.manager, 'POST', '/api/admin/terminals', { name: 'ok', extra: 1 })).status).toBe(400);
    const t = await register('Old name');
    const p = await req<{ name: string }>(who.manager, 'PATCH', `/api/admin/terminals/${t.id}`, { name: 'New name' });
    expect(p.status, p.text).toBe(200);
    expect(p.body.name).toBe('New name');
    expect((await req(who.manager, 'PATCH', `/api/admin/terminals/${t.id}`, { name: 'bad\u001bname' })).status).toBe(400);
    expect((await req(who.manager, 'PATCH', '/api/admin/terminals/nope', { name: 'x' })).status).toBe(404);
    expect((await req(who.cashier, 'PATCH', `/api/admin/terminals/${t.id}`, { name: 'Mine' })).status).toBe(403);
    const audit = await req<{ entries: AuditEntryJson[] }>(who.owner, 'GET', '/api/admin/audit');
    const actions = audit.body.entries.map((e: AuditEntryJson) => e.action);
    expect(actions).toContain('terminal.create');
    expect(audit.body.entries.find((e: AuditEntryJson) => e.action === 'terminal.rename')?.changes.name).toEqual({
      from: 'Old name',
      to: 'New name',
    });
    expect(audit.text).not.toContain(t.cookie.split('=')[1]);
  });

  it('refuses weak PINs with 400 naming pin, and lets only the right people set one', async () => {
    for (const weak of ['1234', '9876', '0000', '34567', '87654321', '123', '123456789', 'abcd', '12 4', '', 1357]) {
      const r = await req<ErrorJson>(who.owner, 'PUT', `/api/admin/users/${who.cashier.id}/pin`, { pin: weak });
      expect(r.status, JSON.stringify(weak)).toBe(400);
      expect(r.body.message, JSON.stringify(weak)).toMatch(/^pin:/);
    }
    expect((await req(who.owner, 'PUT', `/api/admin/users/${who.manager.id}/pin`, { pin: '2580' })).status).toBe(204);
    expect((await req(who.manager, 'PUT', `/api/admin/users/${who.cashier.id}/pin`, { pin: '1357' })).status).toBe(204);
    expect((await req(who.cashier2, 'PUT', `/api/admin/users/${who.cashier2.id}/pin`, { pin: '8642' })).status).toBe(204);
    // A manager sets cashiers' PINs only; a cashier only its own.
    expect((await req(who.manager, 'PUT', `/api/admin/users/${who.owner.id}/pin`, { pin: '4826' })).status).toBe(403);
    expect((await req(who.cashier, 'PUT', `/api/admin/users/${who.cashier2.id}/pin`, { pin: '4826' })).status).toBe(403);
    expect((await req(who.cashier, 'PUT', '/api/admin/users/no-such-user/pin', { pin: '4826' })).status).toBe(403);
    expect((await req({ cookie: who.cashier.cookie }, 'PUT', `/api/admin/users/${who.cashier.id}/pin`, { pin: '4826' })).status).toBe(403); // no CSRF
    expect((await req(null, 'PUT', `/api/admin/users/${who.cashier.id}/pin`, { pin: '4826' })).status).toBe(401);
  });

  it('the lock screen needs a registered terminal and lists the active users with a PIN; no PIN hash is ever served', async () => {
    const t = await register('Lock list');
    expect((await req(null, 'GET', '/api/pos/lock')).status).toBe(403);
    expect((await req(null, 'GET', '/api/pos/lock', undefined, `counter_terminal=${randomBytes(32).toString('base64url')}`)).status).toBe(
      403,
    );
    expect((await req(null, 'GET', '/api/pos/lock', undefined, 'counter_terminal=%E0%A4%A')).status).toBe(403); // malformed
    const lock = await req<LockJson>(null, 'GET', '/api/pos/lock', undefined, t.cookie);
    expect(lock.status, lock.text).toBe(200);
    expect(lock.body.terminal).toBe('Lock list');
    expect(lock.body.users.map((u: UserJson) => u.name).sort()).toEqual(['Staff cashier', 'Staff cashier2', 'Staff manager']); // the owner has no PIN
    for (const u of lock.body.users) expect(Object.keys(u).sort()).toEqual(['id', 'name']);
    const served = [lock.text];
    served.push((await req(who.owner, 'GET', '/api/admin/users')).text, (await req(who.owner, 'GET', '/api/admin/audit')).text);
    served.push((await req(who.cashier, 'GET', '/api/auth/me')).text, (await pin(t.cookie, who.cashier2.id, '8642')).text);
    for (const text of served) {
      expect(text).not.toMatch(/scrypt\$/);
      expect(text).not.toMatch(/pin_?hash/i);
      expect(text).not.toContain('8642');
    }
  });

  it('a PIN attempt from an unregistered browser is 403, whatever the PIN', async () => {
    const r = await pin('', who.cashier.id, '1357');
    expect(r.status, r.text).toBe(403);
    expect(firstCookie(r, 'counter_session')).toBe('');
    const forged = await pin(`counter_terminal=${randomBytes(32).toString('base64url')}`, who.cashier.id, '1357');
    expect(forged.status).toBe(403);
    // A signed-in password session is no terminal either.
    expect((await req(who.manager, 'POST', '/api/auth/pin', { user_id: who.cashier.id, pin: '1357' })).status).toBe(403);
  });

  it('a PIN session opens the till and records its terminal, but never the back office', async () => {
    const t = await register('Till only');
    const s = await pinSession(t.cookie, who.manager.id, '2580'); // a manager, who has the back office by password
    const me = await req<{ user: { id: string } }>(s, 'GET', '/api/auth/me');
    expect(me.body.user.id).toBe(who.manager.id);
    expect((await req(s, 'GET', '/pos', undefined, t.cookie)).status).toBe(200);
    const sale = await req<SaleJson>(
      s,
      'POST',
      '/api/v1/payments',
      { items: [{ type: 'item', id: 'A', name: 'Tea', count: 1, unit: '3' }] },
      t.cookie,
    );
    expect(sale.status, sale.text).toBe(201);
    expect(sale.body.terminal).toBe('Till only');
    expect((await req<SaleJson>(s, 'GET', `/api/v1/payments/${sale.body.id}`)).body.terminal).toBe('Till only');
    // Without a terminal, a sale records none.
    const plain = await req<SaleJson>(who.manager, 'POST', '/api/v1/payments', {
      items: [{ type: 'item', id: 'A', name: 'Tea', count: 1, unit: '3' }],
    });
    expect(plain.status).toBe(201);
    expect((await req<SaleJson>(who.manager, 'GET', `/api/v1/payments/${plain.body.id}`)).body.terminal).toBeNull();
    // A password session on the terminal's browser records it too.
    const onTill = await req<SaleJson>(
      who.manager,
      'POST',
      '/api/v1/payments',
      { items: [{ type: 'item', id: 'A', name: 'Tea', count: 1, unit: '3' }] },
      t.cookie,
    );
    expect(onTill.body.terminal).toBe('Till only');

    // Every /api/admin route, every method it exports: never served to a PIN session.
    const routes = filesNamed(join(ROOT, 'app', 'api', 'admin'), 'route.ts');
    expect(routes.length).toBeGreaterThan(10);
    let tried = 0;
    for (const f of routes) {
      const path =
        '/' +
        relative(join(ROOT, 'app'), f)
          .replace(/\/route\.ts$/, '')
          .replace(/\[[^\]]+\]/g, 'x');
      for (const m of readFileSync(f, 'utf8').matchAll(/export (?:async )?function (GET|POST|PUT|PATCH|DELETE)\b/g)) {
        const r = await req(s, m[1], path, m[1] === 'GET' ? undefined : {}, t.cookie);
        expect([401, 403], `${m[1]} ${path}: ${r.status} ${r.text.slice(0, 200)}`).toContain(r.status);
        tried++;
      }
    }
    expect(tried).toBeGreaterThan(15);
    // Nor the vendor API's scopes beyond the till's (the manager's role holds payments:refund),
    // while the till's own report (My shift) still answers.
    const refund = await req(s, 'POST', `/api/v1/payments/${sale.body.id}/refunds`, { amount: '1', address: 'x', reason: 'r' });
    expect(refund.status, refund.text).toBe(403);
    expect((await req(s, 'GET', '/api/v1/reports/sales')).status).toBe(200);
    // Every back-office page asks for the password.
    const pages = filesNamed(join(ROOT, 'app', '(admin)', 'admin'), 'page.tsx');
    for (const f of pages) {
      const path =
        '/' +
        relative(join(ROOT, 'app', '(admin)'), f)
          .replace(/\/?page\.tsx$/, '')
          .replace(/\[[^\]]+\]/g, 'x');
      const r = await req(s, 'GET', path, undefined, t.cookie);
      expect(r.status, path).toBe(307);
      expect(r.headers.get('location'), path).toMatch(/\/login\?next=/);
    }
    // The login page shows its form to a PIN session (no redirect loop back to /admin).
    expect((await req(s, 'GET', '/login?next=%2Fadmin')).status).toBe(200);
  });

  it('throttles PIN sign-in per user: 429 with Retry-After after 5 failures, on every terminal, growing', async () => {
    const a = await register('Throttle A');
    const b = await register('Throttle B');
    for (let i = 0; i < 5; i++) expect((await pin(a.cookie, who.cashier.id, '9999')).status).toBe(401);
    const locked = await pin(a.cookie, who.cashier.id, '1357'); // the right PIN, but locked: not even checked
    expect(locked.status).toBe(429);
    const first = Number(locked.headers.get('retry-after'));
    expect(first).toBeGreaterThanOrEqual(1);
    const elsewhere = await pin(b.cookie, who.cashier.id, '1357');
    expect(elsewhere.status).toBe(429);
    expect(firstCookie(elsewhere, 'counter_session')).toBe('');
    // Another user on terminal B is unaffected (B saw no failure).
    expect((await pin(b.cookie, who.cashier2.id, '8642')).status).toBe(200);
    // After the lock, one more failure locks for longer.
    await new Promise((r) => setTimeout(r, first * 1000 + 100));
    expect((await pin(b.cookie, who.cashier.id, '9999')).status).toBe(401);
    const again = await pin(b.cookie, who.cashier.id, '1357');
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(first);
  }, 30_000);

  it('throttles PIN sign-in per terminal: failures spread over users lock the terminal', async () => {
    const c = await register('Throttle C');
    const d = await register('Throttle D');
    for (let i = 0; i < 5; i++) expect((await pin(c.cookie, `guess-${i}`, '2468')).status).toBe(401);
    const r = await pin(c.cookie, who.manager.id, '2580');
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await pin(d.cookie, who.manager.id, '2580')).status).toBe(200);
  });

  it('a revoked terminal opens nothing: no lock list, no PIN sign-in, and its PIN sessions end', async () => {
    const t = await register('Revoked');
    const s = await pinSession(t.cookie, who.cashier2.id, '8642');
    expect((await req(s, 'GET', '/api/v1/payments')).status).toBe(200);
    expect((await req(who.cashier, 'DELETE', `/api/admin/terminals/${t.id}`)).status).toBe(403);
    const del = await req(who.manager, 'DELETE', `/api/admin/terminals/${t.id}`);
    expect(del.status, del.text).toBe(200);
    expect((await req(who.manager, 'DELETE', `/api/admin/terminals/${t.id}`)).status).toBe(409);
    const lock = await req<Partial<LockJson>>(null, 'GET', '/api/pos/lock', undefined, t.cookie);
    expect(lock.status).toBe(403);
    expect(lock.body.users).toBeUndefined();
    expect(lock.text).not.toContain('Staff');
    expect((await pin(t.cookie, who.cashier2.id, '8642')).status).toBe(403);
    expect((await req(s, 'GET', '/api/v1/payments')).status).toBe(401);
    const list = await req<{ terminals: TerminalJson[] }>(who.manager, 'GET', '/api/admin/terminals');
    expect(list.body.terminals.find((x: TerminalJson) => x.id === t.id)?.revoked).toBe(true);
    expect(
      (await req<{ entries: AuditEntryJson[] }>(who.owner, 'GET', '/api/admin/audit')).body.entries.some(
        (e: AuditEntryJson) => e.action === 'terminal.revoke' && e.changes.id === t.id,
      ),
    ).toBe(true);
  });
});
