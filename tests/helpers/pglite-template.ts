// The migrated PGlite template every test store starts from. Creating a PGlite cluster (initdb
// under WebAssembly) costs seconds of CPU each time, many times what opening an existing one
// costs, and the suite creates one for every app it starts. So the first caller builds one
// migrated cluster, kept in the system's temp directory under a key of the migrations and the
// PGlite version, and every store after that is a copy of it. The app still runs its migrations
// at start-up (all already applied: a no-op); tests/integration/db.test.ts, which is about the
// migrations themselves, opens its own clusters.
// Raw PGlite and the app's migration runner only: Playwright's loader cannot load the generated
// Prisma client (tests/e2e/seed-pglite.ts), and tests/helpers/app-server.ts runs there too.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { loadMigrations, migrate, type SqlRunner } from '../../lib/db/migrate';

const ROOT = resolve(__dirname, '../..');
export const MIGRATIONS = join(ROOT, 'prisma', 'migrations');

/** The template's key: every migration's name and SQL, and the PGlite build that wrote it. */
function templateKey(): string {
  const h = createHash('sha256');
  for (const m of loadMigrations(MIGRATIONS)) h.update(`${m.name}\0${m.sql}\0`);
  h.update(readFileSync(join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json')));
  return h.digest('hex').slice(0, 16);
}

async function buildCluster(dir: string): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  // As lib/db/open.ts creates a store's cluster (PGLITE_SHARED_BUFFERS there).
  const pg = await PGlite.create(dir, { postgresqlconf: 'shared_buffers=16MB' });
  try {
    const runner: SqlRunner = {
      exec: async (sql) => void (await pg.exec(sql)),
      query: async <T>(sql: string, params?: unknown[]) => (await pg.query<T>(sql, params as never[])).rows,
      withLock: (fn) => fn(runner),
    };
    await migrate(runner, loadMigrations(MIGRATIONS));
  } finally {
    await pg.close();
  }
}

let template: Promise<string> | null = null;

/** A DATA_DIR-shaped directory whose `pglite/` cluster is migrated, built once per key. */
export function pgliteTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = join(tmpdir(), `counter-pglite-template-${templateKey()}`);
    if (existsSync(join(dir, 'pglite', 'PG_VERSION'))) return dir;
    // Built beside it and renamed into place, so a concurrent caller never sees half of one.
    const building = mkdtempSync(`${dir}.building-`);
    try {
      await buildCluster(join(building, 'pglite'));
      renameSync(building, dir);
    } catch (e) {
      rmSync(building, { recursive: true, force: true });
      if (!existsSync(join(dir, 'pglite', 'PG_VERSION'))) throw e; // not just another process first
    }
    return dir;
  })();
  return template;
}

/** Fills a DATA_DIR with a migrated PGlite cluster, unless it already holds a database. */
export async function seedDataDir(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, 'pglite'))) return;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  cpSync(join(await pgliteTemplate(), 'pglite'), join(dataDir, 'pglite'), { recursive: true });
}
