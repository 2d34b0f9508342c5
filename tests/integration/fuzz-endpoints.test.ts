// Property-based hardening of every JSON endpoint body on the real built app (embedded PGlite):
// random JSON, mutated valid bodies and non-JSON text must never get a 5xx (the relay's 503 is
// reserved for an unreachable chain backend, which these bodies never reach) or crash the app.
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sharedShop, type SharedShop } from '../helpers/shared-app';
import { testXpub } from '../helpers/keys';
import { request } from '../helpers/client';
import { signIn, type Session } from '../helpers/sessions';
import { bodyText, mutateJson, never5xx } from '../helpers/json-fuzz';

const OWNER = { email: 'owner@fuzz.test', password: 'fuzz owner password' };
let app: SharedShop;
let payment: { id: string };

const VALID_CREATE = {
  items: [
    { type: 'item', id: 'SKU-1', name: 'Coffee', count: 2, unit: '10.5', tax: '1.05', desc: '', icon: '' },
    { type: 'fee', id: 'svc', name: 'Service', count: 1, unit: '1' },
    { type: 'discount', id: 'd', name: 'D', count: 1, unit: '-0.5' },
  ],
  outputs: [{ type: 'data', data: '68656c6c6f' }],
  vendor_order_id: 'INV-42',
  fiat_total: '5.00',
  fiat_currency: 'USD',
  timeout: 900,
  required_confirmations: 1,
  meta: { 'com.example.table': '7' },
};

async function post(path: string, body: string, headers: Record<string, string> = {}) {
  const r = await fetch(app.url + path, {
    method: 'POST',
    body,
    headers: { Authorization: `Bearer ${app.key}`, 'Content-Type': 'application/json', ...headers },
  });
  const text = await r.text();
  return { status: r.status, text };
}

const RUNS = { numRuns: 120 };

beforeAll(async () => {
  app = await sharedShop('fuzz.test', { xpub: testXpub(205), password: OWNER.password });
  const r = await post('/api/v1/payments', JSON.stringify(VALID_CREATE));
  if (r.status !== 201) throw new Error(r.text);
  expect(r.status).toBe(201);
  payment = JSON.parse(r.text);
});

describe('JSON endpoint bodies under random and mutated input', () => {
  it('POST /api/v1/payments: never 5xx; answers 201, 400 or 409', async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          bodyText,
          mutateJson(VALID_CREATE).map((v) => JSON.stringify(v)),
        ),
        fc.option(fc.string({ maxLength: 30 })),
        async (body, idem) => {
          const headers: Record<string, string> = {};
          if (idem !== null && /^[\t\x20-\x7e]*$/.test(idem)) headers['Idempotency-Key'] = idem;
          const r = await post('/api/v1/payments', body, headers);
          never5xx(r, body);
          statuses.add(r.status);
          // 403: a mutation that asks for a field the (owner-scoped) key may not set.
          expect([201, 400, 403, 409]).toContain(r.status);
          if (r.status === 400) expect(JSON.parse(r.text)).toMatchObject({ error: 'invalid_request', message: expect.any(String) });
          if (r.status === 403) expect(JSON.parse(r.text)).toMatchObject({ error: 'forbidden', message: expect.any(String) });
        },
      ),
      { numRuns: 300 },
    );
    expect(statuses.has(400)).toBe(true);
  });

  it('POST /api/v1/payments: a NUL or other control character in any string is 400 naming that field', async () => {
    const control = fc
      .integer({ min: 0, max: 0x9f })
      .filter((c) => c < 0x20 || c >= 0x7f)
      .map((c) => String.fromCharCode(c));
    const field = fc.constantFrom<(string | number)[]>(
      ['items', 0, 'name'],
      ['items', 0, 'id'],
      ['items', 0, 'desc'],
      ['items', 1, 'name'],
      ['vendor_order_id'],
      ['note'],
      ['order_reference'],
      ['pending_token_balance_id'],
      ['meta', 'com.example.table'],
    );
    await fc.assert(
      fc.asyncProperty(field, control, fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), async (path, c, before, after) => {
        const body = structuredClone(VALID_CREATE) as Record<string, unknown>;
        let node = body;
        for (const k of path.slice(0, -1)) node = node[k] as Record<string, unknown>;
        node[path[path.length - 1]] = `${before}${c}${after}`;
        const r = await post('/api/v1/payments', JSON.stringify(body));
        never5xx(r, body);
        expect(r.status, r.text).toBe(400);
        const want = path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i ? `.${k}` : k)).join('');
        const j = JSON.parse(r.text);
        expect(j.error).toBe('invalid_request');
        expect(j.message.startsWith(`${want}:`), j.message).toBe(true);
      }),
      RUNS,
    );
  });

  it('POST /api/v1/payments: line arithmetic beyond MAX_MONEY or int64 is 400, never 5xx', async () => {
    const digits = fc.integer({ min: 1, max: 11 }).chain((n) => fc.stringMatching(new RegExp(`^[1-9][0-9]{${n - 1}}$`)));
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000_000 }),
        digits,
        fc.integer({ min: 0, max: 1_000_000 }),
        digits,
        async (count, unit, dCount, dUnit) => {
          const items: unknown[] = [{ type: 'item', id: 'a', name: 'A', count, unit }];
          if (dCount > 0) items.push({ type: 'discount', id: 'd', name: 'D', count: dCount, unit: `-${dUnit}` });
          const body = { items };
          const r = await post('/api/v1/payments', JSON.stringify(body));
          never5xx(r, body);
          expect([201, 400]).toContain(r.status);
          const total = BigInt(count) * BigInt(unit) - BigInt(dCount) * BigInt(dUnit);
          const fits = BigInt(count) * BigInt(unit) <= 10n ** 10n && BigInt(dCount) * BigInt(dUnit) <= 10n ** 10n;
          expect(r.status, `${JSON.stringify(body)}: ${r.text}`).toBe(fits && total >= 1n ? 201 : 400);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('POST /relay/status: never 5xx', async () => {
    const bodies = fc.oneof(
      bodyText,
      mutateJson({ id: payment.id }).map((v) => JSON.stringify(v)),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const r = await post('/relay/status', body);
        never5xx(r, body);
        expect([200, 404]).toContain(r.status);
      }),
      RUNS,
    );
  });

  it('POST /relay/pay: never 5xx for bodies that do not reach the chain backend', async () => {
    const good = { id: payment.id, tx: '0100000000000000000000', refund: '' };
    const hexish = fc.array(fc.constantFrom(...'0123456789abcdefABCDEFxyz '.split('')), { maxLength: 400 }).map((a) => a.join(''));
    const bodies = fc.oneof(
      bodyText,
      mutateJson(good).map((v) => JSON.stringify(v)),
      fc
        .record({ tx: hexish, refund: fc.oneof(fc.string({ maxLength: 40 }), fc.constant('')) })
        .map((v) => JSON.stringify({ ...good, ...v })),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const r = await post('/relay/pay', body);
        never5xx(r, body);
        expect([400, 403, 404]).toContain(r.status);
        const j = JSON.parse(r.text);
        expect(typeof j.error === 'string' || typeof j.status === 'string').toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('POST /api/v1/payments/<id>/mark and /receipt with random bodies: never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.json(), fc.string()), fc.constantFrom('mark', 'receipt'), async (body, what) => {
        const r = await post(`/api/v1/payments/${payment.id}/${what}`, body);
        never5xx(r, body);
        expect([400, 409, 413], `${what} ${body}: ${r.status} ${r.text}`).toContain(r.status);
      }),
      RUNS,
    );
  });

  it('POST /api/v1/payments/<id>/refunds and the till charge-again route with random bodies: never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        bodyText,
        fc.constantFrom(`/api/v1/payments/${payment.id}/refunds`, `/api/pos/sales/${payment.id}/charge-again`),
        async (body, path) => {
          const r = await post(path, body);
          never5xx(r, { body, path });
          expect(r.status, `${path} ${body}: ${r.status} ${r.text.slice(0, 200)}`).toBeGreaterThanOrEqual(200);
        },
      ),
      RUNS,
    );
  });

  it('POST /api/v1/payments/<id>/cancel with random bodies and ids: never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(bodyText, fc.string({ maxLength: 40 }), async (body, id) => {
        const r = await post(`/api/v1/payments/${encodeURIComponent(id) || 'x'}/cancel`, body);
        never5xx(r, { body, id });
      }),
      RUNS,
    );
  });

  it('GET query strings of the list endpoints: never 5xx', async () => {
    const q = fc.dictionary(
      fc.constantFrom('status', 'from', 'to', 'limit', 'cursor', 'after', 'x'),
      fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String)),
      { maxKeys: 4 },
    );
    await fc.assert(
      fc.asyncProperty(q, fc.constantFrom('/api/v1/payments', '/api/v1/events'), async (params, path) => {
        const r = await fetch(`${app.url}${path}?${new URLSearchParams(params)}`, { headers: { Authorization: `Bearer ${app.key}` } });
        const t = await r.text();
        never5xx({ status: r.status, text: t }, params);
        expect([200, 400]).toContain(r.status);
      }),
      RUNS,
    );
  });

  it('the app is still healthy afterwards', async () => {
    expect((await fetch(app.url + '/api/health')).status).toBe(200);
    expect(app.logs()).not.toMatch(/unhandled error in route/);
  });
});

// ---------------------------------------------------------------------------------------------
// Values the database cannot store, on every route under app/ that takes input (docs/security.md): a NUL
// character in any stored string, id or search text (the sign-in email included), integers past
// int64 in cursors and event numbers, and dates PostgreSQL refuses (year 0, negative years, a
// leap second). Each is a 400 invalid_request (or a 401/404 where the route answers that first),
// never a 5xx.

const NUL = 'a\u0000b';
const INT64_OVER = '9999999999999999999';
const cursorOf = (seq: string) => Buffer.from(`p:${seq}`).toString('base64url');
const BAD_DATES = [
  '0000-01-01',
  '0000-01-01T00:00:00Z',
  '2020-12-31T23:59:60Z',
  '-001000-01-01',
  '-001000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
];

describe('NUL, int64 overflow and impossible dates on every route that takes input', () => {
  let owner: Session;
  beforeAll(async () => {
    owner = await signIn(app.url, OWNER.email, OWNER.password);
  });
  const send = (method: string, path: string, body?: unknown, who: 'key' | 'owner' | 'none' = 'owner') =>
    request(app.url, who === 'key' ? { key: app.key } : who === 'owner' ? owner : null, method, path, body);
  const invalid = (r: { status: number; text: string }, what: unknown) => {
    never5xx(r, what);
    expect(r.status, JSON.stringify(what)).toBe(400);
    expect(JSON.parse(r.text)).toMatchObject({ error: 'invalid_request' });
  };

  it('query parameters: cursor, after, from, to, q, limit, page', async () => {
    const cases: [string, 'key' | 'owner'][] = [
      [`/api/v1/events?after=${INT64_OVER}`, 'key'],
      [`/api/v1/events?after=9223372036854775808`, 'key'],
      [`/api/v1/payments?cursor=${cursorOf(INT64_OVER)}`, 'key'],
      [`/api/admin/invoices?cursor=${cursorOf(INT64_OVER)}`, 'owner'],
      [`/api/admin/invoices?q=${encodeURIComponent(NUL)}`, 'owner'],
      [`/api/admin/invoices/export?format=csv&q=${encodeURIComponent(NUL)}`, 'owner'],
      [`/api/v1/reports/sales?from=2026-01-01&to=2026-01-02&tz=${encodeURIComponent(NUL)}`, 'owner'],
      ['/api/v1/reports/sales?from=2026-01-01&to=2026-01-02&tz=Mars%2FOlympus_Mons', 'owner'],
      ['/api/v1/reports/sales?from=2026-02-30&to=2026-03-01', 'owner'],
      ['/api/v1/reports/sales?from=2026-03-01&to=2026-02-01', 'owner'], // to before from
      [`/api/v1/reports/sales?from=2026-01-01&to=2026-01-02&format=${encodeURIComponent(NUL)}`, 'owner'],
      [`/api/admin/audit?limit=${INT64_OVER}`, 'owner'],
      [`/api/admin/sales?days=${INT64_OVER}`, 'owner'],
      ...BAD_DATES.flatMap((d): [string, 'key' | 'owner'][] => [
        [`/api/v1/reports/sales?from=${encodeURIComponent(d)}&to=2026-01-02`, 'owner'],
        [`/api/v1/reports/sales?from=2026-01-01&to=${encodeURIComponent(d)}`, 'owner'],
      ]),
      ...BAD_DATES.flatMap((d): [string, 'key' | 'owner'][] =>
        ['from', 'to'].flatMap((k): [string, 'key' | 'owner'][] => [
          [`/api/v1/payments?${k}=${encodeURIComponent(d)}`, 'key'],
          [`/api/admin/invoices?${k}=${encodeURIComponent(d)}`, 'owner'],
          [`/api/admin/invoices/export?format=json&${k}=${encodeURIComponent(d)}`, 'owner'],
        ]),
      ),
    ];
    for (const [path, who] of cases) invalid(await send('GET', path, undefined, who), path);
  });

  it('path ids: payments, invoices, products, users, keys, events, envelopes, the invoice listing', async () => {
    const id = encodeURIComponent(NUL);
    for (const [method, path, who, ok] of [
      ['GET', `/api/v1/payments/${id}`, 'key', [400, 404]],
      ['POST', `/api/v1/payments/${id}/cancel`, 'key', [400, 404]],
      ['POST', `/api/v1/payments/${id}/mark`, 'key', [400, 404]],
      ['POST', `/api/v1/payments/${id}/receipt`, 'key', [400, 404]],
      ['GET', `/api/v1/payments/${id}/refunds`, 'key', [400, 404]],
      ['POST', `/api/v1/payments/${id}/refunds`, 'key', [400, 404]],
      ['POST', `/api/pos/sales/${id}/charge-again`, 'key', [400, 404]],
      ['GET', `/api/admin/invoices/${id}`, 'owner', [400, 404]],
      ['PATCH', `/api/admin/products/${id}`, 'owner', [400, 404]],
      ['PATCH', `/api/admin/users/${id}`, 'owner', [400, 404]],
      ['DELETE', `/api/admin/api-keys/${id}`, 'owner', [400, 404]],
      ['POST', `/api/admin/events/${INT64_OVER}/redeliver`, 'owner', [400]],
      ['POST', `/api/admin/events/${id}/redeliver`, 'owner', [400]],
      ['GET', `/dc/${id}`, 'none', [400, 404]],
      ['GET', `/invoices/${id}`, 'key', [400]],
    ] as const) {
      const r = await send(method, path, method === 'PATCH' ? { name: 'x' } : undefined, who);
      never5xx(r, path);
      expect(ok as readonly number[], `${method} ${path}: ${r.status} ${r.text.slice(0, 200)}`).toContain(r.status);
    }
  });

  it('JSON bodies: every stored string field with a NUL', async () => {
    const cases: [string, string, unknown, 'key' | 'owner' | 'none'][] = [
      ['POST', '/api/auth/login', { email: `x${NUL}@shop.test`, password: 'whatever password' }, 'none'],
      ['POST', '/api/auth/setup', { code: NUL, email: `x${NUL}@shop.test`, password: 'whatever password' }, 'none'],
      ['POST', '/api/admin/users', { email: `u${NUL}@shop.test`, password: 'a fine long password', role: 'cashier' }, 'owner'],
      ['POST', '/api/admin/users', { email: 'u2@shop.test', name: NUL, password: 'a fine long password', role: 'cashier' }, 'owner'],
      ['POST', '/api/admin/products', { sku: 'SKU-NUL', name: NUL, price: '1' }, 'owner'],
      ['POST', '/api/admin/products', { sku: 'SKU-NUL2', name: 'ok', description: NUL, price: '1' }, 'owner'],
      ['POST', '/api/admin/api-keys', { name: NUL, scopes: ['payments:read'] }, 'owner'],
      ['PATCH', '/api/admin/settings', { name: NUL }, 'owner'],
      ['PATCH', '/api/admin/settings', { address: NUL }, 'owner'],
      ['PATCH', '/api/admin/settings', { webhook_url: `https://hooks.test/${NUL}` }, 'owner'],
      ['PATCH', '/api/admin/settings', { timezone: NUL }, 'owner'],
      ['PATCH', '/api/admin/settings', { timezone: 'Mars/Olympus_Mons' }, 'owner'],
      ['PATCH', '/api/admin/settings', { pricing_currency: NUL }, 'owner'],
      ['PATCH', '/api/admin/settings', { smtp_url: `smtp://mail.test/${NUL}` }, 'owner'],
      ['PATCH', '/api/admin/settings', { smtp_from: `Shop <r${NUL}@shop.test>` }, 'owner'],
      ['POST', `/api/v1/payments/${payment.id}/mark`, { as: 'settled', note: NUL }, 'key'],
      ['POST', `/api/v1/payments/${payment.id}/mark`, { as: NUL }, 'key'],
      ['POST', `/api/v1/payments/${payment.id}/receipt`, { email: `ann${NUL}@example.com` }, 'key'],
      ['POST', `/api/v1/payments/${payment.id}/receipt`, { email: 'ann@example.com\r\nBcc: all@example.com' }, 'key'],
      ['POST', `/api/v1/payments/${payment.id}/refunds`, { amount: '1', address: NUL, reason: 'x' }, 'key'],
      ['POST', `/api/v1/payments/${payment.id}/refunds`, { amount: '1', reason: NUL }, 'key'],
      ['POST', `/api/v1/payments/${payment.id}/refunds`, { fiat_amount: NUL }, 'key'],
      ['POST', `/api/pos/sales/${payment.id}/charge-again`, { order_reference: NUL }, 'key'],
    ];
    for (const [method, path, body, who] of cases) {
      const r = await send(method, path, body, who);
      never5xx(r, body);
      // /api/auth/setup answers 409 once an owner exists; everything else refuses the value.
      if (path === '/api/auth/setup') expect([400, 409]).toContain(r.status);
      else invalid(r, body);
    }
    const me = await send('GET', '/api/auth/me');
    const self = JSON.parse(me.text).user.id;
    invalid(await send('PATCH', `/api/admin/users/${self}`, { name: NUL }), 'user name');
  });

  it('relay and node text API: NUL in ids and queries is never a 5xx', async () => {
    for (const body of [{ id: NUL }, { id: NUL, tx: '00', relay_token: NUL, refund: '' }]) {
      never5xx(await send('POST', '/relay/status', body, 'none'), body);
      never5xx(await send('POST', '/relay/pay', body, 'none'), body);
    }
    for (const name of [
      'getAddresses',
      'getBalance',
      'getChaintip',
      'getHeaders',
      'getLastBlockInfo',
      'getTimestamp',
      'getTransactions',
      'getUTXOs',
      'getWallet',
    ]) {
      const q = `?address=${encodeURIComponent(NUL)}&start=${INT64_OVER}&count=${INT64_OVER}&height=${INT64_OVER}`;
      never5xx(await send('GET', `/${name}${q}`, undefined, 'key'), name);
      never5xx(await send('POST', `/${name}`, NUL, 'key'), name);
    }
  });

  it('nothing above was an unhandled error', () => {
    expect(app.logs()).not.toMatch(/unhandled error in route/);
  });
});
