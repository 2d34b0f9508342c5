// The CSV import's cost on PGlite, in-process (docs/catalog.md): where the time of 5,000 rows goes.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openMigratedDb, type Db } from '@/lib/db';
import { importCatalogCsv } from '@/lib/backoffice/catalog-csv';

let db: Db;
beforeAll(async () => { db = await openMigratedDb({ memory: true }); }, 60_000);
afterAll(async () => db?.close());

it('imports 5,000 new rows, then updates them, well under 10 s each', async () => {
  const rows = Array.from({ length: 5000 }, (_, i) => `BULK-${i},Bulk product ${i},${(i % 97) + 1}.25,Bulk,B-${i},${i % 7},2`);
  const text = 'sku,name,price,category,barcode,stock,low_stock\n' + rows.join('\n') + '\n';
  const within = (t0: number) => expect(performance.now() - t0).toBeLessThan(10_000);
  let t = performance.now();
  const dry = await importCatalogCsv(db, text, { dryRun: true });
  console.log(`plan of 5,000 rows: ${(performance.now() - t).toFixed(0)} ms`);
  expect(dry.plan.create).toBe(5000);
  t = performance.now();
  expect((await importCatalogCsv(db, text, { dryRun: false })).plan.create).toBe(5000);
  console.log(`import of 5,000 new rows: ${(performance.now() - t).toFixed(0)} ms`);
  within(t);
  t = performance.now();
  expect((await importCatalogCsv(db, text.replace(/Bulk product/g, 'Bulk item'), { dryRun: false })).plan.update).toBe(5000);
  console.log(`import updating 5,000 rows: ${(performance.now() - t).toFixed(0)} ms`);
  within(t);
  const p = await db.prisma.product.findUnique({ where: { sku: 'BULK-4999' } });
  expect(p).toMatchObject({ name: 'Bulk item 4999', price: 5_325_000_000n, category: 'Bulk', barcode: 'B-4999', stock: 1, lowStock: 2 });
}, 120_000);
