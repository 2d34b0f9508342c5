// The sales report's by_category (docs/catalog.md#reports) through the real built app on devnet:
// a catalog imported from CSV with a category order, sales made through the vendor API and
// paid by the wallet SDK through /relay/pay, mined to confirmed; then the report's JSON, its
// CSV's category column, and the back office's end-of-day page ("Uncategorised" for lines with
// no product or category). An unpaid sale counts in no category.
import { beforeAll, describe, expect, it } from 'vitest';
import { testXpub } from '../helpers/keys';
import { parseKoinu } from '@/lib/money';
import { buildPaymentTx, fetchPayment, readConnectQr, type WalletUtxo } from '@/lib/wallet';
import { sharedShop, type SharedShop } from '../helpers/shared-app';
import { signIn } from '../helpers/sessions';
import { request } from '../helpers/client';
import type { DemoUtxoJson, ProductJson, SalesReportJson } from '../helpers/json-shapes';

const PASSWORD = 'by category password';
const XPUB = testXpub(57);

let app: SharedShop;
let owner: { cookie: string; csrf: string };
const from = new Date(Date.now() - 3_600_000).toISOString();
const to = new Date(Date.now() + 3_600_000).toISOString();
const REPORT = `/api/v1/reports/sales?${new URLSearchParams({ from, to, tz: 'UTC' })}`;

/** A request with the API key, as the owner or as nobody; `T` is how the test reads the JSON answer. */
const call = <T = unknown>(who: 'key' | 'owner' | null, method: string, path: string, body?: string, type = 'application/json') =>
  request<T>(app.url, who === 'key' ? { key: app.key } : who === 'owner' ? owner : null, method, path, body, { contentType: type });

/** The demo wallet pays the payment's QR through /relay/pay; a block confirms it. */
async function payAndConfirm(id: string, connectUri: string) {
  const w = await (await fetch(app.url + '/demo/api/wallet')).json();
  const utxos: WalletUtxo[] = w.utxos.map((u: DemoUtxoJson) => ({
    txid: u.txid,
    vout: u.vout,
    amount: parseKoinu(u.amount),
    script: u.script,
  }));
  const verified = await fetchPayment(readConnectQr(connectUri), { allowHttp: true });
  const tx = buildPaymentTx(verified.payment, { network: 'regtest', utxos, keys: [w.wif] });
  const paid = await call(null, 'POST', '/relay/pay', JSON.stringify({ id: verified.payment.id, tx: tx.hex }));
  expect(paid.status, paid.text).toBe(200);
  expect((await fetch(app.url + '/demo/api/mine', { method: 'POST', body: JSON.stringify({ blocks: 1 }) })).status).toBe(200);
  for (let i = 0; i < 150; i++) {
    if ((await call<{ status?: string } | null>(null, 'POST', '/relay/status', JSON.stringify({ id }))).body?.status === 'confirmed')
      return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${id} never confirmed`);
}

const item = (id: string, name: string, count: number, unit: string, tax?: string) => ({
  type: 'item',
  id,
  name,
  count,
  unit,
  ...(tax ? { tax } : {}),
});

beforeAll(async () => {
  app = await sharedShop('bycat.test', { xpub: XPUB, password: PASSWORD });
  owner = await signIn(app.url, 'owner@bycat.test', PASSWORD);
  const csv = 'sku,name,price,category\nCOF,Coffee,2.5,Drinks\nTEA,Tea,1.8,Drinks\nCAKE,Cake,4,Food\nMUG,Mug,12,\n';
  const imp = await call('owner', 'POST', '/api/admin/products/import', csv, 'text/csv');
  expect(imp.status, imp.text).toBe(200);
  expect(imp.body).toMatchObject({ create: 4, errors: [] });
  expect((await call('owner', 'PATCH', '/api/admin/settings', JSON.stringify({ categories: ['Food', 'Drinks'] }))).status).toBe(200);

  const sales = [
    [item('COF', 'Coffee', 2, '2.5'), item('CAKE', 'Cake', 1, '4', '0.28')],
    // A keypad amount (its id is no SKU) and a tip: the amount is uncategorised, the tip in no category.
    [
      item('TEA', 'Tea', 1, '1.8'),
      item('keypad', 'Custom amount', 1, '3'),
      { type: 'donation', id: 'tip', name: 'Tip', count: 1, unit: '0.5' },
    ],
    [item('MUG', 'Mug', 1, '12')],
  ];
  for (const items of sales) {
    const p = await call<{ id: string; connect_uri: string }>('key', 'POST', '/api/v1/payments', JSON.stringify({ items }));
    expect(p.status, p.text).toBe(201);
    await payAndConfirm(p.body.id, p.body.connect_uri);
  }
  // Rung up but never paid: counts in no category.
  expect((await call('key', 'POST', '/api/v1/payments', JSON.stringify({ items: [item('COF', 'Coffee', 5, '2.5')] }))).status).toBe(201);
}, 240_000);

describe('by_category through the app', () => {
  it('groups the confirmed sales\' item lines by category, in the store\'s order, "" last', async () => {
    const r = await call<SalesReportJson>('key', 'GET', REPORT);
    expect(r.status, r.text).toBe(200);
    expect(r.body.totals.count).toBe(3);
    expect(r.body.by_category).toEqual([
      { category: 'Food', count: 1, gross: '4', tax: '0.28' },
      { category: 'Drinks', count: 3, gross: '6.8', tax: '0' },
      { category: '', count: 2, gross: '15', tax: '0' },
    ]);
    // The categories add up to by_product (item lines only: the tip is in the totals, not here).
    const sum = (rows: { gross: string }[]) => rows.reduce((a, x) => a + parseKoinu(x.gross), 0n);
    expect(sum(r.body.by_category)).toBe(sum(r.body.by_product));
    expect(r.body.totals.tips).toBe('0.5');
  });

  it("the CSV names each item line's category, and its confirmed item lines sum to by_category", async () => {
    const r = await call('key', 'GET', `${REPORT}&format=csv`);
    expect(r.status).toBe(200);
    const [head, ...rows] = r.text
      .trim()
      .split('\r\n')
      .map((l) => l.split(','));
    expect(head.at(-1)).toBe('category');
    const c = (n: string) => head.indexOf(n);
    const byItem = Object.fromEntries(rows.map((x) => [x[c('item_id')], x[c('category')]]));
    expect(byItem).toEqual({ COF: 'Drinks', CAKE: 'Food', TEA: 'Drinks', keypad: '', tip: '', MUG: '' });
    const gross = (cat: string) =>
      rows.filter((x) => x[c('line_type')] === 'item' && x[c('category')] === cat).reduce((a, x) => a + parseKoinu(x[c('line_total')]), 0n);
    expect([gross('Food'), gross('Drinks'), gross('')]).toEqual([parseKoinu('4'), parseKoinu('6.8'), parseKoinu('15')]);
  });

  it('the end-of-day page shows them, "" as Uncategorised', async () => {
    const r = await call('owner', 'GET', '/admin/reports');
    expect(r.status).toBe(200);
    expect(r.text).toContain('<h2>By category</h2>');
    const table = r.text.slice(r.text.indexOf('data-testid="eod-categories"'));
    const rows = table.slice(0, table.indexOf('</table>'));
    expect(rows.indexOf('Food')).toBeGreaterThan(0);
    expect(rows.indexOf('Food')).toBeLessThan(rows.indexOf('Drinks'));
    expect(rows.indexOf('Drinks')).toBeLessThan(rows.indexOf('Uncategorised'));
  });

  it('a product moved to another category moves its past sales with it', async () => {
    const list = await call<{ products: ProductJson[] }>('owner', 'GET', '/api/admin/products');
    const mug = list.body.products.find((p) => p.sku === 'MUG');
    if (!mug) throw new Error(`no MUG among ${list.text}`);
    expect((await call('owner', 'PATCH', `/api/admin/products/${mug.id}`, JSON.stringify({ category: 'Gifts' }))).status).toBe(200);
    const r = await call<SalesReportJson>('key', 'GET', REPORT);
    expect(r.body.by_category.map((x: { category: string | null; gross: string }) => [x.category, x.gross])).toEqual([
      ['Food', '4'],
      ['Drinks', '6.8'],
      ['Gifts', '12'],
      ['', '3'],
    ]);
  });
});
