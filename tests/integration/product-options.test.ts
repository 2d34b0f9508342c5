// Options (docs/catalog.md#options) on the real built app (devnet, PGlite): option groups on
// products (validation, round trip, CSV leaves them alone, managers only); item lines with
// `options` priced from the catalog, refused with 400 naming items[n].options / items[n].unit /
// items[n].id; a cash sale with options takes its product's stock; the sales report's
// by_product[].options.
import { beforeAll, describe, expect, it } from 'vitest';
import { REGTEST, hdFromSeed, serializeXpub, derivePath } from '@/lib/doge';
import { until } from '../helpers/wait';
import { sharedShop, type SharedShop } from '../helpers/shared-app';
import { OpenApiChecker, loadOpenApi } from '../helpers/openapi';
import { appClient, type SignedIn } from '../helpers/client';
import type { ErrorJson, ProductJson } from '../helpers/json-shapes';

const openapi = new OpenApiChecker(loadOpenApi());
const PASSWORD = 'product options password 4';
const XPUB = serializeXpub(derivePath(hdFromSeed(new Uint8Array(32).fill(44), REGTEST), "m/44'/1'/0'"));

/** A refusal of a product or a sale: the field may also be named apart from the message. */
type RefusalJson = ErrorJson & { field?: string };
/** A payment as the test reads it: its fiat figures and its priced lines with their options. */
interface PaymentJson {
  fiat_total: string;
  payment: { items: { desc: string }[] };
}
/** A row of the sales report's by_product, with the options sold. */
interface ProductSalesJson {
  id: string;
  options: { name: string; count: number; amount: string }[];
}

const GROUPS = [
  {
    name: 'Milk',
    min: 0,
    max: 1,
    options: [
      { name: 'Oat', price: '0.50' },
      { name: 'Soy', price: '0.5' },
    ],
  },
  {
    name: 'Extras',
    min: 0,
    max: 3,
    options: [
      { name: 'Extra shot', price: '0.75' },
      { name: 'Syrup', price: '0.25' },
    ],
  },
  {
    name: 'Size',
    min: 1,
    max: 1,
    options: [
      { name: 'Small', price: '0' },
      { name: 'Large', price: '0.60' },
    ],
  },
];

describe('product options', () => {
  let app: SharedShop;
  const who = {} as Record<'owner' | 'cashier', SignedIn>;
  let productId = '';

  const { req, ready, login } = appClient(() => app.url, PASSWORD);
  const latte = (extra: Record<string, unknown> = {}) => ({ type: 'item', id: 'LATTE', name: 'Latte', count: 2, ...extra });
  const pay = <T = unknown>(items: unknown[], extra: Record<string, unknown> = {}) =>
    req<T>(who.owner, 'POST', '/api/v1/payments', { currency: 'USD', items, ...extra });

  beforeAll(async () => {
    app = await sharedShop('options.test', { xpub: XPUB, password: PASSWORD });
    await ready();
    who.owner = await login('owner@options.test');
    const r = await req(who.owner, 'POST', '/api/admin/users', {
      email: 'cashier@options.test',
      name: 'Cashier',
      password: PASSWORD,
      role: 'cashier',
    });
    expect(r.status, r.text).toBe(201);
    who.cashier = await login('cashier@options.test');
    expect((await req(who.owner, 'PATCH', '/api/admin/settings', { pricing_currency: 'USD' })).status).toBe(200);
    await until(
      () => req<{ currency: string } | null>(who.owner, 'GET', '/api/v1/rates'),
      (x) => x.status === 200 && x.body?.currency === 'USD',
      20_000,
    );
  }, 240_000);

  it('takes and returns option groups on products, refuses broken ones naming the field, and only for managers', async () => {
    const bad: [unknown, string][] = [
      [
        [
          {
            name: 'Milk',
            min: 2,
            max: 1,
            options: [
              { name: 'A', price: '0' },
              { name: 'B', price: '0' },
            ],
          },
        ],
        'option_groups[0].max',
      ],
      [
        [
          {
            name: 'Milk',
            min: 0,
            max: 1,
            options: [
              { name: 'Oat', price: '0' },
              { name: 'oat', price: '1' },
            ],
          },
        ],
        'option_groups[0].options[1].name',
      ],
      [[{ name: 'Milk', min: 0, max: 1, options: [{ name: 'Oat', price: '-1' }] }], 'option_groups[0].options[0].price'],
      [[{ name: 'Milk', min: 2, max: 3, options: [{ name: 'Oat', price: '1' }] }], 'option_groups[0].min'],
      [[{ name: 'Milk', min: 0, max: 0, options: [{ name: 'Oat', price: '1' }] }], 'option_groups.0.max'],
      [[{ name: 'Mi\u0007lk', min: 0, max: 1, options: [{ name: 'Oat', price: '1' }] }], 'option_groups.0.name'],
      [[{ name: 'Milk', min: 0, max: 1, options: [] }], 'option_groups.0.options'],
      [[{ name: 'Milk', min: 0, max: 1, options: [{ name: 'Oat', price: '0.001' }] }], 'option_groups[0].options[0].price'],
    ];
    for (const [groups, field] of bad) {
      const r = await req<RefusalJson>(who.owner, 'POST', '/api/admin/products', {
        sku: 'BAD',
        name: 'Bad',
        price: '1',
        option_groups: groups,
      });
      expect(r.status, `${JSON.stringify(groups)} → ${r.text}`).toBe(400);
      expect(r.body.error).toBe('invalid_request');
      expect(`${r.body.field ?? ''} ${r.body.message}`.replace(/\[(\d+)\]/g, '.$1')).toContain(field.replace(/\[(\d+)\]/g, '.$1'));
    }
    expect(
      (await req(who.cashier, 'POST', '/api/admin/products', { sku: 'LATTE', name: 'Latte', price: '3.50', option_groups: GROUPS })).status,
    ).toBe(403);
    const created = await req<ProductJson>(who.owner, 'POST', '/api/admin/products', {
      sku: 'LATTE',
      name: 'Latte',
      price: '3.50',
      tax_rate: '10',
      stock: 10,
      option_groups: GROUPS,
    });
    expect(created.status, created.text).toBe(201);
    productId = created.body.id;
    expect(created.body.option_groups[0]).toEqual({
      name: 'Milk',
      min: 0,
      max: 1,
      options: [
        { name: 'Oat', price: '0.50' },
        { name: 'Soy', price: '0.50' },
      ],
    });
    const patched = await req<ProductJson>(who.owner, 'PATCH', `/api/admin/products/${productId}`, { option_groups: GROUPS.slice(0, 2) });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.option_groups.map((g: { name: string }) => g.name)).toEqual(['Milk', 'Extras']);
    expect((await req(who.owner, 'PATCH', `/api/admin/products/${productId}`, { option_groups: GROUPS })).status).toBe(200);
    // The CSV export and import leave option groups alone.
    const csv = await req(who.owner, 'GET', '/api/admin/products/export');
    expect(csv.text.split(/\r?\n/)[0]).toBe('sku,name,price,currency,tax_rate,category,barcode,stock,low_stock,description,archived');
    const imp = await req(who.owner, 'POST', '/api/admin/products/import', 'sku,name,price\nLATTE,Latte,3.50\n', {
      contentType: 'text/csv',
    });
    expect(imp.status, imp.text).toBe(200);
    const list = await req<{ products: ProductJson[] }>(who.owner, 'GET', '/api/admin/products');
    expect(list.body.products.find((p) => p.sku === 'LATTE')?.option_groups.length).toBe(3);
  });

  it('prices an option line from the catalog: unit, tax at the product rate, options in desc', async () => {
    // (3.50 + 0.50 + 0.75 + 0.60) × 2 = 10.70, tax 10 % = 1.07: 11.77 USD.
    const r = await pay<PaymentJson>([latte({ options: ['Large', 'Oat', 'Extra shot'] })]);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ fiat_total: '11.77', fiat_tax: '1.07' });
    openapi.check('post', '/api/v1/payments', r);
    const item = r.body.payment.items[0];
    expect(item.desc).toBe('Oat, Extra shot, Large');
    // A unit that agrees is accepted; one that does not names items[0].unit.
    expect((await pay([latte({ options: ['Small'], unit: '3.50' })])).status).toBe(201);
    const wrong = await pay<ErrorJson>([latte({ options: ['Small'], unit: '3.00' })]);
    expect(wrong.status, wrong.text).toBe(400);
    expect(wrong.body.message).toMatch(/^items\[0\]\.unit: /);
  });

  it('refuses option choices the catalog does not allow with 400 naming items[n].options', async () => {
    const cases: [unknown[], string][] = [
      [[latte({ options: ['Small', 'Almond'] })], 'items[0].options'],
      [[latte({ options: ['Small', 'Oat', 'Oat'] })], 'items[0].options'],
      [[latte({ options: ['Small', 'Oat', 'Soy'] })], 'items[0].options'],
      [[latte({ options: ['Oat'] })], 'items[0].options'],
      [[latte({ options: 'Oat' })], 'items[0].options'],
      [[latte({ options: [1] })], 'items[0].options'],
      [
        [{ type: 'item', id: 'TEA', name: 'Tea', count: 1, unit: '1.00' }, latte({ options: ['Small', 'x'.repeat(65)] })],
        'items[1].options',
      ],
      [[{ type: 'donation', id: 'tip', name: 'Tip', count: 1, unit: '1.00', options: ['Small'] }], 'items[0].options'],
      [[latte({ id: 'NOPE', options: ['Small'] })], 'items[0].id'],
    ];
    for (const [items, field] of cases) {
      const r = await pay<ErrorJson>(items);
      expect(r.status, `${JSON.stringify(items)} → ${r.text}`).toBe(400);
      expect(r.body.error).toBe('invalid_request');
      expect(r.body.message.startsWith(`${field}: `), r.body.message).toBe(true);
    }
    // A cashier may sell with options; without credentials nothing is sold.
    expect((await req(who.cashier, 'POST', '/api/v1/payments', { currency: 'USD', items: [latte({ options: ['Small'] })] })).status).toBe(
      201,
    );
    expect((await req(null, 'POST', '/api/v1/payments', { currency: 'USD', items: [latte({ options: ['Small'] })] })).status).toBe(401);
  });

  it("takes a cash sale with options off its product's stock, and reports by_product options", async () => {
    const r = await pay<PaymentJson>([latte({ options: ['Oat', 'Extra shot', 'Large'] })], { tender: 'cash', cash_received: '20' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.fiat_total).toBe('11.77');
    const stock = await req<{ stock: number }>(who.owner, 'GET', `/api/admin/products/${productId}/stock`);
    expect(stock.body.stock).toBe(8);
    const rep = await req<{ by_product: ProductSalesJson[] }>(who.owner, 'GET', '/api/v1/reports/sales');
    openapi.check('get', '/api/v1/reports/sales', rep);
    const row = rep.body.by_product.find((p) => p.id === 'LATTE');
    if (!row) throw new Error(`no LATTE in by_product: ${rep.text}`);
    // At 0.125 USD per DOGE: Oat 0.50 → 4 DOGE, Extra shot 0.75 → 6, Large 0.60 → 4.8; two units each.
    expect(row.options).toEqual(
      expect.arrayContaining([
        { name: 'Oat', count: 2, amount: '8' },
        { name: 'Extra shot', count: 2, amount: '12' },
        { name: 'Large', count: 2, amount: '9.6' },
      ]),
    );
    expect(row.options.length).toBe(3);
  });
});
