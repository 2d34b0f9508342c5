// MAX_OPEN_PAYMENTS (docs/security.md) on PGlite: open = unpaid and not expired; the count
// stops at the cap and reads the partial index, however many old payments the table holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { MAINNET } from '@/lib/doge';
import { createPayment } from '@/lib/payments/creation/create-payment';
import { cancelPayment } from '@/lib/payments';
import { countOpenPayments } from '@/lib/payments/queries/open-payments';
import { TooManyOpenPaymentsError } from '@/lib/payments/creation/errors';
import { DGUB } from '../helpers/keys';

const URL_BASE = 'http://127.0.0.1:1';
let db: Db;

const create = (maxOpenPayments: number, now = new Date()) =>
  createPayment(
    { storeId: 1, db, network: MAINNET, publicUrl: URL_BASE, maxOpenPayments, now },
    JSON.stringify({ items: [{ type: 'item', id: 'a', name: 'A', count: 1, unit: '1' }], timeout: 60 }),
  );

beforeAll(async () => {
  db = await openTestDb();
  await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: DGUB }, create: { id: 1, storeXpub: DGUB } });
});
afterAll(async () => db?.close());

describe('open payments cap', () => {
  it('counts unpaid, unexpired payments only, up to the cap; refuses beyond it', async () => {
    const hourAgo = new Date(Date.now() - 3600_000);
    for (let i = 0; i < 4; i++) await create(1000, hourAgo); // all expired by now
    const paid = (await create(1000)).body.id as string;
    await db.prisma.payment.update({ where: { id: paid }, data: { status: 'confirmed', confirmations: 6 } });
    expect(await countOpenPayments(db, 1, 100)).toBe(0);
    const a = (await create(2)).body.id as string;
    await create(2);
    expect(await countOpenPayments(db, 1, 100)).toBe(2);
    expect(await countOpenPayments(db, 1, 1)).toBe(1); // stops at the limit
    await expect(create(2)).rejects.toBeInstanceOf(TooManyOpenPaymentsError);
    expect(await cancelPayment(db, { storeId: 1, ownSalesOf: null }, a, URL_BASE)).toBe('cancelled');
    await create(2);
    await expect(create(2)).rejects.toThrow(/MAX_OPEN_PAYMENTS/);
    expect(await db.prisma.payment.count()).toBe(8);
  });

  it('uses the partial index rather than scanning the table', async () => {
    await db.query('SET enable_seqscan = off');
    const plan = await db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT count(*) AS n FROM (SELECT 1 FROM payment WHERE status = 'unpaid' AND expires_at > $1 LIMIT $2) AS open`,
      [new Date(), 10],
    );
    await db.query('SET enable_seqscan = on');
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/payment_open_expires_idx/);
  });
});
