// The CSV import's cost on PGlite, in-process (docs/catalog.md): where the time of 5,000 rows goes.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openMigratedDb, type Db } from '@/lib/db';
import { importCatalogCsv } from '@/lib/backoffice/catalog-csv';
import { POS_CATALOG_MAX, posCatalog, posCategories } from '@/lib/pos/catalog';

let db: Db;
beforeAll(async () => {
  db = await openMigratedDb({ memory: true });
}, 60_000);
afterAll(async () => db?.close());

it('imports 5,000 new rows, then updates them (times printed for docs/performance.md, never asserted)', async () => {
  const rows = Array.from({ length: 5000 }, (_, i) => `BULK-${i},Bulk product ${i},${(i % 97) + 1}.25,Bulk,B-${i},${i % 7},2`);
  const text = 'sku,name,price,category,barcode,stock,low_stock\n' + rows.join('\n') + '\n';
  let t = performance.now();
  const dry = await importCatalogCsv(db, 1, text, { dryRun: true });
  console.log(`plan of 5,000 rows: ${(performance.now() - t).toFixed(0)} ms`);
  expect(dry.plan.create).toBe(5000);
  t = performance.now();
  expect((await importCatalogCsv(db, 1, text, { dryRun: false })).plan.create).toBe(5000);
  console.log(`import of 5,000 new rows: ${(performance.now() - t).toFixed(0)} ms`);
  t = performance.now();
  expect((await importCatalogCsv(db, 1, text.replace(/Bulk product/g, 'Bulk item'), { dryRun: false })).plan.update).toBe(5000);
  console.log(`import updating 5,000 rows: ${(performance.now() - t).toFixed(0)} ms`);
  const p = await db.prisma.product.findUnique({ where: { storeId_sku: { storeId: 1, sku: 'BULK-4999' } } });
  expect(p).toMatchObject({ name: 'Bulk item 4999', price: 5_325_000_000n, category: 'Bulk', barcode: 'B-4999', stock: 1, lowStock: 2 });
}, 120_000);

it('the till loads the first POS_CATALOG_MAX (at least 500) of those 5,000 products, in catalog order', async () => {
  expect(POS_CATALOG_MAX).toBeGreaterThanOrEqual(500);
  const t = performance.now();
  const loaded = await posCatalog(db, 1);
  console.log(`till catalog of ${loaded.length} products: ${(performance.now() - t).toFixed(0)} ms`);
  expect(loaded).toHaveLength(POS_CATALOG_MAX);
  const names = loaded.map((p) => p.name);
  expect(names).toEqual([...names].sort()); // sort is 0 for all: by name
  expect(loaded[0]).toMatchObject({ sku: 'BULK-0', category: 'Bulk', barcode: 'B-0', stock: 0, lowStock: 2 });
  expect(await posCategories(db, 1, loaded)).toEqual(['Bulk']);
}, 60_000);

it('applies nothing when one row is bad, and lets two rows swap barcodes', async () => {
  const before = await db.prisma.product.count();
  const bad = 'sku,name,price\nNEW-A,Fine,1\nNEW-B,Bad,-1\n';
  const r = await importCatalogCsv(db, 1, bad, { dryRun: false });
  expect(r.applied).toBe(false);
  expect(r.plan.errors).toEqual([{ line: 3, column: 'price', message: expect.any(String) }]);
  expect(await db.prisma.product.count()).toBe(before);
  const swap = await importCatalogCsv(db, 1, 'sku,name,price,barcode\nBULK-1,One,1,B-2\nBULK-2,Two,1,B-1\n', { dryRun: false });
  expect(swap.plan).toEqual({ create: 0, update: 2, unchanged: 0, errors: [] });
  expect((await db.prisma.product.findUnique({ where: { storeId_sku: { storeId: 1, sku: 'BULK-1' } } }))?.barcode).toBe('B-2');
  const taken = await importCatalogCsv(db, 1, 'sku,name,price,barcode\nNEW-C,Three,1,B-3\n', { dryRun: true });
  expect(taken.plan.errors).toEqual([{ line: 2, column: 'barcode', message: 'is already the barcode of product BULK-3' }]);
});
