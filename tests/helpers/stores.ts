// Stores for in-process tests: a real PGlite database with the project's migrations, copied
// from the migrated template (tests/helpers/pglite-template.ts) in well under a second.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMigratedDb, type Db } from '../../lib/db';
import { MIGRATIONS, pgliteTemplate, seedDataDir } from './pglite-template';

export { pgliteTemplate, seedDataDir };

export interface TestStore {
  db: Db;
  dataDir: string;
  /** Closes the database and removes its directory. */
  close(): Promise<void>;
}

/** A fresh migrated PGlite store in its own temporary DATA_DIR. */
export async function openTestStore(): Promise<TestStore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'counter-store-'));
  await seedDataDir(dataDir);
  const db = await openMigratedDb({ dataDir }, MIGRATIONS);
  return {
    db,
    dataDir,
    close: async () => {
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh migrated PGlite database whose close() also removes its directory: a drop-in for
 * `openMigratedDb({ memory: true })` without the seconds a new cluster costs.
 */
export async function openTestDb(): Promise<Db> {
  const store = await openTestStore();
  return Object.assign(Object.create(null), store.db, { close: store.close }) as Db;
}
