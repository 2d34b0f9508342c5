// Fiat-first pricing on the real app (docs/api.md#pricing-in-a-fiat-currency): devnet backend, embedded PGlite, and the
// local rate server answering in CoinGecko's real format. A store priced in USD takes a vendor
// request with "currency": "USD", converts every line at the rate in force (half-up to the
// koinu), locks that rate into the payment, and signs the fiat sums into the Connect Payment.
// A foreign currency is 400; no fresh rate is 503 rate_unavailable; DOGE stays the default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testXpub } from '../helpers/keys';
import { verifyPaymentEnvelope } from '@/lib/connect';
import type { AppServer } from '../helpers/app-server';
import type { RateServer } from '../helpers/rate-server';
import { startUsdShop, type UsdShop } from '../helpers/usd-shop';
import { until } from '../helpers/wait';
import type { ErrorJson, ItemJson } from '../helpers/json-shapes';

const KEY = 'ck_test_fiat_bootstrap_key_0123456789abcdef';
const xpub = testXpub(23);
let app: AppServer;
let srv: RateServer;
let shop: UsdShop;

/** GET /api/v1/rates (the fields this test reads). */
interface RatesJson {
  currency: string;
  value: string;
}
/** A sale priced in a fiat currency, as the API answers it (the fields read beyond the matchers). */
interface FiatSaleJson {
  id: string;
  total: string;
  rate: { at: string } | null;
  payment: { items: ItemJson[]; order_reference: string };
}

/** A vendor API call with the bootstrap key; `T` is how the test reads the JSON answer (null when it is not JSON). */
async function api<T = unknown>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(app.url + path, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json().catch(() => null)) as T };
}

const usdSale = {
  currency: 'USD',
  order_reference: 'USD-1',
  items: [
    { type: 'item', id: 'MUF', name: 'Muffin', count: 3, unit: '1.99', tax: '0.48' },
    { type: 'discount', id: 'disc', name: 'Discount', count: 1, unit: '-0.50' },
    { type: 'donation', id: 'tip', name: 'Tip', count: 1, unit: '1.00' },
  ],
};

beforeAll(async () => {
  shop = await startUsdShop({ value: '0.07', sources: 'coingecko', xpub, key: KEY });
  app = shop.app;
  srv = shop.rates;
}, 180_000);
afterAll(async () => {
  await shop?.stop();
});

describe('POST /api/v1/payments with "currency"', () => {
  it('USD: lines converted at the locked rate; envelope signed with fiat_total/fiat_tax/fiat_currency; body has rate', async () => {
    const r = await api<FiatSaleJson>('POST', '/api/v1/payments', usdSale);
    expect(r.status).toBe(201);
    // 1.99/0.07 = 28.428571428… → 28.42857143; 0.48/0.07 → 6.85714286; 0.50/0.07 → 7.14285714; 1.00/0.07 → 14.28571429
    expect(r.body.payment.items.map((i: ItemJson) => [i.unit, i.total, i.tax])).toEqual([
      ['28.42857143', '85.28571429', '6.85714286'],
      ['-7.14285714', '-7.14285714', ''],
      ['14.28571429', '14.28571429', ''],
    ]);
    expect(r.body.total).toBe('99.2857143'); // 85.28571429 + 6.85714286 − 7.14285714 + 14.28571429
    expect(r.body.payment).toMatchObject({ fiat_total: '6.95', fiat_tax: '0.48', fiat_currency: 'USD', taxes: '6.85714286' });
    expect(r.body).toMatchObject({ fiat_total: '6.95', fiat_tax: '0.48', fiat_currency: 'USD' });
    expect(r.body.rate).toMatchObject({ pair: 'DOGE/USD', value: '0.07', source: 'coingecko' });
    expect(Date.now() - Date.parse(r.body.rate?.at ?? '')).toBeLessThan(10_000);

    // The envelope wallets fetch is signed over those fields.
    const env = await (await fetch(`${app.url}/dc/${r.body.id}`)).json();
    const v = verifyPaymentEnvelope(env);
    expect(v.payment).toMatchObject({ fiat_total: '6.95', fiat_tax: '0.48', fiat_currency: 'USD', total: r.body.total });

    // The rate stays locked: a later read (and a rate that has moved) shows the same one.
    srv.set('coingecko', { kind: 'good', value: '0.08' });
    await until(
      async () => (await api<RatesJson | null>('GET', '/api/v1/rates')).body?.value,
      (v) => v === '0.08',
      20_000,
    );
    const again = await api<FiatSaleJson>('GET', `/api/v1/payments/${r.body.id}`);
    expect(again.body).toMatchObject({ total: r.body.total, fiat_total: '6.95', fiat_tax: '0.48', fiat_currency: 'USD' });
    expect(again.body.rate).toEqual(r.body.rate);
    const moved = await api('POST', '/api/v1/payments', {
      currency: 'USD',
      items: [{ type: 'item', id: 'A', name: 'A', count: 1, unit: '2.00' }],
    });
    expect(moved.status).toBe(201);
    expect(moved.body).toMatchObject({ total: '25', fiat_total: '2.00', rate: { value: '0.08' } });
  });

  it('DOGE (absent or explicit) is priced as before, with rate null; a hand-given fiat_total is still shown', async () => {
    const a = await api('POST', '/api/v1/payments', {
      items: [{ type: 'item', id: 'A', name: 'A', count: 1, unit: '20' }],
      fiat_total: '1.40',
      fiat_currency: 'USD',
    });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ total: '20', rate: null, fiat_total: '1.40', fiat_currency: 'USD' });
    const b = await api('POST', '/api/v1/payments', {
      currency: 'DOGE',
      items: [{ type: 'item', id: 'A', name: 'A', count: 1, unit: '20' }],
    });
    expect(b.status).toBe(201);
    expect(b.body).toMatchObject({ total: '20', rate: null, fiat_total: '', fiat_currency: '' });
  });

  it('a currency other than DOGE or the pricing currency is 400 naming currency; bad fiat amounts are 400', async () => {
    const r = await api('POST', '/api/v1/payments', { ...usdSale, currency: 'EUR' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'invalid_request', message: expect.stringMatching(/^currency: /) });
    const cents = await api<ErrorJson>('POST', '/api/v1/payments', {
      currency: 'USD',
      items: [{ type: 'item', id: 'A', name: 'A', count: 1, unit: '1.999' }],
    });
    expect(cents.status).toBe(400);
    expect(cents.body.message).toMatch(/^items\[0\]\.unit: /);
  });

  it('no fresh rate: 503 rate_unavailable, and nothing is created; DOGE requests still work', async () => {
    srv.set('coingecko', { kind: 'status', status: 500 });
    const key = 'fiat-stale-1';
    // Once the last good value is older than RATE_MAX_AGE_SEC (3 s) there is no rate in force.
    expect(
      (
        await until(
          () => api('GET', '/api/v1/rates'),
          (x) => x.status === 503,
          20_000,
        )
      ).status,
    ).toBe(503);
    const r = await api('POST', '/api/v1/payments', usdSale, { 'Idempotency-Key': key });
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ error: 'rate_unavailable', message: expect.stringMatching(/^no exchange rate for DOGE\/USD/) });
    const d = await api('POST', '/api/v1/payments', { items: [{ type: 'item', id: 'A', name: 'A', count: 1, unit: '20' }] });
    expect(d.status).toBe(201);
    // A bad request is told so even while the rate is missing.
    expect((await api('POST', '/api/v1/payments', { ...usdSale, currency: 'EUR' })).status).toBe(400);
    // Back: the same key creates the payment (the 503 was not stored as its answer).
    srv.set('coingecko', { kind: 'good', value: '0.1' });
    const ok = await until(
      () => api('POST', '/api/v1/payments', usdSale, { 'Idempotency-Key': key }),
      (x) => x.status === 201,
      20_000,
    );
    expect(ok.body).toMatchObject({ fiat_total: '6.95', rate: { value: '0.1' } });
  });
});

describe("charge again (the till's POST /api/pos/sales/<id>/charge-again)", () => {
  const again = (id: string, ref: string, key: string) =>
    api<FiatSaleJson>('POST', `/api/pos/sales/${id}/charge-again`, { order_reference: ref }, { 'Idempotency-Key': key });

  it('a USD sale is priced again from its USD lines at the rate in force, with a new locked rate; no fresh rate is 503, never DOGE', async () => {
    srv.set('coingecko', { kind: 'good', value: '0.1' });
    await until(
      async () => (await api<RatesJson | null>('GET', '/api/v1/rates')).body?.value,
      (v) => v === '0.1',
      20_000,
    );
    const first = await api<FiatSaleJson>('POST', '/api/v1/payments', usdSale);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ total: '69.5', rate: { value: '0.1' } }); // 6.95 / 0.1

    // The market moves; the sale expires unpaid and is charged again: same USD lines, today's rate.
    srv.set('coingecko', { kind: 'good', value: '0.125' });
    await until(
      async () => (await api<RatesJson | null>('GET', '/api/v1/rates')).body?.value,
      (v) => v === '0.125',
      20_000,
    );
    const r = await again(first.body.id, 'USD-1-again', 'again-1');
    expect(r.status).toBe(201);
    expect(r.body.id).not.toBe(first.body.id);
    expect(r.body).toMatchObject({
      fiat_total: '6.95',
      fiat_tax: '0.48',
      fiat_currency: 'USD',
      rate: { pair: 'DOGE/USD', value: '0.125', source: 'coingecko' },
    });
    // 1.99/0.125 = 15.92, 0.48/0.125 = 3.84, −0.50/0.125 = −4, 1.00/0.125 = 8
    expect(r.body.payment.items.map((i: ItemJson) => [i.name, i.count, i.unit, i.tax])).toEqual([
      ['Muffin', 3, '15.92', '3.84'],
      ['Discount', 1, '-4', ''],
      ['Tip', 1, '8', ''],
    ]);
    expect(r.body.total).toBe('55.6');
    expect(r.body.payment.order_reference).toBe('USD-1-again');
    // A retry of the same charge (lost answer) is the same payment.
    const replay = await again(first.body.id, 'USD-1-again', 'again-1');
    expect(replay.body.id).toBe(r.body.id);

    // A DOGE-priced sale is charged again in DOGE, as before.
    const doge = await api<FiatSaleJson>('POST', '/api/v1/payments', {
      items: [{ type: 'item', id: 'A', name: 'A', count: 2, unit: '20', tax: '1' }],
    });
    const d = await again(doge.body.id, 'D-again', 'again-doge');
    expect(d.status).toBe(201);
    expect(d.body).toMatchObject({ total: '41', rate: null, fiat_currency: '' });
    expect((await again('nopeNopeNope', 'X', 'again-404')).status).toBe(404);

    // No fresh rate: 503 rate_unavailable, not a charge at the old rate or in DOGE.
    srv.set('coingecko', { kind: 'status', status: 500 });
    expect(
      (
        await until(
          () => api('GET', '/api/v1/rates'),
          (x) => x.status === 503,
          20_000,
        )
      ).status,
    ).toBe(503);
    const stale = await again(r.body.id, 'USD-1-third', 'again-2');
    expect(stale.status).toBe(503);
    expect(stale.body).toMatchObject({ error: 'rate_unavailable' });
    // A store that configured a single source trusts it as before (docs/api.md#exchange-rates): 0.125 → 0.2 is
    // +60%, which a lone source among several could not do (tests/integration/rates-lone-source.test.ts).
    srv.set('coingecko', { kind: 'good', value: '0.2' });
    const back = await until(
      () => again(r.body.id, 'USD-1-third', 'again-2'),
      (x) => x.status === 201,
      20_000,
    );
    expect(back.body).toMatchObject({ total: '34.75', fiat_total: '6.95', rate: { value: '0.2' } }); // 6.95 / 0.2
  });
});
