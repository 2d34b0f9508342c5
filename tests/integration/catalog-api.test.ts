// The catalog's shop fields (category, barcode, stock, low_stock), the store's category order,
// and CSV export/import, through the real built app (docs/catalog.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedShop, type SharedShop } from '../helpers/shared-app';
import { testXpub } from '../helpers/keys';
import { signInRoles } from '../helpers/sessions';
import type { Answer } from '../helpers/client';
import type { ErrorJson, ProductJson } from '../helpers/json-shapes';

/** What a CSV import did, or would do (dry run), and each refused cell. */
interface ImportJson {
  create: number;
  update: number;
  unchanged: number;
  errors: { line: number; column: number; message: string }[];
}

const PASSWORD = 'long enough password';
let app: SharedShop;

interface Who {
  cookie: string;
  csrf: string;
}
const who: Record<'owner' | 'manager' | 'cashier', Who> = {} as never;

/** A request as `w`; `T` is how the test reads the JSON answer (null for CSV). */
async function as<T = unknown>(w: Who | null, method: string, path: string, body?: unknown, type = 'application/json'): Promise<Answer<T>> {
  const headers: Record<string, string> = { 'Content-Type': type };
  if (w) headers.Cookie = w.cookie;
  if (w && method !== 'GET') headers['X-CSRF-Token'] = w.csrf;
  const r = await fetch(app.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await r.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* csv */
  }
  return { status: r.status, body: json as T, text, headers: r.headers };
}

/** A CSV import (or its dry run); read as its report unless said (ErrorJson for a refusal). */
const csv = <T = ImportJson>(path: string, text: string, w: Who = who.manager) => as<T>(w, 'POST', path, text, 'text/csv');
const products = async () => (await as<{ products: ProductJson[] }>(who.manager, 'GET', '/api/admin/products?archived=1')).body.products;
const product = async (sku: string) => (await products()).find((p) => p.sku === sku);

beforeAll(async () => {
  app = await sharedShop('cat.test', { xpub: testXpub(202), password: PASSWORD });
  Object.assign(who, await signInRoles(app.url, app.domain, PASSWORD, ['manager', 'cashier']));
}, 180_000);

describe('product fields', () => {
  it('takes and returns category, barcode, stock and low_stock, with their defaults', async () => {
    const plain = await as<ProductJson>(who.manager, 'POST', '/api/admin/products', { sku: 'PLAIN', name: 'Plain', price: '1' });
    expect(plain.status).toBe(201);
    expect(plain.body).toMatchObject({ category: '', barcode: '', stock: null, low_stock: 0 });
    const p = await as<ProductJson>(who.manager, 'POST', '/api/admin/products', {
      sku: 'COLA',
      name: 'Cola',
      price: '2.5',
      category: 'Drinks',
      barcode: '4006381333931',
      stock: 12,
      low_stock: 3,
    });
    expect(p.status).toBe(201);
    expect(p.body).toMatchObject({ category: 'Drinks', barcode: '4006381333931', stock: 12, low_stock: 3 });
    const e = await as(who.manager, 'PATCH', `/api/admin/products/${p.body.id}`, { stock: null, category: 'Soft drinks', low_stock: 5 });
    expect(e.status).toBe(200);
    expect(e.body).toMatchObject({ category: 'Soft drinks', barcode: '4006381333931', stock: null, low_stock: 5 });
    expect(await product('COLA')).toMatchObject({ category: 'Soft drinks', stock: null, low_stock: 5 });
    // Clearing a barcode frees it for another product.
    expect(
      (await as<ProductJson & { barcode: string }>(who.manager, 'PATCH', `/api/admin/products/${p.body.id}`, { barcode: '' })).body.barcode,
    ).toBe('');
    expect((await as(who.manager, 'PATCH', `/api/admin/products/${plain.body.id}`, { barcode: '4006381333931' })).status).toBe(200);
  });

  it('refuses a duplicate barcode with 409 naming the field', async () => {
    const a = await as(who.manager, 'POST', '/api/admin/products', { sku: 'DUPA', name: 'A', price: '1', barcode: 'CODE-1' });
    expect(a.status).toBe(201);
    const b = await as<ErrorJson>(who.manager, 'POST', '/api/admin/products', { sku: 'DUPB', name: 'B', price: '1', barcode: 'CODE-1' });
    expect(b.status).toBe(409);
    expect(b.body.message).toMatch(/^barcode:/);
    const c = await as<ProductJson>(who.manager, 'POST', '/api/admin/products', { sku: 'DUPB', name: 'B', price: '1', barcode: 'CODE-2' });
    expect((await as(who.manager, 'PATCH', `/api/admin/products/${c.body.id}`, { barcode: 'CODE-1' })).status).toBe(409);
  });

  it.each([
    ['barcode', { barcode: 'AB\u0007C' }],
    ['barcode', { barcode: 'x'.repeat(65) }],
    ['barcode', { barcode: 'café' }],
    ['category', { category: 'Drinks\u0000' }],
    ['category', { category: 'c'.repeat(65) }],
    ['name', { name: 'Tea\u001b[31m' }],
    ['stock', { stock: 2 ** 31 }],
    ['stock', { stock: 1.5 }],
    ['stock', { stock: '3' }],
    ['low_stock', { low_stock: -(2 ** 40) }],
    ['low_stock', { low_stock: null }],
  ])('refuses a bad %s with 400 naming it: %j', async (field, patch) => {
    const r = await as<ErrorJson>(who.manager, 'POST', '/api/admin/products', { sku: 'BAD', name: 'Bad', price: '1', ...patch });
    expect(r.status).toBe(400);
    expect(r.body.message.startsWith(`${field}:`)).toBe(true);
  });
});

describe('categories setting', () => {
  it("is set by a manager, read back, and orders the products' categories (unlisted ones after, alphabetically)", async () => {
    for (const [sku, category] of [
      ['C1', 'Zebra snacks'],
      ['C2', 'Food'],
      ['C3', 'Apples'],
      ['C4', 'Drinks'],
    ]) {
      expect((await as(who.manager, 'POST', '/api/admin/products', { sku, name: sku, price: '1', category })).status).toBe(201);
    }
    expect((await as(who.cashier, 'PATCH', '/api/admin/settings', { categories: ['Drinks'] })).status).toBe(403);
    const r = await as<{ categories: string[] }>(who.manager, 'PATCH', '/api/admin/settings', { categories: ['Drinks', 'Food', 'Unused'] });
    expect(r.status).toBe(200);
    expect(r.body.categories).toEqual(['Drinks', 'Food', 'Unused']);
    expect((await as<{ categories: string[] }>(who.owner, 'GET', '/api/admin/settings')).body.categories).toEqual([
      'Drinks',
      'Food',
      'Unused',
    ]);
    const list = await as<{ categories: string[] }>(who.cashier, 'GET', '/api/admin/products');
    expect(list.body.categories).toEqual(['Drinks', 'Food', 'Apples', 'Soft drinks', 'Zebra snacks']);
  });

  it.each([
    [{ categories: ['A', 'A'] }],
    [{ categories: ['Bad\u0001'] }],
    [{ categories: [''] }],
    [{ categories: 'Drinks' }],
    [{ categories: Array.from({ length: 201 }, (_, i) => `c${i}`) }],
  ])('refuses %j with 400 naming categories', async (body) => {
    const r = await as<ErrorJson>(who.manager, 'PATCH', '/api/admin/settings', body);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^categories/);
  });
});

describe('CSV export and import', () => {
  it('is for managers and owners only, and takes text/csv', async () => {
    expect((await as(who.cashier, 'GET', '/api/admin/products/export')).status).toBe(403);
    expect((await csv('/api/admin/products/import?dry_run=1', 'sku,name,price\n', who.cashier)).status).toBe(403);
    expect((await as(who.manager, 'POST', '/api/admin/products/import', { sku: 'x' })).status).toBe(415);
  });

  it('dry run answers the plan and changes nothing', async () => {
    const text = 'name,price,sku,category\nNew thing,3,DRY-1,Food\nCola again,2.5,COLA,Soft drinks\nPlain,1,PLAIN,\n';
    const r = await csv('/api/admin/products/import?dry_run=1', text);
    expect(r.status).toBe(200);
    // COLA: name differs; PLAIN is as stored.
    expect(r.body).toEqual({ create: 1, update: 1, unchanged: 1, errors: [] });
    expect(await product('DRY-1')).toBeUndefined();
    expect((await product('COLA'))?.name).toBe('Cola');
  });

  it('reports each bad cell with its line and column, and applies nothing (422)', async () => {
    const text = [
      'sku,name,price,stock,barcode,archived,description',
      'OK-1,Fine,1,,,false,',
      'OK-2,Two,1,5,,,"two\nlines"',
      'BAD-1,,1,,,,',
      'BAD-2,Bad price,abc,,,,',
      'BAD-3,Bad stock,1,many,,,',
      'BAD-4,Dup code,1,,CODE-1,,',
      'OK-1,Again,1,,,,',
      'BAD-5,Archived?,1,,,maybe,',
    ].join('\n');
    const dry = await csv('/api/admin/products/import?dry_run=1', text);
    expect(dry.status).toBe(200);
    expect(dry.body.errors.map((e) => [e.line, e.column])).toEqual([
      [5, 'name'],
      [6, 'price'],
      [7, 'stock'],
      [8, 'barcode'],
      [9, 'sku'],
      [10, 'archived'],
    ]);
    for (const e of dry.body.errors) expect(e.message.length).toBeGreaterThan(3);
    const wet = await csv('/api/admin/products/import', text);
    expect(wet.status).toBe(422);
    expect(wet.body.errors).toEqual(dry.body.errors);
    expect(await product('OK-1')).toBeUndefined(); // all or nothing
  });

  it('refuses a header without a required column or with an unknown one', async () => {
    const r = await csv('/api/admin/products/import', 'sku,name,colour\nX,Y,red\n');
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ line: 1, column: 'colour' }),
        expect.objectContaining({ line: 1, column: 'price' }),
      ]),
    );
  });

  it('applies the plan: updates by SKU, creates the rest, deletes nothing', async () => {
    const before = (await products()).length;
    const r = await csv('/api/admin/products/import', 'sku,name,price,stock,low_stock\nCOLA,Cola Zero,2.75,40,5\nNEW-1,Crisps,1.2,,\n');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ create: 1, update: 1, unchanged: 0, errors: [] });
    expect(await product('COLA')).toMatchObject({ name: 'Cola Zero', price: '2.75', stock: 40, low_stock: 5, category: 'Soft drinks' });
    expect(await product('NEW-1')).toMatchObject({ name: 'Crisps', price: '1.2', stock: null, currency: 'DOGE' });
    expect((await products()).length).toBe(before + 1);
  });

  it('exports the header and defuses formula cells, and the export imports back unchanged', async () => {
    const evil = await as(who.manager, 'POST', '/api/admin/products', {
      sku: 'EVIL',
      name: '=HYPERLINK("http://x","y")',
      price: '1',
      category: '+Sum',
      description: '@cmd, "quoted"',
      stock: -3,
    });
    expect(evil.status).toBe(201);
    const out = await as(who.manager, 'GET', '/api/admin/products/export');
    expect(out.status).toBe(200);
    expect(out.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = out.text.split('\r\n');
    expect(lines[0]).toBe('sku,name,price,currency,tax_rate,category,barcode,stock,low_stock,description,archived');
    const row = lines.find((l) => l.startsWith('EVIL,'))!;
    expect(row).toBe(`EVIL,"'=HYPERLINK(""http://x"",""y"")",1,DOGE,0,'+Sum,,'-3,0,"'@cmd, ""quoted""",false`);
    const back = await csv('/api/admin/products/import', out.text);
    expect(back.status).toBe(200);
    expect(back.body.create + back.body.update).toBe(0);
    expect(back.body.unchanged).toBe(lines.length - 2);
    expect(await product('EVIL')).toMatchObject({
      name: '=HYPERLINK("http://x","y")',
      category: '+Sum',
      description: '@cmd, "quoted"',
      stock: -3,
    });
  });

  it('imports 5,000 rows (its time printed for docs/performance.md, never asserted), and refuses 5,001', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `BULK-${i},Bulk product ${i},${(i % 97) + 1}.25,Bulk,B-${i},${i % 7},2`);
    const text = 'sku,name,price,category,barcode,stock,low_stock\n' + rows.join('\n') + '\n';
    const t0 = performance.now();
    const r = await csv('/api/admin/products/import', text);
    const ms = performance.now() - t0;
    console.log(`import of 5,000 new rows: ${ms.toFixed(0)} ms`);
    expect(r.status).toBe(200);
    expect(r.body.create).toBe(5000);
    const t1 = performance.now();
    const again = await csv('/api/admin/products/import', text.replace(/Bulk product/g, 'Bulk item'));
    console.log(`import updating 5,000 rows: ${(performance.now() - t1).toFixed(0)} ms`);
    expect(again.body.update).toBe(5000);
    const tooMany = await csv<ErrorJson>('/api/admin/products/import?dry_run=1', text + 'BULK-X,X,1,,,,\n');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/5000/);
  }, 60_000);
});
