// The back-office JSON API and pages on the real built app: the role matrix (cashier refused,
// manager where allowed, owner everything), CSRF and same-origin on mutations, page guards,
// exports, and who may call GET /invoices/{address}.
import { beforeAll, describe, expect, it } from 'vitest';
import { REGTEST, parseXpub, deriveAddress } from '@/lib/doge';
import { sharedShop, type SharedShop } from '../helpers/shared-app';
import { testXpub } from '../helpers/keys';
import { signInRoles } from '../helpers/sessions';
import type { Answer } from '../helpers/client';
import type { AuditEntryJson, ErrorJson, InvoiceJson, ListedPaymentJson, ProductJson, UserJson } from '../helpers/json-shapes';

const XPUB = testXpub(204);
const PASSWORD = 'long enough password';
let app: SharedShop;

interface Who {
  cookie: string;
  csrf: string;
}
const who: Record<'owner' | 'manager' | 'cashier', Who> = {} as never;

/** The store's settings as /api/admin/settings answers (the fields read here). */
interface SettingsJson {
  name: string;
  zero_conf_limit: string;
  one_conf_limit: string;
}
/** A new API key: its id, and its secret (shown once). */
interface NewKeyJson {
  id: string;
  secret: string;
}

/** A request as `w` (its CSRF token unless `opts.csrf` says otherwise); `T` is how the test reads the JSON answer. */
async function as<T = unknown>(
  w: Who | null,
  method: string,
  path: string,
  body?: unknown,
  opts: { csrf?: string | null; origin?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (w) headers.Cookie = w.cookie;
  const csrf = opts.csrf === undefined ? w?.csrf : opts.csrf;
  if (csrf && method !== 'GET') headers['X-CSRF-Token'] = csrf;
  if (opts.origin) headers.Origin = opts.origin;
  const r = await fetch(app.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await r.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* csv or html */
  }
  return { status: r.status, body: json as T, text, headers: r.headers };
}

beforeAll(async () => {
  app = await sharedShop('backoffice.test', { xpub: XPUB, password: PASSWORD });
  Object.assign(who, await signInRoles(app.url, app.domain, PASSWORD, ['manager', 'cashier']));
  for (const n of [1, 2]) {
    const r = await fetch(`${app.url}/api/v1/payments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${app.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        items: [{ type: 'item', id: `SKU-${n}`, name: `Thing ${n}`, count: n, unit: '2.5' }],
        vendor_order_id: `ORD-${n}`,
      }),
    });
    expect(r.status).toBe(201);
  }
}, 120_000);

// [method, path, body, least role allowed]
const MATRIX: Array<[string, string, unknown, 'owner' | 'manager']> = [
  ['GET', '/api/admin/settings', undefined, 'manager'],
  ['PATCH', '/api/admin/settings', { name: 'Corner shop' }, 'manager'],
  ['POST', '/api/admin/settings/webhook-secret', {}, 'manager'],
  ['GET', '/api/admin/invoices', undefined, 'manager'],
  ['GET', '/api/admin/invoices/export?format=csv', undefined, 'manager'],
  ['GET', '/api/admin/invoices/export?format=json', undefined, 'manager'],
  ['GET', '/api/admin/products?archived=1', undefined, 'manager'],
  ['GET', '/api/admin/sales?days=7', undefined, 'manager'],
  ['GET', '/api/admin/node', undefined, 'manager'],
  ['GET', '/api/admin/api-keys', undefined, 'owner'],
  ['POST', '/api/admin/api-keys', { name: 'k', scopes: ['payments:read'] }, 'owner'],
  ['GET', '/api/admin/relay-key', undefined, 'owner'],
  ['POST', '/api/admin/relay-key', {}, 'owner'],
  ['GET', '/api/admin/users', undefined, 'owner'],
];

describe('role matrix', () => {
  it.each(MATRIX)('%s %s: refused without a session, to cashiers and below %s', async (method, path, body, least) => {
    expect((await as(null, method, path, body)).status).toBe(401);
    expect((await as(who.cashier, method, path, body)).status).toBe(403);
    const m = await as(who.manager, method, path, body);
    expect(m.status).toBe(least === 'manager' ? (method === 'POST' && path.includes('api-keys') ? 201 : 200) : 403);
    const o = await as(who.owner, method, path, body);
    expect(o.status).toBeGreaterThanOrEqual(200);
    expect(o.status).toBeLessThan(300);
  });

  it('an API key is not a back-office session', async () => {
    const r = await fetch(`${app.url}/api/admin/settings`, { headers: { Authorization: `Bearer ${app.key}` } });
    expect(r.status).toBe(401);
  });

  it('the cashier still reads the live catalog (for the cashier screen) but cannot change it', async () => {
    const p = await as<{ id: string }>(who.manager, 'POST', '/api/admin/products', { sku: 'TEA', name: 'Tea', price: '2' });
    expect(p.status).toBe(201);
    const list = await as<{ products: ProductJson[] }>(who.cashier, 'GET', '/api/admin/products');
    expect(list.status).toBe(200);
    expect(list.body.products.map((x: ProductJson) => x.sku)).toContain('TEA');
    expect((await as(who.cashier, 'POST', '/api/admin/products', { sku: 'X', name: 'X', price: '1' })).status).toBe(403);
    expect((await as(who.cashier, 'PATCH', `/api/admin/products/${p.body.id}`, { archived: true })).status).toBe(403);
    expect(
      (await as<{ archived: boolean }>(who.manager, 'PATCH', `/api/admin/products/${p.body.id}`, { archived: true })).body.archived,
    ).toBe(true);
  });

  it('only owners manage users; the last owner cannot be demoted', async () => {
    const users = (await as<{ users: UserJson[] }>(who.owner, 'GET', '/api/admin/users')).body.users;
    const owner = users.find((u) => u.email === 'owner@backoffice.test');
    const cashier = users.find((u) => u.email === 'cashier@backoffice.test');
    expect((await as(who.manager, 'PATCH', `/api/admin/users/${cashier?.id}`, { role: 'owner' })).status).toBe(403);
    const last = await as<ErrorJson>(who.owner, 'PATCH', `/api/admin/users/${owner?.id}`, { role: 'manager' });
    expect(last.status).toBe(409);
    expect(last.body.message).toMatch(/at least one active owner/);
    expect((await as(who.owner, 'POST', '/api/admin/users', { email: 'x@backoffice.test', password: PASSWORD, role: 'root' })).status).toBe(
      400,
    );
  });
});

describe('CSRF and origin', () => {
  it('refuses mutations without the token, with a wrong one, or from another origin', async () => {
    expect((await as(who.owner, 'PATCH', '/api/admin/settings', { name: 'x' }, { csrf: null })).status).toBe(403);
    expect((await as(who.owner, 'PATCH', '/api/admin/settings', { name: 'x' }, { csrf: who.manager.csrf })).status).toBe(403);
    expect((await as(who.owner, 'POST', '/api/admin/relay-key', {}, { origin: 'https://evil.test' })).status).toBe(403);
    const ok = await as<SettingsJson>(who.owner, 'PATCH', '/api/admin/settings', { name: 'Shop with CSRF' }, { origin: app.url });
    expect(ok.status).toBe(200);
    expect(ok.body.name).toBe('Shop with CSRF');
  });

  it('validates bodies and bounds their size', async () => {
    const bad = await as<ErrorJson>(who.owner, 'PATCH', '/api/admin/settings', { store_xpub: 'tpubnope' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'invalid_request' });
    expect(bad.body.message).toMatch(/^store_xpub:/);
    const big = await as(who.owner, 'POST', '/api/admin/products', { sku: 'BIG', name: 'Big', price: '1', icon: 'x'.repeat(300_000) });
    expect(big.status).toBe(413);
    const notJson = await fetch(`${app.url}/api/admin/settings`, {
      method: 'PATCH',
      headers: { Cookie: who.owner.cookie, 'X-CSRF-Token': who.owner.csrf },
      body: '{',
    });
    expect(notJson.status).toBe(400);
  });
});

describe('pages', () => {
  it('a cashier is refused the settings page; a manager sees it without owner-only panels', async () => {
    const c = await as(who.cashier, 'GET', '/admin/settings');
    expect(c.status).toBe(307);
    expect(c.headers.get('location')).toMatch(/\/pos\?denied=1$/);
    const m = await as(who.manager, 'GET', '/admin/settings');
    expect(m.status).toBe(200);
    // the page's own content: its scripts carry every message of the back office
    const mine = (html: string) => html.replace(/<script\b[\s\S]*?<\/script>/g, '');
    expect(mine(m.text)).toContain('Receiving wallet');
    expect(mine(m.text)).toContain('Only an owner can manage API keys');
    expect(mine(m.text)).not.toContain('Relay signing key');
    const secret = (await as<{ secret: string }>(who.manager, 'POST', '/api/admin/settings/webhook-secret', {})).body.secret;
    expect(secret).toMatch(/^whsec_/);
    const o = await as(who.owner, 'GET', '/admin/settings');
    expect(mine(o.text)).toContain('Relay signing key');
    expect(mine(o.text)).not.toContain('Only an owner can manage API keys');
    expect(o.text).not.toContain(secret); // shown masked only
    expect(o.text).toContain(`whsec_••••••••${secret.slice(-2)}`);
    expect((await as(who.owner, 'GET', '/api/admin/settings')).text).not.toContain(secret);
    // A manager's Users page sets cashiers' PINs only: no owner controls (docs/counter.md#staff-pins).
    const mu = await as(who.manager, 'GET', '/admin/users');
    expect(mu.status).toBe(200);
    expect(mine(mu.text)).not.toContain('Add user');
    const anon = await as(null, 'GET', '/admin/invoices');
    expect(anon.status).toBe(307);
    expect(anon.headers.get('location')).toMatch(/\/login\?next=%2Fadmin%2Finvoices$/);
  });

  it('renders every back-office page for the owner', async () => {
    for (const p of [
      '/admin',
      '/admin/invoices',
      '/admin/invoices?status=unpaid&q=ORD',
      '/admin/catalog',
      '/admin/settings',
      '/admin/users',
      '/admin/node',
    ]) {
      const r = await as(who.owner, 'GET', p);
      expect(r.status, p).toBe(200);
    }
    const first = (await as<{ invoices: (InvoiceJson & { address: string })[] }>(who.owner, 'GET', '/api/admin/invoices?limit=1')).body
      .invoices[0];
    const detail = await as(who.owner, 'GET', `/admin/invoices/${first.id}`);
    expect(detail.status).toBe(200);
    expect(detail.text.replace(/<script\b[\s\S]*?<\/script>/g, '')).toContain('Event deliveries');
    expect(detail.text).toContain(first.address);
    expect((await as(who.owner, 'GET', '/admin/invoices/no-such-invoice')).status).toBe(404);
    const list = await as(who.owner, 'GET', '/admin/invoices?q=ORD-2');
    expect(list.text).toContain('ORD-2');
    expect(list.text).not.toContain('ORD-1<');
  });
});

describe('export', () => {
  it('CSV rows match the vendor API', async () => {
    const api = await (await fetch(`${app.url}/api/v1/payments`, { headers: { Authorization: `Bearer ${app.key}` } })).json();
    const csv = await as(who.manager, 'GET', '/api/admin/invoices/export?format=csv');
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="invoices-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [head, ...rows] = csv.text.trimEnd().split('\r\n');
    const cols = head.split(',');
    expect(rows).toHaveLength(api.payments.length);
    rows.forEach((line, i) => {
      const row = Object.fromEntries(line.split(',').map((v, j) => [cols[j], v]));
      const p = api.payments[i];
      expect(row).toMatchObject({
        id: p.id,
        status: p.status,
        total: p.total,
        created_at: p.created_at,
        address: p.payment.outputs[0].address,
        vendor_order_id: p.payment.vendor_order_id,
      });
    });
    const json = await as<{ invoices: InvoiceJson[] }>(who.manager, 'GET', '/api/admin/invoices/export?format=json&status=unpaid');
    expect(json.body.invoices.map((p: InvoiceJson) => p.id)).toEqual(api.payments.map((p: ListedPaymentJson) => p.id));
    expect((await as(who.manager, 'GET', '/api/admin/invoices/export?format=xml')).status).toBe(400);
  });
});

describe('GET /invoices/{address} access', () => {
  const seller = deriveAddress(parseXpub(XPUB, REGTEST), 0, REGTEST);
  it('an owner session may list; managers, cashiers and keys without invoices:read may not', async () => {
    const o = await as<{ total: number }>(who.owner, 'GET', `/invoices/${seller}`);
    expect(o.status).toBe(200);
    expect(o.body.total).toBe(2);
    expect((await as(who.manager, 'GET', `/invoices/${seller}`)).status).toBe(403);
    expect((await as(who.cashier, 'GET', `/invoices/${seller}`)).status).toBe(403);
    expect((await as(null, 'GET', `/invoices/${seller}`)).status).toBe(401);
    const k = await as<NewKeyJson>(who.owner, 'POST', '/api/admin/api-keys', { name: 'payments only', scopes: ['payments:read'] });
    const r = await fetch(`${app.url}/invoices/${seller}`, { headers: { Authorization: `Bearer ${k.body.secret}` } });
    expect(r.status).toBe(403);
    const inv = await as<NewKeyJson>(who.owner, 'POST', '/api/admin/api-keys', { name: 'invoices', scopes: ['invoices:read'] });
    const ok = await fetch(`${app.url}/invoices/${seller}?limit=1`, { headers: { Authorization: `Bearer ${inv.body.secret}` } });
    expect(ok.status).toBe(200);
    expect((await ok.json()).invoices).toHaveLength(1);
    // Revoked keys stop working at once.
    expect((await as(who.owner, 'DELETE', `/api/admin/api-keys/${inv.body.id}`)).status).toBe(200);
    expect((await fetch(`${app.url}/invoices/${seller}`, { headers: { Authorization: `Bearer ${inv.body.secret}` } })).status).toBe(401);
  });
});

describe('store settings refuse control characters', () => {
  it.each([
    ['name', 'Corner\u001b[31m shop\u0007'],
    ['name', 'Bell\u0007'],
    ['address', '1 Main St\r\n\u001b[2JSpringfield'],
    ['address', '1 Main St\rSpringfield'],
    ['address', 'Tab\there'],
    ['url', 'https://shop.example/\u0000'],
    ['url', 'https://shop.example/\tx'],
    ['smtp_from', 'Shop <r@shop.example>\u001b'],
    ['name', 'C1\u0085next'],
    ['name', 'DEL\u007f'],
  ])('%s = %j: 400 naming the field, and nothing saved', async (field, value) => {
    const before = (await as(who.owner, 'GET', '/api/admin/settings')).body;
    const r = await as(who.owner, 'PATCH', '/api/admin/settings', { [field]: value });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      error: 'invalid_request',
      message: expect.stringMatching(new RegExp(`^${field}: must not contain control characters`)),
    });
    expect((await as(who.owner, 'GET', '/api/admin/settings')).body).toEqual(before);
  });

  it('a line feed in the postal address is kept, and signed into the envelope as vendor_address', async () => {
    const r = await as(who.owner, 'PATCH', '/api/admin/settings', { name: 'Corner shop', address: '1 Main St\nSpringfield' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'Corner shop', address: '1 Main St\nSpringfield' });
    const p = await fetch(`${app.url}/api/v1/payments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${app.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ items: [{ type: 'item', id: 'A', name: 'A', count: 1, unit: '1' }] }),
    });
    expect(p.status).toBe(201);
    expect((await p.json()).payment).toMatchObject({ vendor_name: 'Corner shop', vendor_address: '1 Main St\nSpringfield' });
  });
});

describe("the risk policy's limits are the owner's", () => {
  it('a manager who tries to make every sale 0-conf gets 403; the limits stay as they were', async () => {
    const before = (await as<SettingsJson>(who.owner, 'GET', '/api/admin/settings')).body;
    for (const patch of [
      { zero_conf_limit: '1000000000', one_conf_limit: '1000000000' },
      { zero_conf_limit: '1000000000' },
      { one_conf_limit: '0' },
      { zero_conf_limit: 'lots' },
    ]) {
      const r = await as(who.manager, 'PATCH', '/api/admin/settings', patch);
      expect(r.status, JSON.stringify(patch)).toBe(403);
      expect(r.body).toMatchObject({
        error: 'forbidden',
        message: expect.stringMatching(/^(zero|one)_conf_limit: only the owner changes the risk policy's limits/),
      });
    }
    const after = (await as<SettingsJson>(who.owner, 'GET', '/api/admin/settings')).body;
    expect([after.zero_conf_limit, after.one_conf_limit]).toEqual([before.zero_conf_limit, before.one_conf_limit]);
    // the settings form sends every field back: unchanged limits (however written) are no change
    const form = await as<SettingsJson>(who.manager, 'PATCH', '/api/admin/settings', {
      name: 'Managed shop',
      zero_conf_limit: before.zero_conf_limit,
      one_conf_limit: `${before.one_conf_limit}.000`,
    });
    expect(form.status).toBe(200);
    expect(form.body.name).toBe('Managed shop');
    // the owner changes them, and the change is audited
    const owner = await as(who.owner, 'PATCH', '/api/admin/settings', { zero_conf_limit: '5', one_conf_limit: '5000' });
    expect(owner.status).toBe(200);
    expect(owner.body).toMatchObject({ zero_conf_limit: '5', one_conf_limit: '5000' });
    const audit = (await as<{ entries: AuditEntryJson[] }>(who.owner, 'GET', '/api/admin/audit')).body.entries;
    expect(audit[0]).toMatchObject({ action: 'settings.update', changes: { zero_conf_limit: expect.anything() } });
  });
});
