// The trigger-maintained payment count behind GET /invoices/{seller}'s `total`, on a real
// PostgreSQL server: exact under concurrent inserts from several connections, bulk inserts,
// deletes and TRUNCATE.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openMigratedDb, type Db } from '@/lib/db';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';

let pg: PgServer;
let db: Db;

const insert = (prefix: string, n: number) =>
  db.prisma.$executeRawUnsafe(
    `INSERT INTO payment (id,total,address,timeout_sec,fee_per_kb,max_size,required_confirmations,issued_at,expires_at,envelope,payload_hash,pubkey,signature,relay_token)
   SELECT '${prefix}'||g, 1, 'a', 900, 1, 1, 1, now(), now(), '{}', 'h', 'k', 's', 't' FROM generate_series(1, ${n}) g`,
  );
const shards = async () => Number((await db.prisma.paymentCount.aggregate({ _sum: { n: true } }))._sum.n);

beforeAll(async () => {
  pg = await startPostgres();
  db = await openMigratedDb({ databaseUrl: await createDatabase(pg, 'counts'), poolSize: 8 });
}, 120_000);
afterAll(async () => {
  await db?.close();
  await pg?.stop();
});

it('stays exact under concurrent single-row inserts, bulk inserts, deletes and truncate', async () => {
  expect(await shards()).toBe(0);
  await Promise.all(Array.from({ length: 64 }, (_, i) => insert(`c${i}-`, 1)));
  expect(await shards()).toBe(64);
  await insert('bulk-', 2000);
  expect(await shards()).toBe(await db.prisma.payment.count());
  expect(await shards()).toBe(2064);
  await db.prisma.payment.deleteMany({ where: { id: { startsWith: 'c1' } } });
  expect(await shards()).toBe(await db.prisma.payment.count());
  await db.prisma.$executeRawUnsafe('TRUNCATE payment CASCADE');
  expect(await shards()).toBe(0);
});
