// The data layer on both databases: embedded PGlite and a real PostgreSQL server started for
// this file. Migrations are applied by our runner and must be recorded exactly as Prisma does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, writeFileSync, cpSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, openMigratedDb, migrate, loadMigrations, MIGRATIONS_DIR, MigrationError, type Db } from '@/lib/db';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';
import { seedDataDir } from '../helpers/pglite-template';

let pgServer: PgServer;
let dbCounter = 0;
const tmpDirs: string[] = [];

beforeAll(async () => {
  pgServer = await startPostgres();
}, 120_000);

afterAll(async () => {
  await pgServer?.stop();
  for (const d of tmpDirs) rmSync(d, { recursive: true, force: true });
});

function tmp(prefix: string) {
  const d = mkdtempSync(join(tmpdir(), prefix));
  tmpDirs.push(d);
  return d;
}

type Kind = 'pglite' | 'postgresql';
/**
 * A migrated database of its own. On PGlite, a copy of the suite's migrated template
 * (tests/helpers/pglite-template.ts) unless `empty`: creating a cluster under WebAssembly costs
 * seconds of CPU, and only the test of applying the migrations needs to watch them applied.
 */
async function fresh(kind: Kind, { empty = false } = {}): Promise<{ db: Db; opts: Parameters<typeof openDb>[0] }> {
  let opts: Parameters<typeof openDb>[0];
  if (kind === 'pglite') {
    opts = { dataDir: tmp('counter-pglite-') };
    if (!empty) await seedDataDir(opts.dataDir!);
  } else {
    opts = { databaseUrl: await createDatabase(pgServer, `t${process.pid}_${++dbCounter}`) };
  }
  return { db: await openMigratedDb(opts), opts };
}

const BIG = 999_999_999_999_999_999n; // > 2^53: proves amounts never pass through a float

describe.each(['pglite', 'postgresql'] as const)('database on %s', (kind) => {
  it('applies every migration once and records it in _prisma_migrations with its sha256', async () => {
    const { db, opts } = await fresh(kind, { empty: true });
    try {
      expect(db.kind).toBe(kind);
      const files = loadMigrations(MIGRATIONS_DIR);
      expect(files.length).toBeGreaterThan(0);
      const rows = await db.query<{ migration_name: string; checksum: string; finished_at: unknown; applied_steps_count: number }>(
        'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
      );
      expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
      for (const [i, r] of rows.entries()) {
        expect(r.checksum).toBe(createHash('sha256').update(files[i].sql).digest('hex'));
        expect(r.finished_at).not.toBeNull();
        expect(Number(r.applied_steps_count)).toBe(1);
      }
      const again = await migrate(db, files);
      expect(again.applied).toEqual([]);
      expect(again.alreadyApplied).toEqual(files.map((f) => f.name));
      void opts;
    } finally {
      await db.close();
    }
  });

  it('refuses a migration edited after it was applied, and rolls back a failing one', async () => {
    const { db } = await fresh(kind);
    try {
      const dir = tmp('counter-mig-');
      cpSync(MIGRATIONS_DIR, dir, { recursive: true });
      const [first] = loadMigrations(dir);
      writeFileSync(join(dir, first.name, 'migration.sql'), first.sql + '\n-- edited\n');
      await expect(migrate(db, loadMigrations(dir))).rejects.toThrow(/checksum mismatch/);

      const dir2 = tmp('counter-mig-');
      cpSync(MIGRATIONS_DIR, dir2, { recursive: true });
      mkdirSync(join(dir2, '99990101000000_broken'));
      writeFileSync(
        join(dir2, '99990101000000_broken', 'migration.sql'),
        'CREATE TABLE "half_done" (x INT);\nSELECT * FROM "no_such_table";\n',
      );
      await expect(migrate(db, loadMigrations(dir2))).rejects.toBeInstanceOf(MigrationError);
      const half = await db.query<{ n: unknown }>(`SELECT count(*) AS n FROM pg_tables WHERE tablename = 'half_done'`);
      expect(Number(half[0].n)).toBe(0);
      const rec = await db.query(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '99990101000000_broken'`);
      expect(rec).toHaveLength(0);
    } finally {
      await db.close();
    }
  });

  it('round-trips every model through Prisma, with bigint koinu beyond 2^53', async () => {
    const { db } = await fresh(kind);
    const p = db.prisma;
    try {
      await p.store.create({ data: { name: 'Shibe Coffee', feePerKb: 1_000_000n, oneConfLimit: BIG } });
      expect((await p.store.findUniqueOrThrow({ where: { id: 1 } })).oneConfLimit).toBe(BIG);
      // Many stores: the next one takes the next id, and may not reuse another store's wallet.
      await p.store.update({ where: { id: 1 }, data: { storeXpub: 'dgub-one' } });
      expect((await p.store.create({ data: { name: 'Second' } })).id).toBe(2);
      await expect(p.store.update({ where: { id: 2 }, data: { storeXpub: 'dgub-one' } })).rejects.toThrow();

      const sk = new Uint8Array(32).fill(7);
      await p.relayKey.create({ data: { pubkey: 'ab'.repeat(32), secretKey: sk, tokenKey: new Uint8Array(32).fill(9) } });
      const rk = await p.relayKey.findFirstOrThrow({ where: { active: true } });
      expect(Buffer.from(rk.secretKey).equals(Buffer.from(sk))).toBe(true);
      await expect(p.relayKey.create({ data: { pubkey: 'cd'.repeat(32), secretKey: sk, tokenKey: sk } })).rejects.toThrow();

      const user = await p.user.create({ data: { id: 'u1', email: 'o@example.com', passwordHash: 'scrypt$x', role: 'owner' } });
      await expect(p.user.create({ data: { id: 'u2', email: 'x@example.com', passwordHash: 'h', role: 'admin' } })).rejects.toThrow();
      await p.session.create({ data: { tokenHash: 'th', userId: user.id, csrfToken: 'c', expiresAt: new Date(Date.now() + 1000) } });
      await p.apiKey.create({
        data: { id: 'k1', prefix: 'ck_abc', keyHash: 'h1', scopes: ['payments:write', 'node:read'], createdBy: user.id },
      });
      expect((await p.apiKey.findUniqueOrThrow({ where: { keyHash: 'h1' } })).scopes).toEqual(['payments:write', 'node:read']);
      await p.product.create({ data: { id: 'p1', sku: 'SKU-1', name: 'Coffee', price: 1_050_000_000n, taxRateBp: 1000 } });
      await p.appState.create({ data: { key: 'setup_code_hash', value: 'abc' } });

      const issued = new Date('2026-11-23T10:00:00.000Z');
      await p.payment.create({
        data: {
          id: 'pay1',
          total: BIG,
          fees: 100_000_000n,
          taxes: 105_000_000n,
          quantity: 2,
          address: 'nAddr',
          addressIndex: 0,
          meta: { 'com.example.table': '7' },
          timeoutSec: 900,
          feePerKb: 1_000_000n,
          maxSize: 100_000,
          requiredConfirmations: 1,
          issuedAt: issued,
          expiresAt: new Date(issued.getTime() + 900_000),
          envelope: '{}',
          payloadHash: 'h',
          pubkey: 'pk',
          signature: 'sig',
          relayToken: 'tok',
          apiKeyId: 'k1',
          createdBy: user.id,
          lines: {
            create: [
              {
                idx: 0,
                type: 'item',
                itemId: 'SKU-1',
                name: 'Coffee',
                count: 2,
                unit: 1_050_000_000n,
                total: 2_100_000_000n,
                tax: 105_000_000n,
              },
              { idx: 1, type: 'discount', itemId: 'd', name: 'Promo', count: 1, unit: -100_000_000n, total: -100_000_000n },
              { idx: 2, type: 'signing', itemId: 's', name: 'Sign' },
            ],
          },
          outputs: {
            create: [
              { idx: 0, type: 'p2pkh', address: 'nAddr', amount: BIG },
              { idx: 1, type: 'data', data: '68656c6c6f' },
            ],
          },
          submissions: { create: [{ txHex: '00', outcome: 'rejected', error: 'invalid_tx' }] },
        },
      });
      const pay = await p.payment.findUniqueOrThrow({
        where: { id: 'pay1' },
        include: { lines: { orderBy: { idx: 'asc' } }, outputs: { orderBy: { idx: 'asc' } }, submissions: true },
      });
      expect(pay.total).toBe(BIG);
      expect(pay.status).toBe('unpaid');
      expect(pay.meta).toEqual({ 'com.example.table': '7' });
      expect(pay.issuedAt.toISOString()).toBe('2026-11-23T10:00:00.000Z');
      expect(pay.lines.map((l) => l.total)).toEqual([2_100_000_000n, -100_000_000n, null]);
      expect(pay.outputs[1]).toMatchObject({ type: 'data', data: '68656c6c6f', address: null, amount: null });
      expect(pay.submissions[0].outcome).toBe('rejected');
      expect(typeof pay.seq).toBe('bigint');
      // Constraints guard the money invariants even against a buggy caller.
      await expect(p.payment.update({ where: { id: 'pay1' }, data: { status: 'paid' } })).rejects.toThrow();
      await expect(p.paymentOutput.create({ data: { paymentId: 'pay1', idx: 2, type: 'data', data: 'aa', amount: 5n } })).rejects.toThrow();
      await expect(
        p.paymentOutput.create({ data: { paymentId: 'pay1', idx: 3, type: 'p2pkh', address: 'x', amount: 0n } }),
      ).rejects.toThrow();
      await p.payment.update({ where: { id: 'pay1' }, data: { status: 'accepted', txid: 'aa'.repeat(32) } });

      await p.idempotencyKey.create({ data: { apiKeyId: 'k1', key: 'idem', requestHash: 'rh', statusCode: 201, responseBody: '{}' } });
      const ev = await p.vendorEvent.create({ data: { id: 'ev1', type: 'payment.accepted', paymentId: 'pay1', body: '{}' } });
      await expect(p.vendorEvent.create({ data: { id: 'ev2', type: 'payment.bogus', paymentId: 'pay1', body: '{}' } })).rejects.toThrow();
      await p.webhookAttempt.create({ data: { eventSeq: ev.seq, attempt: 1, url: 'http://127.0.0.1/x', statusCode: 500 } });
      expect(await p.webhookAttempt.count({ where: { eventSeq: ev.seq } })).toBe(1);

      const header = new Uint8Array(80).fill(1);
      const work = '123456789012345678901234567890123456789';
      await p.chainHeader.create({
        data: { hash: 'ff'.repeat(32), height: 5, prevHash: '00'.repeat(32), chainwork: work, header, time: 1, inBest: true },
      });
      const h = await p.chainHeader.findUniqueOrThrow({ where: { hash: 'ff'.repeat(32) } });
      expect(h.chainwork.toFixed()).toBe(work);
      expect(Buffer.from(h.header).equals(Buffer.from(header))).toBe(true);
      await expect(
        p.chainHeader.create({ data: { hash: 'ee'.repeat(32), height: 5, prevHash: 'x', chainwork: '1', header, time: 1, inBest: true } }),
      ).rejects.toThrow();
      await expect(
        p.chainHeader.create({
          data: { hash: 'dd'.repeat(32), height: 6, prevHash: 'x', chainwork: '1', header: new Uint8Array(79), time: 1 },
        }),
      ).rejects.toThrow();
      await p.chainState.create({ data: { key: 'tip', value: '5' } });

      await p.walletAddress.create({ data: { address: 'nAddr', hash160: '00'.repeat(20), script: '76a9', idx: 0 } });
      await p.walletTx.create({ data: { txid: 'aa'.repeat(32), raw: new Uint8Array([1, 2, 3]), height: 5 } });
      await p.walletOutput.create({ data: { txid: 'aa'.repeat(32), vout: 0, address: 'nAddr', script: '76a9', amount: BIG, height: 5 } });
      const agg = await p.walletOutput.aggregate({ _sum: { amount: true }, where: { spentTxid: null } });
      expect(agg._sum.amount).toBe(BIG);
      await p.workerLease.create({ data: { name: 'chain', holder: 'me', expiresAt: new Date() } });

      // Cascades: deleting the payment removes its lines, outputs, submissions and events.
      await p.payment.delete({ where: { id: 'pay1' } });
      expect(await p.paymentLine.count()).toBe(0);
      expect(await p.vendorEvent.count()).toBe(0);
      expect(await p.webhookAttempt.count()).toBe(0);
    } finally {
      await db.close();
    }
  });
});

describe('PGlite persistence', () => {
  it('keeps data in DATA_DIR across a close and reopen', async () => {
    const dataDir = tmp('counter-persist-');
    await seedDataDir(dataDir);
    const a = await openMigratedDb({ dataDir });
    await a.prisma.appState.create({ data: { key: 'k', value: 'survives' } });
    await a.close();
    const b = await openMigratedDb({ dataDir });
    try {
      expect((await b.prisma.appState.findUniqueOrThrow({ where: { key: 'k' } })).value).toBe('survives');
      const n = await b.query<{ n: unknown }>('SELECT count(*) AS n FROM "_prisma_migrations"');
      expect(Number(n[0].n)).toBe(loadMigrations(MIGRATIONS_DIR).length);
    } finally {
      await b.close();
    }
  });
});

describe('PostgreSQL concurrency', () => {
  it('serialises concurrent migration runners with an advisory lock', async () => {
    const url = await createDatabase(pgServer, `conc_${process.pid}`);
    const dbs = await Promise.all([0, 1, 2, 3].map(() => openMigratedDb({ databaseUrl: url, poolSize: 2 })));
    try {
      const rows = await dbs[0].query<{ n: unknown }>('SELECT count(*) AS n FROM "_prisma_migrations"');
      expect(Number(rows[0].n)).toBe(loadMigrations(MIGRATIONS_DIR).length);
    } finally {
      await Promise.all(dbs.map((d) => d.close()));
    }
  });

  it('ping() reports an unreachable server instead of throwing', async () => {
    const db = await openDb({ databaseUrl: 'postgresql://postgres@127.0.0.1:1/none' });
    try {
      expect(await db.ping()).toBe(false);
    } finally {
      await db.close();
    }
  });
});
