// The paging of GET /invoices/{address} (lib/invoices/list-invoices.ts) against a model, on
// PGlite (before and after the maintenance VACUUM that turns its scans index-only, and with rows
// added after it) and on a real PostgreSQL server: an address matched as the payment address,
// as the buyer, or both at once (listed once), the store's seller address matching everything,
// the mint_hash filter, every page of several limits, the total, and [] past the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedDb, type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { vacuumPglite } from '@/lib/db/maintenance';
import { MAINNET } from '@/lib/doge';
import { listInvoices } from '@/lib/invoices/list-invoices';
import { sellerAddress } from '@/lib/payments/creation/receive-address';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';
import { DGUB } from '../helpers/keys';

const SELLER = sellerAddress({ storeXpub: DGUB, storeAddress: '' }, MAINNET);
const MINT = 'c3'.repeat(32);

interface Model {
  id: string;
  address: string;
  buyer: string;
  mint: string;
}

// Payment g (1-based, inserted in g order): X is the payment address of every 10th and the
// buyer of every 3rd (both at once for g = 30, 60, …), Y the buyer of every 7th.
const row = (g: number): Model => ({
  id: `pay-${String(g).padStart(4, '0')}`,
  address: g % 10 === 0 ? 'X' : `recv-${g}`,
  buyer: g % 3 === 0 ? 'X' : g % 7 === 0 ? 'Y' : '',
  mint: g % 4 === 0 ? MINT : '',
});

async function insert(db: Db, from: number, to: number, storeId = 1, prefix = 'pay') {
  for (let g = from; g <= to; g++) {
    const r = row(g);
    await db.query(
      `INSERT INTO payment (store_id, id, total, quantity, address, buyer_address, mint_hash, timeout_sec, fee_per_kb, max_size, required_confirmations,
         issued_at, expires_at, envelope, payload_hash, pubkey, signature, relay_token)
       VALUES ($6, $1, $2, 1, $3, $4, $5, 900, 1, 1, 1, now(), now(), '{}', 'h', 'k', 's', 't')`,
      [r.id.replace(/^pay/, prefix), 100_000_000 + g, r.address, r.buyer, r.mint, storeId],
    );
  }
}

function expected(n: number, address: string, mint: string | null): string[] {
  const all = Array.from({ length: n }, (_, i) => row(i + 1)).reverse();
  return all
    .filter((r) => (address === SELLER || r.address === address || r.buyer === address) && (mint === null || r.mint === mint))
    .map((r) => r.id);
}

async function checkAll(db: Db, n: number) {
  for (const address of [SELLER, 'X', 'Y', 'nobody']) {
    for (const mint of [null, MINT]) {
      const want = expected(n, address, mint);
      for (const limit of [1, 7, 33, 100]) {
        const got: string[] = [];
        const pages = Math.floor(want.length / limit) + 1; // the last one is short or empty
        for (let page = 0; page <= pages; page++) {
          const r = await listInvoices(db, MAINNET, 1, address, { limit, page, mintHash: mint });
          expect(r.total, `${address} ${mint} ${limit}/${page}`).toBe(want.length);
          expect(r.limit).toBe(limit);
          expect(r.page).toBe(page);
          expect(r.invoices.length).toBeLessThanOrEqual(limit);
          if (page * limit >= want.length) expect(r.invoices).toEqual([]);
          got.push(...r.invoices.map((i) => i.id));
        }
        expect(got, `${address} ${mint} limit ${limit}`).toEqual(want);
      }
    }
  }
  const both = await listInvoices(db, MAINNET, 1, 'X', { limit: 100, page: 0, mintHash: null });
  const p30 = both.invoices.find((i) => i.id === 'pay-0030');
  expect(p30).toMatchObject({ payment_address: 'X', buyer_address: 'X', seller_address: SELLER, price: 1.0000003, quantity: 1 });
}

async function setup(db: Db) {
  await db.query(`INSERT INTO store (id, store_xpub, store_address) VALUES (1, $1, '') ON CONFLICT (id) DO UPDATE SET store_xpub = $1`, [
    DGUB,
  ]);
  await insert(db, 1, 150);
}

describe('invoice paging on PGlite', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb();
    await setup(db);
  }, 60_000);
  afterAll(async () => db?.close());

  it('matches the model before and after VACUUM, and with rows added after it', async () => {
    await checkAll(db, 150);
    await vacuumPglite(db);
    await checkAll(db, 150);
    await insert(db, 151, 163);
    await checkAll(db, 163);
  }, 120_000);

  it("lists the store's own invoices only: another store's payments to the same addresses stay out", async () => {
    await db.query(`INSERT INTO store (id, name) VALUES (2, 'Other store')`);
    await insert(db, 1, 60, 2, 'other');
    await checkAll(db, 163);
    // Store 2 (no wallet of its own: no seller address) sees its own X payments and buyers, none of store 1's.
    const two = await listInvoices(db, MAINNET, 2, 'X', { limit: 100, page: 0, mintHash: null });
    const want = Array.from({ length: 60 }, (_, i) => row(i + 1)).filter((r) => r.address === 'X' || r.buyer === 'X');
    expect(two.total).toBe(want.length);
    expect(two.invoices.map((i) => i.id).sort()).toEqual(want.map((r) => r.id.replace(/^pay/, 'other')).sort());
    // Store 1's seller address is just an address to store 2: none of its payments pay it.
    expect((await listInvoices(db, MAINNET, 2, SELLER, { limit: 100, page: 0, mintHash: null })).total).toBe(0);
  }, 120_000);
});

describe('invoice paging on PostgreSQL', () => {
  let pg: PgServer;
  let db: Db;
  beforeAll(async () => {
    pg = await startPostgres();
    db = await openMigratedDb({ databaseUrl: await createDatabase(pg, 'paging'), poolSize: 4 });
    await setup(db);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await pg?.stop();
  });

  it('matches the model', async () => {
    await checkAll(db, 150);
  }, 120_000);
});
