// Stock through the real built app on devnet (docs/catalog.md#stock): the adjust and read routes
// (roles, CSRF, bad bodies, untracked products), a till sale (a cashier's session) paid through
// /relay/pay by the wallet SDK, retried and mined; a vendor API sale paid by a plain wallet;
// a paid sale marked invalid; a refund with "return_to_stock". The in-process paths the app
// cannot be driven into (a double spend, expiry, short again) are in stock-lib.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { deriveAddress, REGTEST } from '@/lib/doge';
import { testAccount, testXpub } from '../helpers/keys';
import { parseKoinu } from '@/lib/money';
import { buildPaymentTx, fetchPayment, readConnectQr, type WalletUtxo } from '@/lib/wallet';
import { sharedShop, type SharedShop } from '../helpers/shared-app';
import { signInRoles } from '../helpers/sessions';
import { request } from '../helpers/client';
import type { DemoUtxoJson, ErrorJson, ProductJson, StockMovementJson } from '../helpers/json-shapes';

const PASSWORD = 'long enough password';
const XPUB = testXpub(63);
const CUSTOMER = deriveAddress(testAccount(64), 0, REGTEST);

let app: SharedShop;
interface Who {
  cookie: string;
  csrf: string;
}
const who: Record<'owner' | 'manager' | 'cashier', Who> = {} as never;
const ids: Record<string, string> = {};

/** A request with the API key, as a signed-in user (its CSRF token unless `opts.csrf` is false) or as nobody; `T` is how the test reads the JSON answer. */
const as = <T = unknown>(w: Who | 'key' | null, method: string, path: string, body?: unknown, opts: { csrf?: boolean } = {}) =>
  request<T>(
    app.url,
    w === 'key' ? { key: app.key } : w && { cookie: w.cookie, csrf: opts.csrf === false ? undefined : w.csrf },
    method,
    path,
    body,
  );

/** A product's stock and its movements, newest first (GET and POST /api/admin/products/<id>/stock). */
interface StockJson {
  stock: number | null;
  movements: StockMovementJson[];
}
/** A sale as POST /api/v1/payments answers (the fields read here). */
interface SaleJson {
  id: string;
  total: string;
  uri: string;
  connect_uri: string;
}
const stock = async (sku: string) => (await as<StockJson>(who.manager, 'GET', `/api/admin/products/${ids[sku]}/stock`)).body;
/** Adjusts a product's stock; read as its stock unless said (ErrorJson for a refusal). */
const adjust = <T = StockJson>(sku: string, body: unknown, w: Who = who.manager) =>
  as<T>(w, 'POST', `/api/admin/products/${ids[sku]}/stock`, body);
const sale = (w: Who | 'key', lines: [string, number][]) =>
  as<SaleJson>(w, 'POST', '/api/v1/payments', { items: lines.map(([id, count]) => ({ type: 'item', id, name: id, count, unit: '1' })) });

async function wallet(): Promise<{ address: string; wif: string; utxos: WalletUtxo[] }> {
  const w = await (await fetch(app.url + '/demo/api/wallet')).json();
  return {
    ...w,
    utxos: w.utxos.map((u: DemoUtxoJson) => ({ txid: u.txid, vout: u.vout, amount: parseKoinu(u.amount), script: u.script })),
  };
}
/** The wallet SDK's /pay body for a payment's QR. */
async function payBody(connectUri: string) {
  const w = await wallet();
  const verified = await fetchPayment(readConnectQr(connectUri), { allowHttp: true });
  const tx = buildPaymentTx(verified.payment, { network: 'regtest', utxos: w.utxos, keys: [w.wif] });
  return { id: verified.payment.id, tx: tx.hex, refund: CUSTOMER };
}
const mine = async () =>
  expect((await fetch(app.url + '/demo/api/mine', { method: 'POST', body: JSON.stringify({ blocks: 1 }) })).status).toBe(200);
async function until<T>(what: string, f: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 150; i++) {
    const v = await f();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`never: ${what}`);
}
const status = async (id: string) => (await as<{ status: string }>('key', 'GET', `/api/v1/payments/${id}`)).body.status;

beforeAll(async () => {
  app = await sharedShop('stock.test', { xpub: XPUB, password: PASSWORD });
  Object.assign(who, await signInRoles(app.url, 'stock.test', PASSWORD, ['manager', 'cashier']));
  for (const [sku, s] of [
    ['COF', 10],
    ['TEA', 20],
    ['UNT', null],
    ['JAM', 30],
  ] as const) {
    const r = await as<{ id: string }>(who.manager, 'POST', '/api/admin/products', {
      sku,
      name: sku,
      price: '1',
      ...(s === null ? {} : { stock: s }),
      low_stock: 2,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    ids[sku] = r.body.id;
  }
}, 240_000);

describe('stock adjustments and movements (routes)', () => {
  it('a starting stock is a count movement; delta and count adjust, newest first, with the user and note', async () => {
    expect(await stock('COF')).toEqual({
      stock: 10,
      low_stock: 2,
      movements: [expect.objectContaining({ delta: 10, reason: 'count', user: 'manager@stock.test', payment_id: null })],
    });
    const r = await adjust('COF', { delta: 5, reason: 'received', note: 'Tuesday delivery' });
    expect(r.status).toBe(200);
    expect(r.body.stock).toBe(15);
    expect(r.body.movements[0]).toEqual({
      at: expect.any(String),
      delta: 5,
      reason: 'received',
      note: 'Tuesday delivery',
      user: 'manager@stock.test',
      payment_id: null,
    });
    const c = await adjust('COF', { count: 12, reason: 'count' }, who.owner);
    expect(c.body.stock).toBe(12);
    expect(c.body.movements[0]).toMatchObject({ delta: -3, reason: 'count', note: '', user: 'owner@stock.test' });
    expect((await adjust('COF', { delta: -2, reason: 'damaged' })).body.stock).toBe(10);
    expect((await stock('COF')).movements.map((m: StockMovementJson) => m.reason)).toEqual(['damaged', 'count', 'received', 'count']);
    // The product form's stock is a count too.
    const e = await as<{ stock: number | null }>(who.manager, 'PATCH', `/api/admin/products/${ids.COF}`, { stock: 11 });
    expect(e.body.stock).toBe(11);
    expect((await stock('COF')).movements[0]).toMatchObject({ delta: 1, reason: 'count' });
    expect((await adjust('COF', { delta: -1, reason: 'other' })).body.stock).toBe(10);
  });

  it('cashiers get 403, strangers 401, a missing CSRF token 403, an unknown product 404', async () => {
    expect((await adjust('COF', { delta: 1, reason: 'received' }, who.cashier)).status).toBe(403);
    expect((await as(who.cashier, 'GET', `/api/admin/products/${ids.COF}/stock`)).status).toBe(403);
    expect((await as(null, 'GET', `/api/admin/products/${ids.COF}/stock`)).status).toBe(401);
    expect((await as(null, 'POST', `/api/admin/products/${ids.COF}/stock`, { delta: 1, reason: 'received' })).status).toBe(401);
    expect(
      (await as(who.manager, 'POST', `/api/admin/products/${ids.COF}/stock`, { delta: 1, reason: 'received' }, { csrf: false })).status,
    ).toBe(403);
    expect((await as('key', 'GET', `/api/admin/products/${ids.COF}/stock`)).status).toBe(401);
    expect((await as(who.manager, 'GET', '/api/admin/products/nope/stock')).status).toBe(404);
    expect((await as(who.manager, 'POST', '/api/admin/products/nope/stock', { delta: 1, reason: 'received' })).status).toBe(404);
    expect((await as(who.manager, 'POST', '/api/admin/products/nope/stock', { count: 1, reason: 'count' })).status).toBe(404);
    expect((await stock('COF')).stock).toBe(10);
  });

  it.each([
    ['delta', { delta: 1, count: 2, reason: 'count' }],
    ['delta', { reason: 'count' }],
    ['delta', { delta: 0, reason: 'other' }],
    ['delta', { delta: 1.5, reason: 'received' }],
    ['delta', { delta: '3', reason: 'received' }],
    ['delta', { delta: 2 ** 31, reason: 'received' }],
    ['count', { count: -(2 ** 40), reason: 'count' }],
    ['count', { count: 1e300, reason: 'count' }],
    ['reason', { delta: 1, reason: 'stolen' }],
    ['reason', { delta: 1 }],
    ['note', { delta: 1, reason: 'other', note: 'a\u0000b' }],
    ['note', { delta: 1, reason: 'other', note: 'x\u001b[31m' }],
    ['note', { delta: 1, reason: 'other', note: 'n'.repeat(501) }],
    ['', { delta: 1, reason: 'other', user: 'me' }],
    ['body', [1]],
    ['', 'not json'],
  ])('refuses %s with 400: %j', async (field, body) => {
    const r = await adjust<ErrorJson>('COF', body);
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.error).toBe('invalid_request');
    if (field) expect(r.body.message).toMatch(new RegExp(`^${field}`));
    expect((await stock('COF')).stock).toBe(10);
  });

  it('a delta past the range is 409, and changes nothing', async () => {
    await adjust('JAM', { count: 999_999_999, reason: 'count' });
    const r = await adjust<ErrorJson>('JAM', { delta: 5, reason: 'received' });
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/^delta:/);
    expect((await adjust('JAM', { count: 30, reason: 'count' })).body.stock).toBe(30);
  });

  it('an untracked product: a delta is 409, a count starts tracking it', async () => {
    expect(await stock('UNT')).toEqual({ stock: null, low_stock: 2, movements: [] });
    const d = await adjust('UNT', { delta: 4, reason: 'received' });
    expect(d.status).toBe(409);
    expect(d.body).toMatchObject({ error: 'conflict', message: expect.stringMatching(/^delta: .*not tracked/) });
    const c = await adjust('UNT', { count: 7, reason: 'count', note: 'first count' });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ stock: 7, movements: [{ delta: 7, reason: 'count', note: 'first count' }] });
    // Untracking (the product form's stock null) keeps the history.
    expect(
      (await as<{ stock: number | null }>(who.manager, 'PATCH', `/api/admin/products/${ids.UNT}`, { stock: null })).body.stock,
    ).toBeNull();
    expect((await stock('UNT')).movements.length).toBe(1);
  });
});

describe('sales move stock (devnet)', () => {
  it('a till sale takes its item lines when /pay accepts it, once: not before, not on a retry, not when mined', async () => {
    const p = await sale(who.cashier, [
      ['COF', 2],
      ['TEA', 1],
      ['COF', 1],
      ['NOPE', 5],
    ]);
    expect(p.status, JSON.stringify(p.body)).toBe(201);
    expect([(await stock('COF')).stock, (await stock('TEA')).stock]).toEqual([10, 20]);
    const body = await payBody(p.body.connect_uri);
    const r = await as(null, 'POST', '/relay/pay', body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect([(await stock('COF')).stock, (await stock('TEA')).stock]).toEqual([7, 19]);
    expect((await stock('COF')).movements[0]).toEqual({
      at: expect.any(String),
      delta: -3,
      reason: 'sale',
      note: '',
      user: 'cashier@stock.test',
      payment_id: p.body.id,
    });
    expect((await as(null, 'POST', '/relay/pay', body)).status).toBe(200);
    await mine();
    await until(
      'confirmed',
      () => status(p.body.id),
      (s) => s === 'confirmed',
    );
    expect([(await stock('COF')).stock, (await stock('TEA')).stock]).toEqual([7, 19]);
    expect((await stock('COF')).movements.filter((m: StockMovementJson) => m.payment_id === p.body.id).length).toBe(1);
  });

  it('a vendor API sale with SKU item ids, paid by a plain wallet, takes stock when the worker accepts it', async () => {
    const p = await sale('key', [['TEA', 4]]);
    const address = /^dogecoin:([^?]+)\?/.exec(p.body.uri)![1];
    const sent = await fetch(`${app.url}/demo/api/send`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ address, amount: p.body.total }),
    });
    expect(sent.status).toBe(200);
    await until(
      'accepted',
      () => status(p.body.id),
      (s) => s === 'accepted',
    );
    expect((await stock('TEA')).stock).toBe(15);
    expect((await stock('TEA')).movements[0]).toMatchObject({ delta: -4, reason: 'sale', user: null, payment_id: p.body.id });
  });

  it('marking a paid sale invalid gives its goods back (reason declined, by the manager); an unpaid one gives nothing', async () => {
    const p = await sale('key', [['JAM', 6]]);
    const r = await as(null, 'POST', '/relay/pay', await payBody(p.body.connect_uri));
    expect(r.status).toBe(200);
    expect((await stock('JAM')).stock).toBe(24);
    const m = await as(who.manager, 'POST', `/api/v1/payments/${p.body.id}/mark`, { as: 'invalid', note: 'wrong till' });
    expect(m.status).toBe(200);
    expect((await stock('JAM')).stock).toBe(30);
    expect((await stock('JAM')).movements[0]).toMatchObject({
      delta: 6,
      reason: 'declined',
      user: 'manager@stock.test',
      payment_id: p.body.id,
    });
    expect((await as(who.manager, 'POST', `/api/v1/payments/${p.body.id}/mark`, { as: 'invalid' })).status).toBe(409);
    const q = await sale('key', [['JAM', 2]]);
    expect((await as('key', 'POST', `/api/v1/payments/${q.body.id}/mark`, { as: 'invalid' })).status).toBe(200);
    expect((await stock('JAM')).stock).toBe(30);
    expect((await stock('JAM')).movements.filter((x: StockMovementJson) => x.payment_id === q.body.id)).toEqual([]);
  });

  it('a refund with return_to_stock gives the sale back once; without it, nothing; a bad flag is 400', async () => {
    const p = await sale(who.cashier, [['COF', 2]]);
    expect((await as(null, 'POST', '/relay/pay', await payBody(p.body.connect_uri))).status).toBe(200);
    expect((await stock('COF')).stock).toBe(5);
    const bad = await as<ErrorJson>(who.manager, 'POST', `/api/v1/payments/${p.body.id}/refunds`, { amount: '1', return_to_stock: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/return_to_stock/);
    expect((await as(who.cashier, 'POST', `/api/v1/payments/${p.body.id}/refunds`, { amount: '1', return_to_stock: true })).status).toBe(
      403,
    );
    expect((await stock('COF')).stock).toBe(5);
    const plain = await as(who.manager, 'POST', `/api/v1/payments/${p.body.id}/refunds`, { amount: '0.5' });
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
    expect((await stock('COF')).stock).toBe(5);
    const back = await as<{ id: string }>(who.manager, 'POST', `/api/v1/payments/${p.body.id}/refunds`, {
      amount: '0.5',
      return_to_stock: true,
      reason: 'returned mugs',
    });
    expect(back.status, JSON.stringify(back.body)).toBe(201);
    expect((await stock('COF')).stock).toBe(7);
    expect((await stock('COF')).movements[0]).toMatchObject({
      delta: 2,
      reason: 'returned',
      note: `refund ${back.body.id}`,
      user: 'manager@stock.test',
      payment_id: p.body.id,
    });
    const again = await as('key', 'POST', `/api/v1/payments/${p.body.id}/refunds`, { amount: '0.5', return_to_stock: true });
    expect(again.status).toBe(201);
    expect((await stock('COF')).stock).toBe(7);
  });

  it('an out-of-stock product still sells: its stock goes negative', async () => {
    const made = await as<{ id: string }>(who.manager, 'POST', '/api/admin/products', {
      sku: 'OOS',
      name: 'Last scone',
      price: '1',
      stock: 0,
    });
    ids.OOS = made.body.id;
    const p = await sale(who.cashier, [['OOS', 2]]);
    expect(p.status).toBe(201);
    expect((await as(null, 'POST', '/relay/pay', await payBody(p.body.connect_uri))).status).toBe(200);
    expect((await stock('OOS')).stock).toBe(-2);
    expect(
      (await as<{ products: ProductJson[] }>(who.manager, 'GET', '/api/admin/products')).body.products.find((x) => x.sku === 'OOS')?.stock,
    ).toBe(-2);
    expect((await adjust('OOS', { count: 0, reason: 'count' })).body.stock).toBe(0);
  });

  it('a CSV import that changes a level records a count movement by the importing user', async () => {
    const r = await fetch(`${app.url}/api/admin/products/import`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/csv', Cookie: who.manager.cookie, 'X-CSRF-Token': who.manager.csrf },
      body: 'sku,name,price,stock\nOOS,Last scone,1,12\n',
    });
    expect(r.status, await r.clone().text()).toBe(200);
    expect((await stock('OOS')).movements[0]).toMatchObject({ delta: 12, reason: 'count', note: 'import', user: 'manager@stock.test' });
    expect((await stock('OOS')).stock).toBe(12);
  });

  it('the back office shows the stock page and the dashboard count; a cashier is kept out', async () => {
    // Tea at its threshold (2 ≤ 2) is low; the others are above theirs or untracked. (The demo
    // café's catalog, seeded on devnet, is the first store's, not this one's.)
    await adjust('TEA', { count: 2, reason: 'count' });
    const page = await as(who.manager, 'GET', '/admin/stock');
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-testid="stock-row-TEA"');
    expect(page.text).not.toContain('data-testid="stock-row-UNT"');
    const dash = await as(who.manager, 'GET', '/admin');
    expect(dash.text.replace(/<!-- -->/g, '')).toMatch(new RegExp(`data-testid="low-stock-stat"[^]*?<b>1</b>`));
    expect((await as(who.cashier, 'GET', '/admin/stock')).status).not.toBe(200);
  });

  it('a cash sale is recorded confirmed at once and takes its goods like any paid sale (docs/counter.md#cash)', async () => {
    expect((await as(who.owner, 'PATCH', '/api/admin/settings', { pricing_currency: 'USD' })).status).toBe(200);
    const before = (await stock('JAM')).stock;
    if (before === null) throw new Error('JAM is not tracked');
    const body = {
      currency: 'USD',
      tender: 'cash',
      cash_received: '20',
      items: [{ type: 'item', id: 'JAM', name: 'Jam', count: 3, unit: '2.45' }],
    };
    const r = await until(
      'a rate in force',
      () => as<{ id: string }>(who.cashier, 'POST', '/api/v1/payments', body),
      (x) => x.status !== 503,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ status: 'confirmed', tender: 'cash' });
    expect((await stock('JAM')).stock).toBe(before - 3);
    expect((await stock('JAM')).movements[0]).toMatchObject({
      delta: -3,
      reason: 'sale',
      user: 'cashier@stock.test',
      payment_id: r.body.id,
    });
  });
});
