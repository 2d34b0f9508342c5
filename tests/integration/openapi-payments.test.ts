// docs/openapi.yaml against the real server: the requests of ringing up a sale on the devnet app,
// before anything is paid. The till's own routes (open tickets, the customer display and its tip,
// a product's stock in the back office), and the payments made through the vendor API (with every
// refusal, and the scopes that custom outputs and lowered confirmations need), paged and read,
// with the signed envelope and the relay status a wallet reads; health, and the rate answer of an
// app without a rate source. Every answer (status, content type, required headers, body) is
// checked against the document with a JSON Schema 2020-12 validator; response schemas are closed
// and list every field the server always sends, so an undocumented or missing field fails. The
// document is shared out between the openapi-*.test.ts files (tests/helpers/openapi-calls.ts),
// each of which must have exercised every answer of its share.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveAddress, REGTEST } from '@/lib/doge';
import type { AppServer } from '../helpers/app-server';
import { testAccount } from '../helpers/keys';
import { OpenApiChecker, loadOpenApi } from '../helpers/openapi';
import {
  FULL_PAYMENT,
  OPENAPI_PASSWORD as PASSWORD,
  TOO_BIG,
  UNKNOWN_ID,
  coffee,
  expectStatus,
  openApiCalls,
  startOpenApiDevnet,
  unexercised,
  type MadeJson,
} from '../helpers/openapi-calls';
import { signIn } from '../helpers/sessions';
import type { ErrorJson, Health, ListedPaymentJson, PaymentPageJson } from '../helpers/json-shapes';
import { ticketRoutes } from './openapi-cafe-calls';
import { displayRoutes } from './openapi-display-calls';

const checker = new OpenApiChecker(loadOpenApi());
// An address of someone else (not the store, not the demo wallet).
const FOREIGN = deriveAddress(testAccount(99), 0, REGTEST);

describe('openapi: the devnet app', () => {
  let app: AppServer;
  const { call, create } = openApiCalls(checker, () => app.url);
  let till = ''; // payments:read + payments:write
  let nodeOnly = ''; // node:read only
  const made: Record<string, MadeJson> = {};
  let owner: Record<string, string> = {}; // the signed-in owner's cookie and CSRF headers

  beforeAll(async () => {
    const devnet = await startOpenApiDevnet();
    ({ app, owner } = devnet);
    till = await devnet.apiKey(['payments:read', 'payments:write']);
    nodeOnly = await devnet.apiKey(['node:read']);
  }, 180_000);
  afterAll(async () => {
    await app?.stop();
  });

  it('GET /api/health', async () => {
    const r = await call<Health>('GET', '/api/health', {}, { key: null });
    expectStatus(r, 200);
    expect(r.body).toMatchObject({ ok: true, network: 'regtest', backend: 'devnet', db: 'pglite' });
    expect(typeof r.body.ready).toBe('boolean');
    expect(r.body.ready).toBe(r.body.problems.length === 0);
  });

  it('POST /api/v1/payments: 201, idempotent replay, 400, 401, 403, 409, 413', async () => {
    made.full = await create(FULL_PAYMENT);
    expect(made.full).toMatchObject({ status: 'unpaid', total: '23.05' });
    // The customer's own page (docs/using-counter.md#the-customers-checkout-page-checkoutid), on this server.
    expect(made.full.checkout_url).toBe(`${app.url}/checkout/${made.full.id}`);

    const idem = { 'Idempotency-Key': 'order-' + randomBytes(4).toString('hex') };
    const first = await call('POST', '/api/v1/payments', {}, { body: coffee(), headers: idem });
    const again = await call('POST', '/api/v1/payments', {}, { body: coffee(), headers: idem });
    expectStatus(again, 201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expectStatus(await call('POST', '/api/v1/payments', {}, { body: coffee('11'), headers: idem }), 409);

    for (const body of [{ items: [{ type: 'coupon', id: 'x', name: 'x', count: 1, unit: '1' }] }, 'not json', { items: [] }]) {
      const r = await call('POST', '/api/v1/payments', {}, { body });
      expectStatus(r, 400);
    }
    expectStatus(
      await call('POST', '/api/v1/payments', {}, { body: coffee(), headers: { 'Idempotency-Key': 'bad key with spaces' } }),
      400,
    );
    expectStatus(await call('POST', '/api/v1/payments', {}, { key: null, body: coffee() }), 401);
    expectStatus(await call('POST', '/api/v1/payments', {}, { key: 'not-a-key', body: coffee() }), 401);
    expectStatus(await call('POST', '/api/v1/payments', {}, { key: nodeOnly, body: coffee() }), 403);
    expectStatus(await call('POST', '/api/v1/payments', {}, { body: TOO_BIG }), 413);
  });

  it('POST /api/v1/payments: p2pkh outputs to another address need payments:outputs', async () => {
    const r = await call<ErrorJson>(
      'POST',
      '/api/v1/payments',
      {},
      { key: till, body: { ...coffee(), outputs: [{ type: 'p2pkh', address: FOREIGN, amount: '22.05' }] } },
    );
    expectStatus(r, 403);
    expect(r.body.message).toMatch(/outputs/);
  });

  it('POST /api/v1/payments: required_confirmations below the policy needs payments:policy', async () => {
    const r = await call<ErrorJson>('POST', '/api/v1/payments', {}, { key: till, body: { ...coffee(), required_confirmations: 0 } });
    expectStatus(r, 403);
    expect(r.body.message).toMatch(/required_confirmations/);
  });

  it('GET /api/v1/payments: pages with cursors; 400, 401, 403', async () => {
    const p1 = await call<PaymentPageJson>('GET', '/api/v1/payments', {}, { query: 'limit=1' });
    expectStatus(p1, 200);
    expect(p1.body.payments).toHaveLength(1);
    expect(p1.body.next_cursor).toEqual(expect.any(String));
    const p2 = await call<PaymentPageJson>(
      'GET',
      '/api/v1/payments',
      {},
      { query: `limit=100&status=unpaid&cursor=${encodeURIComponent(p1.body.next_cursor ?? '')}` },
    );
    expectStatus(p2, 200);
    expect(p2.body.payments.map((p: ListedPaymentJson) => p.id)).not.toContain(p1.body.payments[0].id);
    expect(p2.body.next_cursor).toBeNull();
    expectStatus(await call('GET', '/api/v1/payments', {}, { query: 'limit=0' }), 400);
    expectStatus(await call('GET', '/api/v1/payments', {}, { query: 'cursor=bogus' }), 400);
    expectStatus(await call('GET', '/api/v1/payments', {}, { key: null }), 401);
    expectStatus(await call('GET', '/api/v1/payments', {}, { key: nodeOnly }), 403);
  });

  it('GET /api/v1/payments/{id}: 200, 401, 403, 404', async () => {
    const r = await call<MadeJson>('GET', '/api/v1/payments/{id}', { id: made.full.id });
    expectStatus(r, 200);
    expect(r.body.payment).toEqual(made.full.payment);
    expect(r.body.checkout_url).toBe(made.full.checkout_url);
    expectStatus(await call('GET', '/api/v1/payments/{id}', { id: made.full.id }, { key: null }), 401);
    expectStatus(await call('GET', '/api/v1/payments/{id}', { id: made.full.id }, { key: nodeOnly }), 403);
    expectStatus(await call('GET', '/api/v1/payments/{id}', { id: UNKNOWN_ID }), 404);
    expect(r.body).toMatchObject({ amount_paid: '0', amount_due: '23.05', txids: [], decision: null });
    expect(r.body).toMatchObject({ amount_refunded: '0', refunds: [], rate: null, fiat_total: '5.00', fiat_currency: 'USD' });
  });

  it('GET /dc/{id}: the signed envelope; 404', async () => {
    const r = await call<{ payload: string }>('GET', '/dc/{id}', { id: made.full.id }, { key: null });
    expectStatus(r, 200);
    expect(JSON.parse(Buffer.from(r.body.payload, 'base64').toString('utf8'))).toEqual(made.full.payment);
    expectStatus(await call('GET', '/dc/{id}', { id: UNKNOWN_ID }, { key: null }), 404);
    expectStatus(await call('GET', '/dc/{id}', { id: 'not an id!' }, { key: null }), 404);
  });

  it('POST /relay/status: 200 unpaid; 404; 413', async () => {
    const r = await call('POST', '/relay/status', {}, { key: null, body: { id: made.full.id } });
    expectStatus(r, 200);
    expect(r.body).toEqual({ id: made.full.id, status: 'unpaid' });
    expectStatus(await call('POST', '/relay/status', {}, { key: null, body: { id: UNKNOWN_ID } }), 404);
    expectStatus(await call('POST', '/relay/status', {}, { key: null, body: {} }), 404);
    expectStatus(await call('POST', '/relay/status', {}, { key: null, body: TOO_BIG }), 413);
  });

  it('GET /api/v1/rates: 503 rate_unavailable with no source; 401, 403', async () => {
    // this app has no RATE_SOURCES: nothing is fresh
    const none = await call<ErrorJson>('GET', '/api/v1/rates');
    expectStatus(none, 503);
    expect(none.body.error).toBe('rate_unavailable');
    expectStatus(await call('GET', '/api/v1/rates', {}, { key: null }), 401);
    expectStatus(await call('GET', '/api/v1/rates', {}, { key: nodeOnly }), 403);
  });

  it('open tickets: 200, 201, 204, 400, 401, 403, 404, 409', async () => {
    await ticketRoutes(call, owner);
  });

  it('the customer display: pairing code, published cart, pairing, status and stream; 200, 201, 204, 400, 401, 403, 413, 429', async () => {
    await displayRoutes(call, checker, app.url, owner);
  });

  it('GET and POST /api/admin/products/{productId}/stock: 200; 400, 401, 403, 404, 409 (docs/catalog.md#stock)', async () => {
    const made = await fetch(`${app.url}/api/admin/products`, {
      method: 'POST',
      headers: owner,
      body: JSON.stringify({ sku: 'OA-STOCK', name: 'Beans', price: '1', stock: 4 }),
    });
    expect(made.status).toBe(201);
    const productId = (await made.json()).id as string;
    const untracked = (
      await (
        await fetch(`${app.url}/api/admin/products`, {
          method: 'POST',
          headers: owner,
          body: JSON.stringify({ sku: 'OA-UNT', name: 'Bag', price: '1' }),
        })
      ).json()
    ).id as string;
    const u = await fetch(`${app.url}/api/admin/users`, {
      method: 'POST',
      headers: owner,
      body: JSON.stringify({ email: 'cashier-oa@shop.test', password: PASSWORD, role: 'cashier' }),
    });
    expect(u.status).toBe(201);
    const c = await signIn(app.url, 'cashier-oa@shop.test', PASSWORD);
    const cashier = { Cookie: c.cookie, 'X-CSRF-Token': c.csrf };
    const path = '/api/admin/products/{productId}/stock';
    const got = await call('GET', path, { productId }, { key: null, headers: owner });
    expectStatus(got, 200);
    expect(got.body).toMatchObject({
      stock: 4,
      low_stock: 0,
      movements: [{ delta: 4, reason: 'count', user: 'owner@shop.test', payment_id: null }],
    });
    const adj = await call<{ stock: number }>(
      'POST',
      path,
      { productId },
      { key: null, headers: owner, body: { delta: 6, reason: 'received', note: 'delivery' } },
    );
    expectStatus(adj, 200);
    expect(adj.body.stock).toBe(10);
    expectStatus(
      await call('POST', path, { productId }, { key: null, headers: owner, body: { delta: 1, count: 1, reason: 'count' } }),
      400,
    );
    expectStatus(await call('GET', path, { productId }, { key: null }), 401);
    expectStatus(await call('POST', path, { productId }, { key: null, body: { delta: 1, reason: 'other' } }), 401);
    expectStatus(await call('GET', path, { productId }, { key: null, headers: cashier }), 403);
    expectStatus(await call('POST', path, { productId }, { key: null, headers: cashier, body: { delta: 1, reason: 'other' } }), 403);
    expectStatus(await call('GET', path, { productId: 'nope' }, { key: null, headers: owner }), 404);
    expectStatus(await call('POST', path, { productId: 'nope' }, { key: null, headers: owner, body: { delta: 1, reason: 'other' } }), 404);
    expectStatus(
      await call('POST', path, { productId: untracked }, { key: null, headers: owner, body: { delta: 1, reason: 'received' } }),
      409,
    );
  });
});

it('exercised every (method, path, status) the document names', () => {
  // This file's share of the document; openapi-settlement.test.ts and openapi-outages.test.ts check
  // theirs as they end, and the `stores` operations are openapi-stores.test.ts's.
  expect(unexercised(checker, 'payments')).toEqual([]);
});
