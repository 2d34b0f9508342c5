// The catalog's CSV export and import, the stock counts an import records, and the till's
// catalog and recent sales each act for one store (docs/architecture.md#data): on a real PGlite
// database with two stores whose catalogs share a SKU and a barcode, store 1 never sees, matches,
// changes or counts store 2's products or sales.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Db } from '@/lib/db';
import { REGTEST } from '@/lib/doge';
import { exportCatalogCsv, importCatalogCsv } from '@/lib/backoffice/catalog-csv';
import { posCatalog, posCategories, recentSales } from '@/lib/pos/catalog';
import { createPayment } from '@/lib/payments/creation/create-payment';
import { openTestDb } from '../helpers/stores';
import { testXpub } from '../helpers/keys';
import { TEST_PUBLIC_URL, teaRequest } from '../helpers/payments';

let db: Db;
const userId = randomUUID();
let theirs: { id: string; stock: number | null };

async function sale(storeId: number): Promise<string> {
  const r = await createPayment(
    { storeId, db, network: REGTEST, publicUrl: TEST_PUBLIC_URL, apiKeyId: null, userId, idempotencyKey: null },
    JSON.stringify(teaRequest('3')),
  );
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return (r.body as { id: string }).id;
}

beforeAll(async () => {
  db = await openTestDb();
  await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: testXpub(61) }, create: { id: 1, storeXpub: testXpub(61) } });
  await db.prisma.store.create({ data: { id: 2, name: 'Store two', storeXpub: testXpub(62), categories: ['Secret shelf'] } });
  await db.prisma.user.create({ data: { id: userId, email: 'both@stores.test', name: 'In both', passwordHash: 'x', role: 'owner' } });
  await db.prisma.membership.createMany({
    data: [
      { storeId: 1, userId, role: 'owner' },
      { storeId: 2, userId, role: 'owner' },
    ],
  });
  const r = await importCatalogCsv(db, 2, 'sku,name,price,category,barcode,stock\nSHARED,Tea of two,1,Secret shelf,BC-1,5\n', {
    dryRun: false,
    userId,
  });
  expect(r.plan).toMatchObject({ create: 1, errors: [] });
  theirs = (await db.prisma.product.findFirstOrThrow({ where: { storeId: 2, sku: 'SHARED' } })) as typeof theirs;
}, 60_000);
afterAll(async () => db?.close());

describe("one store's catalog CSV never touches another's", () => {
  it("an import matches SKUs and barcodes in its own store only: store 2's SHARED is neither updated nor a barcode clash", async () => {
    const csv = 'sku,name,price,barcode,stock\nSHARED,Tea of one,2,BC-1,9\n';
    expect((await importCatalogCsv(db, 1, csv, { dryRun: true })).plan).toEqual({ create: 1, update: 0, unchanged: 0, errors: [] });
    expect((await importCatalogCsv(db, 1, csv, { dryRun: false, userId })).applied).toBe(true);
    const mine = await db.prisma.product.findFirstOrThrow({ where: { storeId: 1, sku: 'SHARED' } });
    expect(mine).toMatchObject({ name: 'Tea of one', barcode: 'BC-1', stock: 9 });
    // A second import updates store 1's row, and its stock count is store 1's.
    const again = await importCatalogCsv(db, 1, 'sku,name,price,stock\nSHARED,Tea of one,2,4\n', { dryRun: false, userId });
    expect(again.plan).toMatchObject({ create: 0, update: 1 });
    expect(await db.prisma.product.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({
      name: 'Tea of two',
      barcode: 'BC-1',
      stock: 5,
      storeId: 2,
    });
    const moves = await db.prisma.stockMovement.findMany({ orderBy: { at: 'asc' } });
    expect(moves.filter((m) => m.productId === theirs.id).map((m) => [m.storeId, m.delta])).toEqual([[2, 5]]);
    expect(moves.filter((m) => m.productId === mine.id).map((m) => [m.storeId, m.delta])).toEqual([
      [1, 9],
      [1, -5],
    ]);
  });

  it("the export lists the caller's store's products only", async () => {
    const one = await exportCatalogCsv(db, 1);
    expect(one).toContain('Tea of one');
    expect(one).not.toContain('Tea of two');
    expect(await exportCatalogCsv(db, 2)).not.toContain('Tea of one');
  });
});

describe("the till loads its own store's catalog and sales", () => {
  it("store 1's till sells store 1's products, with store 1's categories", async () => {
    const one = await posCatalog(db, 1);
    expect(one.map((p) => p.name)).toEqual(['Tea of one']);
    expect(await posCategories(db, 1, one)).toEqual([]);
    const two = await posCatalog(db, 2);
    expect(two.map((p) => p.id)).toEqual([theirs.id]);
    expect(await posCategories(db, 2, two)).toEqual(['Secret shelf']);
  });

  it("a user in two stores sees, on each till, that store's sales today only", async () => {
    const inOne = await sale(1);
    const inTwo = await sale(2);
    expect((await recentSales(db, 1, userId)).map((s) => s.id)).toEqual([inOne]);
    expect((await recentSales(db, 2, userId)).map((s) => s.id)).toEqual([inTwo]);
  });
});
