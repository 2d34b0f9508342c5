// docs/openapi.yaml against the real server when it refuses: an app on PostgreSQL with a tiny rate
// limit (docs/configuration.md) and MAX_OPEN_PAYMENTS=1, whose database is stopped for the 503
// answers and whose clients' budgets are spent for the 429 answers, with a fixed rate source for
// the rate answer. Every answer is checked against the document (tests/helpers/openapi.ts); the
// document is shared out between the openapi-*.test.ts files (tests/helpers/openapi-calls.ts),
// and once all of this file's tests have run, every answer of its share must have been seen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../helpers/app-server';
import { DGUB } from '../helpers/keys';
import { OpenApiChecker, loadOpenApi } from '../helpers/openapi';
import { OPENAPI_KEY as KEY, UNKNOWN_ID, expectShareExercised, expectStatus, openApiCalls, type Call } from '../helpers/openapi-calls';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';
import type { ErrorJson } from '../helpers/json-shapes';

const checker = new OpenApiChecker(loadOpenApi());
afterAll(expectShareExercised(checker, 'outages'));

describe('openapi: an app on PostgreSQL, rate-limited, with MAX_OPEN_PAYMENTS=1', () => {
  const BUYER = 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L'; // a valid mainnet address
  let pg: PgServer;
  let app: AppServer;
  let paymentId = '';
  const { call } = openApiCalls(checker, () => app.url);

  beforeAll(async () => {
    pg = await startPostgres();
    const url = await createDatabase(pg, 'openapi');
    app = await startApp({
      STORE_XPUB: DGUB,
      BOOTSTRAP_API_KEY: KEY,
      DATABASE_URL: url,
      RATE_LIMIT_RPS: '0.001',
      RATE_LIMIT_BURST: '20',
      MAX_OPEN_PAYMENTS: '1',
      RATE_SOURCES: 'fixed:0.125',
      RATE_REFRESH_SEC: '1',
    });
  }, 180_000);
  afterAll(async () => {
    await app?.stop();
    await pg?.stop();
  });

  it('POST /api/v1/payments beyond MAX_OPEN_PAYMENTS gets 429', async () => {
    const body = { items: [{ type: 'item', id: 'T', name: 'Tea', count: 1, unit: '3' }] };
    const first = await call<{ id: string }>('POST', '/api/v1/payments', {}, { body });
    expectStatus(first, 201);
    paymentId = first.body.id;
    const second = await call<ErrorJson>('POST', '/api/v1/payments', {}, { body });
    expectStatus(second, 429);
    expect(second.body.error).not.toBe('rate_limited');
  });

  it('GET /api/v1/rates: 200, the fixed rate in force', async () => {
    let r = await call('GET', '/api/v1/rates');
    for (let i = 0; i < 3 && r.status === 503; i++) {
      await new Promise((res) => setTimeout(res, 1500)); // the first refresh
      r = await call('GET', '/api/v1/rates');
    }
    expectStatus(r, 200);
    expect(r.body).toMatchObject({ value: '0.125', sources: [{ name: 'fixed:0.125', value: '0.125', ok: true, error: '' }] });
  });

  it('answers 503 everywhere while the database is down (health with ok: false, the rest without a body)', async () => {
    pg.pause();
    const health = await call('GET', '/api/health', {}, { key: null });
    expectStatus(health, 503);
    expect(health.body).toMatchObject({ ok: false, db: 'postgresql' });
    const id = { id: paymentId };
    const calls: [string, string, Record<string, string>, Call][] = [
      ['POST', '/api/v1/payments', {}, { body: { items: [{ type: 'item', id: 'T', name: 'Tea', count: 1, unit: '3' }] } }],
      ['GET', '/api/v1/payments', {}, {}],
      ['GET', '/api/v1/payments/{id}', id, {}],
      ['POST', '/api/v1/payments/{id}/cancel', id, {}],
      ['POST', '/api/v1/payments/{id}/refunds', id, { body: {} }],
      ['GET', '/api/v1/payments/{id}/refunds', id, {}],
      ['GET', '/api/v1/payments/{id}/events', id, {}],
      ['GET', '/api/v1/events', {}, {}],
      ['POST', '/api/v1/payments/{id}/mark', id, { body: { as: 'settled' } }],
      ['POST', '/api/v1/payments/{id}/receipt', id, { body: { email: 'ann@example.com' } }],
      ['GET', '/api/v1/reports/sales', {}, {}],
      ['GET', '/api/v1/rates', {}, {}],
      ['GET', '/dc/{id}', { id: UNKNOWN_ID }, { key: null }],
      ['POST', '/relay/pay', {}, { key: null, body: { id: paymentId, tx: '00' } }],
      ['POST', '/relay/status', {}, { key: null, body: id }],
      ['GET', '/invoices/{address}', { address: BUYER }, {}],
    ];
    for (const [method, template, params, c] of calls) {
      const r = await call(method, template, params, c);
      expect(r.status, `${method} ${template}`).toBe(503);
    }
  });

  it("answers 429 on every rate-limited route once the client's budget is spent", async () => {
    const groups: [string, string, Record<string, string>, Call][][] = [
      [
        ['GET', '/api/v1/payments', {}, {}],
        ['POST', '/api/v1/payments', {}, { body: {} }],
        ['GET', '/api/v1/payments/{id}', { id: paymentId }, {}],
        ['POST', '/api/v1/payments/{id}/cancel', { id: paymentId }, {}],
        ['POST', '/api/v1/payments/{id}/refunds', { id: paymentId }, { body: {} }],
        ['GET', '/api/v1/payments/{id}/refunds', { id: paymentId }, {}],
        ['GET', '/api/v1/payments/{id}/events', { id: paymentId }, {}],
        ['GET', '/api/v1/events', {}, {}],
        ['POST', '/api/v1/payments/{id}/mark', { id: paymentId }, { body: { as: 'settled' } }],
        ['POST', '/api/v1/payments/{id}/receipt', { id: paymentId }, { body: { email: 'ann@example.com' } }],
        ['GET', '/api/v1/reports/sales', {}, {}],
        ['GET', '/api/v1/rates', {}, {}],
      ],
      [
        ['POST', '/relay/status', {}, { key: null, body: { id: paymentId } }],
        ['POST', '/relay/pay', {}, { key: null, body: { id: paymentId, tx: '00' } }],
      ],
      [['GET', '/invoices/{address}', { address: BUYER }, {}]],
    ];
    for (const group of groups) {
      // spend the group's budget (the database is still down: those answers are 503s)
      let spent = false;
      for (let i = 0; i < 20 && !spent; i++) spent = (await call(...group[0])).status === 429;
      expect(spent, `${group[0][1]} ran out of budget`).toBe(true);
      for (const c of group) {
        const r = await call<ErrorJson>(...c);
        expect(r.status, `${c[0]} ${c[1]}`).toBe(429);
        expect(r.body.error).toBe('rate_limited');
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
  });
});
