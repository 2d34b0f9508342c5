// Upgrading a single-store database in place (docs/architecture.md#data): a database written by
// the migrations before stores existed, holding a store, users with roles and a PIN, an API key,
// a terminal, products, a payment with its lines and events, a session and an audit entry, is
// migrated to the many-store schema. Everything belongs to the first store, nothing is lost, the
// oldest owner is the operator (until ADMIN_EMAIL names another), and a second store can then
// hold the same SKU. On PGlite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, migrate, loadMigrations, MIGRATIONS_DIR, type Db } from '@/lib/db';
import { claimOperator } from '@/lib/auth/accounts';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';

const STORES_MIGRATION = '20261129042000_stores';
const OWNED = [
  'relay_key',
  'api_key',
  'product',
  'payment',
  'payment_line',
  'vendor_event',
  'audit_log',
  'terminal',
  'stock_movement',
  'payment_output',
  'payment_submission',
  'payment_tx',
  'idempotency_key',
  'webhook_attempt',
  'display_pairing',
  'customer_display',
  'display_cart',
];

/** What a single-store install held, written with the SQL of the schema before stores. */
async function seedSingleStore(db: Db): Promise<void> {
  await db.exec(`
    INSERT INTO store (id, name, store_xpub, webhook_url) VALUES (1, 'Shibe Coffee', 'dgub-old', 'https://example.com/hook');
    INSERT INTO relay_key (pubkey, secret_key, token_key) VALUES ('02ab', '\\x01', '\\x02');
    INSERT INTO "user" (id, email, name, password_hash, role, created_at) VALUES
      ('u-owner', 'owner@example.com', 'Owner', 'scrypt$x', 'owner', '2026-01-01T00:00:00Z'),
      ('u-late-owner', 'late@example.com', 'Late', 'scrypt$y', 'owner', '2026-02-01T00:00:00Z'),
      ('u-cash', 'cash@example.com', 'Cash', 'scrypt$z', 'cashier', '2026-01-02T00:00:00Z');
    UPDATE "user" SET pin_hash = 'pin$hash' WHERE id = 'u-cash';
    INSERT INTO session (token_hash, user_id, csrf_token, expires_at) VALUES ('tok', 'u-owner', 'csrf', now() + interval '1 day');
    INSERT INTO api_key (id, name, prefix, key_hash, scopes, created_by) VALUES ('k1', 'pos', 'ck_live_ab', 'keyhash', '{payments:read}', 'u-owner');
    INSERT INTO terminal (id, name, token_hash) VALUES ('t1', 'Till 1', 'termhash');
    INSERT INTO product (id, sku, name, price, barcode) VALUES ('p1', 'LATTE', 'Latte', 500000000, '4006381333931');
    INSERT INTO payment (id, total, address, timeout_sec, fee_per_kb, max_size, required_confirmations, issued_at, expires_at,
                         envelope, payload_hash, pubkey, signature, relay_token, terminal_id)
      VALUES ('pay1', 500000000, 'nAddr', 900, 1000000, 100000, 1, now(), now() + interval '15 minutes', '{}', 'h', '02ab', 's', 'rt', 't1');
    INSERT INTO payment_line (payment_id, idx, type, item_id, name) VALUES ('pay1', 0, 'item', 'LATTE', 'Latte');
    INSERT INTO vendor_event (id, type, payment_id, body) VALUES ('ev1', 'payment.accepted', 'pay1', '{}');
    INSERT INTO audit_log (user_id, user_email, action) VALUES ('u-owner', 'owner@example.com', 'settings.update');
  `);
}

const count = async (db: Db, sql: string) => Number((await db.query<{ n: unknown }>(sql))[0].n);

describe.each(['pglite', 'postgresql'] as const)('upgrading a single-store database to many stores (%s)', (kind) => {
  let pg: PgServer | undefined;
  let db: Db;
  let dir = '';
  beforeAll(async () => {
    if (kind === 'postgresql') pg = await startPostgres();
    dir = mkdtempSync(join(tmpdir(), 'counter-stores-upgrade-'));
    db =
      kind === 'pglite'
        ? await openDb({ dataDir: dir })
        : await openDb({ databaseUrl: await createDatabase(pg!, `stores_up_${process.pid}`), poolSize: 2 });
    const all = loadMigrations(MIGRATIONS_DIR);
    const at = all.findIndex((m) => m.name === STORES_MIGRATION);
    expect(at).toBeGreaterThan(0);
    await migrate(db, all.slice(0, at));
    await seedSingleStore(db);
    expect((await migrate(db, all)).applied).toEqual(all.slice(at).map((m) => m.name));
  }, 180_000);
  afterAll(async () => {
    await db?.close();
    await pg?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('puts every owned row in the first store and loses none', async () => {
    const seeded: Record<string, number> = {
      relay_key: 1,
      api_key: 1,
      product: 1,
      payment: 1,
      payment_line: 1,
      vendor_event: 1,
      audit_log: 1,
      terminal: 1,
    };
    for (const table of OWNED) {
      expect(await count(db, `SELECT count(*) AS n FROM "${table}" WHERE store_id <> 1`), table).toBe(0);
      if (seeded[table]) expect(await count(db, `SELECT count(*) AS n FROM "${table}" WHERE store_id = 1`), table).toBe(seeded[table]);
    }
    expect(await db.query(`SELECT id, name, store_xpub, webhook_url, suspended FROM store`)).toEqual([
      { id: 1, name: 'Shibe Coffee', store_xpub: 'dgub-old', webhook_url: 'https://example.com/hook', suspended: false },
    ]);
    expect(await db.query(`SELECT token_hash, store_id FROM session`)).toEqual([{ token_hash: 'tok', store_id: 1 }]);
  });

  it('makes every user a member of the first store with its role and PIN, and the oldest owner the operator', async () => {
    expect(await db.query(`SELECT user_id, store_id, role, pin_hash FROM membership ORDER BY user_id`)).toEqual([
      { user_id: 'u-cash', store_id: 1, role: 'cashier', pin_hash: 'pin$hash' },
      { user_id: 'u-late-owner', store_id: 1, role: 'owner', pin_hash: null },
      { user_id: 'u-owner', store_id: 1, role: 'owner', pin_hash: null },
    ]);
    expect(await db.query(`SELECT id FROM "user" WHERE operator`)).toEqual([{ id: 'u-owner' }]);
    expect(await count(db, `SELECT count(*) AS n FROM "user" WHERE last_store_id = 1`)).toBe(3);
  });

  it('moves the operator flag to the account ADMIN_EMAIL names, when it exists', async () => {
    expect(await claimOperator(db, 'nobody@example.com')).toBe(false);
    expect(await db.query(`SELECT id FROM "user" WHERE operator`)).toEqual([{ id: 'u-owner' }]);
    expect(await claimOperator(db, 'Late@Example.com')).toBe(true);
    expect(await db.query(`SELECT id FROM "user" WHERE operator`)).toEqual([{ id: 'u-late-owner' }]);
    await claimOperator(db, 'owner@example.com');
  });

  it('takes a second store after the first, with its own SKUs, barcodes and wallet', async () => {
    const [second] = await db.query<{ id: number }>(`INSERT INTO store (name) VALUES ('Second') RETURNING id`);
    expect(second.id).toBe(2);
    await db.query(`INSERT INTO product (id, sku, name, price, barcode, store_id) VALUES ('p2', 'LATTE', 'Latte', 1, '4006381333931', 2)`);
    await expect(db.query(`INSERT INTO product (id, sku, name, price, store_id) VALUES ('p3', 'LATTE', 'Dup', 1, 2)`)).rejects.toThrow(
      /product_store_sku_key/,
    );
    await expect(db.query(`UPDATE store SET store_xpub = 'dgub-old' WHERE id = 2`)).rejects.toThrow(/store_xpub_key/);
    await expect(db.query(`UPDATE "user" SET operator = TRUE WHERE id = 'u-late-owner'`)).rejects.toThrow(/user_one_operator/);
    await db.query(`INSERT INTO relay_key (pubkey, secret_key, token_key, store_id) VALUES ('03cd', '\\x01', '\\x02', 2)`);
    expect(await count(db, `SELECT count(*) AS n FROM relay_key WHERE active`)).toBe(2);
  });
});
