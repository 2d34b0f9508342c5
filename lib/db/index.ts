// The process-wide database handle. One instance lives on globalThis so that Next.js route
// handlers and instrumentation.ts (which starts the chain worker) share it: PGlite allows a
// single process-local owner of its data directory.
import { join } from 'node:path';
import { config } from '../config';
import { openDb, type Db } from './open';
import { loadMigrations, migrate } from './migrate';

export { openDb, type Db, type Prisma } from './open';
export { migrate, loadMigrations, MigrationError, type SqlRunner } from './migrate';

export const MIGRATIONS_DIR = join(process.cwd(), 'prisma', 'migrations');

const g = globalThis as { __counterDb?: Promise<Db> };

/** Opens (once) the configured database and applies pending migrations. */
export function getDb(): Promise<Db> {
  if (!g.__counterDb) {
    g.__counterDb = (async () => {
      const cfg = config();
      const db = await openDb({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
      await migrate(db, loadMigrations(MIGRATIONS_DIR));
      return db;
    })();
    g.__counterDb.catch(() => {
      g.__counterDb = undefined; // let the next request retry (e.g. PostgreSQL was down)
    });
  }
  return g.__counterDb;
}

/** Opens a database and migrates it: for tests, scripts and the standalone worker. */
export async function openMigratedDb(opts: Parameters<typeof openDb>[0], dir = MIGRATIONS_DIR): Promise<Db> {
  const db = await openDb(opts);
  try {
    await migrate(db, loadMigrations(dir));
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}
export { makePrivate, secureDataDir } from './data-dir';
export { isDataException, isDbBusy, parseInt64, storableDate } from './bounds';
export { BatchLoader, rowsById, textKey } from './batch-loader';
export { readWalletCount, readWalletCounts, walletCountKey, writeWalletCount } from './wallet-counts';
export { ItemFailure, TurnBatcher } from './turn-batcher';
export { perDb } from './per-db';
export { startPgliteMaintenance } from './maintenance';
