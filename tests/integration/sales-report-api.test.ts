// GET /api/v1/reports/sales on the real built app (PGlite, devnet chain): who may read it (reports:read keys,
// owner and manager sessions; a cashier only its own sales; no scope → 403), strict 400s for
// bad periods and zones, the CSV download, agreement with the invoice export for sales made
// through the API by several cashiers, a manager and a key, and the two pages (/admin/reports,
// /pos/shift).
import { beforeAll, describe, expect, it } from 'vitest';
import { testXpub } from '../helpers/keys';
import { sharedShop, type SharedShop } from '../helpers/shared-app';
import { signIn } from '../helpers/sessions';
import { request } from '../helpers/client';
import type { ErrorJson, InvoiceJson, SalesReportJson } from '../helpers/json-shapes';

const TPUB = testXpub(17);
const PASSWORD = 'report suite password 7';

interface Who {
  cookie: string;
  csrf: string;
}
type Role = 'owner' | 'manager' | 'cashier' | 'cashier2';

let app: SharedShop;
const who = {} as Record<Role, Who>;

/** A request as a signed-in role, with an API key, or as nobody; `T` is how the test reads the JSON answer. */
const as = <T = unknown>(w: Role | { key: string } | null, method: string, path: string, body?: unknown) =>
  request<T>(app.url, w && typeof w === 'object' ? w : w ? who[w] : null, method, path, body);

const login = (email: string): Promise<Who> => signIn(app.url, email, PASSWORD);

async function key(scopes: string[]): Promise<{ key: string }> {
  const r = await as<{ secret: string }>('owner', 'POST', '/api/admin/api-keys', { name: scopes.join(' '), scopes });
  expect(r.status, r.text).toBe(201);
  return { key: r.body.secret };
}

const sale = (i: number) => ({
  items: [
    { type: 'item', id: `SKU-${i % 3}`, name: ['Coffee', 'Tea', 'Cake'][i % 3], count: 1 + (i % 2), unit: '2.5', tax: '0.175' },
    ...(i % 4 === 0 ? [{ type: 'donation', id: 'tip', name: 'Tip', count: 1, unit: '0.5' }] : []),
    ...(i % 5 === 0 ? [{ type: 'discount', id: 'discount', name: 'Discount', count: 1, unit: '-0.25' }] : []),
  ],
});

let from = '';
let to = '';
const made: Record<string, string[]> = { cashier: [], cashier2: [], manager: [], key: [] };

beforeAll(async () => {
  app = await sharedShop('report.test', { xpub: TPUB, password: PASSWORD });
  who.owner = await login('owner@report.test');
  for (const [role, email] of [
    ['manager', 'manager@report.test'],
    ['cashier', 'cashier@report.test'],
    ['cashier2', 'cashier2@report.test'],
  ] as const) {
    const r = await as('owner', 'POST', '/api/admin/users', {
      email,
      password: PASSWORD,
      role: role === 'cashier2' ? 'cashier' : role,
      name: role,
    });
    expect(r.status, r.text).toBe(201);
    who[role] = await login(email);
  }
  from = new Date(Date.now() - 60_000).toISOString();
  const writer = await key(['payments:write']);
  let i = 0;
  for (const [w, n] of [
    ['cashier', 7],
    ['cashier2', 4],
    ['manager', 3],
    ['key', 3],
  ] as const) {
    for (let j = 0; j < n; j++, i++) {
      const r = await as<{ id: string }>(w === 'key' ? writer : w, 'POST', '/api/v1/payments', sale(i));
      expect(r.status, r.text).toBe(201);
      made[w].push(r.body.id);
    }
  }
  // Some are cancelled (declined) by their own cashier.
  for (const id of [made.cashier[0], made.cashier[1], made.cashier2[0]]) {
    const c = await as(made.cashier.includes(id) ? 'cashier' : 'cashier2', 'POST', `/api/v1/payments/${id}/cancel`, {});
    expect(c.status, c.text).toBe(200);
  }
  to = new Date(Date.now() + 60_000).toISOString();
}, 180_000);

const q = (extra: Record<string, string> = {}) =>
  `/api/v1/reports/sales?${new URLSearchParams({ from, to, tz: 'Europe/Berlin', ...extra })}`;

describe('who may read the report', () => {
  it('nobody signed in: 401; a key without reports:read: 403; a key with it, the owner and a manager: the whole store', async () => {
    expect((await as(null, 'GET', q())).status).toBe(401);
    const noScope = await as(await key(['payments:read', 'invoices:read']), 'GET', q());
    expect(noScope.status).toBe(403);
    expect(noScope.body).toMatchObject({ error: 'forbidden', message: expect.stringContaining('reports:read') });
    const withScope = await as<SalesReportJson>(await key(['reports:read']), 'GET', q());
    expect(withScope.status, withScope.text).toBe(200);
    expect(withScope.body.scope).toBe('store');
    expect(withScope.body.by_status.unpaid.count + withScope.body.by_status.declined.count).toBe(17);
    for (const w of ['owner', 'manager'] as const) {
      const r = await as(w, 'GET', q());
      expect(r.status).toBe(200);
      expect(r.body).toEqual(withScope.body);
    }
    // mine=1 with a key has no "mine"; it is the store's report only for sessions.
    expect((await as({ key: app.key }, 'GET', q({ mine: '1' }))).status).toBe(200);
  });

  it("a cashier gets its own sales only, never another's, whatever it asks", async () => {
    const r = await as<SalesReportJson>('cashier', 'GET', q());
    expect(r.status, r.text).toBe(200);
    expect(r.body.scope).toBe('own_sales');
    expect(r.body.by_status.declined.count).toBe(2);
    expect(r.body.by_status.unpaid.count).toBe(5);
    const r2 = await as<SalesReportJson>('cashier2', 'GET', q());
    expect(r2.body.by_status.declined.count).toBe(1);
    expect(r2.body.by_status.unpaid.count).toBe(3);
    // A manager may ask for its own shift with mine=1.
    const m = await as<SalesReportJson>('manager', 'GET', q({ mine: '1' }));
    expect(m.body.scope).toBe('own_sales');
    expect(m.body.by_status.unpaid.count).toBe(3);
    // The cashier's CSV holds no one else's lines (it has no paid sales: header only).
    const csv = await as('cashier2', 'GET', q({ format: 'csv' }));
    expect(csv.status).toBe(200);
    expect(csv.text.trim().split('\r\n')).toHaveLength(1);
  });
});

describe('the figures', () => {
  it('match the invoice export for the same period, status by status', async () => {
    const rep = (await as<SalesReportJson>('manager', 'GET', q())).body;
    const ex = await as<{ invoices: InvoiceJson[] }>(
      'manager',
      'GET',
      `/api/admin/invoices/export?${new URLSearchParams({ from, to, format: 'json' })}`,
    );
    expect(ex.status, ex.text).toBe(200);
    const inv = ex.body.invoices;
    expect(inv).toHaveLength(17);
    const koinu = (s: string) => BigInt(Math.round(Number(s) * 1e8)); // test-only, amounts here are exact in a double
    for (const st of ['unpaid', 'accepted', 'confirmed', 'declined']) {
      const of = inv.filter((p) => p.status === st);
      expect(rep.by_status[st].count, st).toBe(of.length);
      expect(koinu(rep.by_status[st].amount), st).toBe(of.reduce((a, p) => a + koinu(p.total), 0n));
    }
    // Nothing is paid on this chainless store: no sales yet, every day listed with zero.
    expect(rep.totals).toMatchObject({ count: 0, gross: '0', refunds: '0', net: '0', fiat: null });
    expect(rep.by_day.length).toBeGreaterThanOrEqual(1);
    expect(rep.tz).toBe('Europe/Berlin');
    expect(rep.from).toBe(from);
  });

  it('CSV: a download with the right type and name', async () => {
    const r = await as({ key: app.key }, 'GET', `/api/v1/reports/sales?from=2026-11-01&to=2026-11-03&tz=UTC&format=csv`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="sales-2026-11-01-2026-11-02.csv"');
    expect(r.text.split('\r\n')[0]).toBe(
      'payment_id,time,cashier,status,exception,line_type,item_id,name,count,unit,tax,line_total,tender,terminal,category',
    );
  });
});

describe('bad input is a 400 naming the field, never a 500', () => {
  it.each([
    ['tz=Mars%2FOlympus', 'tz'],
    ['tz=Europe%2FBerlin%00', 'tz'],
    ['from=2026-02-30&to=2026-03-02', 'from'],
    ['from=%00&to=2026-03-02', 'from'],
    ['from=2016-12-31T23:59:60Z&to=2017-01-02', 'from'],
    ['from=0000-01-01&to=2026-01-01', 'from'],
    ['from=2026-03-02&to=2026-03-02', 'to'],
    ['from=2026-03-02&to=2026-03-01', 'to'],
    ['from=2024-01-01&to=2026-01-01', 'to'],
    ['from=2026-03-01', 'to'],
    ['from=2026-03-01&to=2026-03-02&format=xml', 'format'],
    ['mine=2', 'mine'],
  ])('%s', async (qs, field) => {
    const r = await as<ErrorJson>('manager', 'GET', `/api/v1/reports/sales?${qs}`);
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toBe('invalid_request');
    expect(r.body.message.startsWith(`${field}:`), r.body.message).toBe(true);
  });
});

describe('pages', () => {
  it('the end-of-day report is for owners and managers; a cashier is sent back to the till', async () => {
    const m = await as('manager', 'GET', '/admin/reports');
    expect(m.status).toBe(200);
    expect(m.text).toContain('End-of-day report');
    expect(m.text).toContain('data-testid="eod-report"');
    expect((await as('manager', 'GET', '/admin/reports?day=2026-11-01')).text).toContain('2026-11-01');
    const c = await as('cashier', 'GET', '/admin/reports');
    expect(c.status).toBe(307);
    expect(c.headers.get('location')).toContain('/pos?denied=1');
  });

  it("My shift shows the signed-in cashier's own day", async () => {
    const r = await as('cashier', 'GET', '/pos/shift');
    expect(r.status).toBe(200);
    expect(r.text).toContain('My shift');
    expect(r.text).toContain('data-testid="shift-count">0<');
    expect((await as(null, 'GET', '/pos/shift')).status).toBe(307);
  });
});
