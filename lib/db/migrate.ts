// Applies prisma/migrations/*/migration.sql in name order and records each one in Prisma's own
// _prisma_migrations table (same columns and sha256 checksum), so `prisma migrate status`
// agrees wherever the native engine is available. Safe to call from several processes at
// once on PostgreSQL: an advisory lock serialises runners.
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

/** The minimal SQL surface the runner needs; both PGlite and pg provide it. */
export interface SqlRunner {
  /** Run one or more statements with no parameters (simple query protocol). */
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Run fn on one connection while holding the migration lock (a no-op lock on single-process PGlite). */
  withLock<T>(fn: (conn: SqlRunner) => Promise<T>): Promise<T>;
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

export function loadMigrations(dir: string): Migration[] {
  if (!existsSync(dir)) throw new MigrationError(`migrations directory not found: ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
}

export async function migrate(db: SqlRunner, migrations: Migration[]): Promise<MigrateResult> {
  return db.withLock(async (conn) => {
    await conn.exec(CREATE_TABLE);
    const rows = await conn.query<{ migration_name: string; checksum: string; finished_at: unknown; rolled_back_at: unknown }>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((r) => [r.migration_name, r]));
    const result: MigrateResult = { applied: [], alreadyApplied: [] };
    for (const m of migrations) {
      const prev = done.get(m.name);
      if (prev) {
        if (prev.finished_at === null) {
          throw new MigrationError(`migration ${m.name} started earlier but never finished; inspect the database before retrying`);
        }
        if (prev.checksum !== m.checksum) {
          throw new MigrationError(`migration ${m.name} was edited after it was applied (checksum mismatch)`);
        }
        result.alreadyApplied.push(m.name);
        continue;
      }
      // One transaction per migration: the schema change and its record land together.
      await conn.exec('BEGIN');
      try {
        await conn.exec(m.sql);
        await conn.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count, started_at)
           VALUES ($1, $2, $3, now(), 1, now())`,
          [randomUUID(), m.checksum, m.name],
        );
        await conn.exec('COMMIT');
      } catch (err) {
        await conn.exec('ROLLBACK').catch(() => undefined);
        throw new MigrationError(`migration ${m.name} failed: ${(err as Error).message}`);
      }
      result.applied.push(m.name);
    }
    return result;
  });
}
