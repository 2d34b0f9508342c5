// Concurrent sales of one tracked product on a real PostgreSQL server lose no decrement
// (docs/catalog.md#stock): 20 sales settled at once, each in its own transaction on its own
// connection (the writer's transition path), and 20 /pay acceptances at once from four
// processes' worth of connection pools (the acceptance statement), then all retried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { openMigratedDb, type Db } from '@/lib/db';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';
import { testXpub } from '../helpers/keys';
import { createTestPayment } from '../helpers/payments';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { acceptClaimed, claimPayment, loadPayRow, markPayment } from '@/lib/payments';
import { stockOf } from '@/lib/stock';

const URL_BASE = 'http://127.0.0.1:1';
let pg: PgServer;
let db: Db;
const others: Db[] = [];
const SKU = 'BEAN';
let productId: string;

const sale = () =>
  createTestPayment<{ id: string }>(db, { extra: { items: [{ type: 'item', id: SKU, name: 'Beans', count: 1, unit: '1' }] } });
const level = async () => (await stockOf(db, 1, productId)).stock;

beforeAll(async () => {
  pg = await startPostgres();
  const url = await createDatabase(pg, 'stock');
  db = await openMigratedDb({ databaseUrl: url, poolSize: 24 });
  for (let i = 0; i < 4; i++) others.push(await openMigratedDb({ databaseUrl: url, poolSize: 6 }));
  await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: testXpub(62) }, create: { id: 1, storeXpub: testXpub(62) } });
  await activeRelayKey(db, 1);
  productId = randomUUID();
  await db.prisma.product.create({ data: { id: productId, sku: SKU, name: 'Beans', price: 100_000_000n, stock: 100 } });
}, 180_000);
afterAll(async () => {
  for (const o of others) await o.close();
  await db?.close();
  await pg?.stop();
});

describe('concurrent sales on PostgreSQL', () => {
  it('20 sales settled at once, each in its own transaction: 20 taken, 20 movements', async () => {
    const sales = await Promise.all(Array.from({ length: 20 }, sale));
    const results = await Promise.all(
      sales.map((s) => markPayment(db, { storeId: 1 }, s.id, { as: 'settled', note: '' }, 'merchant', URL_BASE)),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(await level()).toBe(80);
    const sold = (await stockOf(db, 1, productId)).movements.filter((m) => m.reason === 'sale');
    expect(sold.length).toBe(20);
    expect(new Set(sold.map((m) => m.payment_id)).size).toBe(20);
  }, 120_000);

  it('20 /pay acceptances at once from four connection pools, then all retried: 20 taken, once each', async () => {
    const sales = await Promise.all(Array.from({ length: 20 }, sale));
    const now = new Date();
    const rows = await Promise.all(
      sales.map(async (s, i) => {
        const via = others[i % others.length];
        const txid = randomBytes(32).toString('hex');
        expect(await claimPayment(via, s.id, { txid, txHex: '00', refund: '', buyer: '', now })).toBe('claimed');
        return { via, row: (await loadPayRow(via, s.id))! };
      }),
    );
    const accept = () =>
      Promise.all(rows.map(({ via, row }) => acceptClaimed(via, row, now, URL_BASE, { value: row.total, inputs: [] }, false)));
    const first = await accept();
    expect(first.every((r) => r !== null)).toBe(true);
    expect(await level()).toBe(60);
    const again = await accept();
    expect(again.every((r) => r === null)).toBe(true);
    expect(await level()).toBe(60);
    expect((await stockOf(db, 1, productId)).movements.filter((m) => m.reason === 'sale').length).toBe(40);
  }, 120_000);
});
