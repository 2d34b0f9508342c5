// Seeds an embedded PGlite data directory before the app starts on it, with raw SQL (the
// Playwright loader cannot load the generated Prisma client). It starts from the migrated
// template (tests/helpers/pglite-template.ts) and migrates with the app's runner (a no-op then).
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { loadMigrations, migrate, type SqlRunner } from '../../lib/db/migrate';
import { seedDataDir } from '../helpers/pglite-template';

export async function seedPglite(dataDir: string, statements: { sql: string; params?: unknown[] }[]): Promise<void> {
  // Liftoff only, as the app and vitest's workers run PGlite (vitest.config.mts): the runner
  // compiles PGlite once per spec for a few statements, and optimising it costs more than it saves.
  await seedDataDir(dataDir);
  // Nothing to write: the template is already migrated, and PGlite need not be compiled here.
  if (statements.length === 0) return;
  setFlagsFromString('--liftoff-only');
  const { PGlite } = await import('@electric-sql/pglite');
  const dir = join(dataDir, 'pglite');
  const pg = await PGlite.create(dir);
  try {
    const runner: SqlRunner = {
      exec: async (sql) => void (await pg.exec(sql)),
      query: async <T>(sql: string, params?: unknown[]) => (await pg.query<T>(sql, params as never[])).rows,
      withLock: (fn) => fn(runner),
    };
    await migrate(runner, loadMigrations(resolve(__dirname, '../../prisma/migrations')));
    for (const s of statements) await pg.query(s.sql, (s.params ?? []) as never[]);
  } finally {
    await pg.close();
  }
}
