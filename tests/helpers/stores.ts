// Stores for tests: a real PGlite database with the project's migrations, ready in well under a
// second. Creating a PGlite cluster (initdb under WebAssembly) costs seconds of CPU each time,
// several times what opening an existing one costs, and the suite creates one for every app it
// starts. So the first caller builds one migrated cluster, a template kept in the system's temp
// directory under a key of the migrations and the PGlite version, and every store after that is
// a copy of it. The app still runs its migrations at start-up (all already applied: a no-op),
// and a test that is about migrations themselves (tests/integration/db.test.ts) opens its own.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { loadMigrations, openMigratedDb, type Db } from '../../lib/db';

const ROOT = resolve(__dirname, '../..');
const MIGRATIONS = join(ROOT, 'prisma', 'migrations');

/** The template's key: every migration's name and SQL, and the PGlite build that wrote it. */
function templateKey(): string {
  const h = createHash('sha256');
  for (const m of loadMigrations(MIGRATIONS)) h.update(`${m.name}\0${m.sql}\0`);
  h.update(readFileSync(join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json')));
  return h.digest('hex').slice(0, 16);
}

let template: Promise<string> | null = null;

/** A DATA_DIR-shaped directory (its `pglite/` cluster migrated), built once per key. */
export function pgliteTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = join(tmpdir(), `counter-pglite-template-${templateKey()}`);
    if (existsSync(join(dir, 'pglite', 'PG_VERSION'))) return dir;
    // Built beside it and renamed into place, so a concurrent caller never sees half of one.
    const building = mkdtempSync(`${dir}.building-`);
    const db = await openMigratedDb({ dataDir: building }, MIGRATIONS);
    await db.close();
    try {
      renameSync(building, dir);
    } catch {
      rmSync(building, { recursive: true, force: true }); // another process got there first
    }
    return dir;
  })();
  return template;
}

/** Fills an empty DATA_DIR with a migrated PGlite cluster; one that has a database is left alone. */
export async function seedDataDir(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, 'pglite'))) return;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  cpSync(join(await pgliteTemplate(), 'pglite'), join(dataDir, 'pglite'), { recursive: true });
}

/**
 * A fresh migrated PGlite database (a copy of the template) in its own temporary directory,
 * which its close() removes: a drop-in for `openMigratedDb({ memory: true })` without the
 * seconds of initdb.
 */
export async function openTestDb(): Promise<Db> {
  const store = await openTestStore();
  return Object.assign(Object.create(null), store.db, { close: store.close }) as Db;
}

export interface TestStore {
  db: Db;
  dataDir: string;
  /** Closes the database and removes its directory. */
  close(): Promise<void>;
}

/** A fresh migrated PGlite store in its own temporary DATA_DIR (a copy of the template). */
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
