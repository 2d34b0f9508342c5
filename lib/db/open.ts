// Opens the configured database: embedded PGlite in DATA_DIR by default, or a PostgreSQL
// server when DATABASE_URL is postgres(ql)://. Both get the same Prisma client and the
// same migrations.
import { mkdirSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { makePrivate, secureDataDir } from './data-dir';
import { preparedQuery } from './pglite-prepared';
import { PrismaClient } from './generated/client';
import type { SqlRunner } from './migrate';
import { listenPglite, listenPostgres, type ListenHandlers, type Unlisten } from './listen';
import { runtimeSettings } from '../config';

export type DbKind = 'pglite' | 'postgresql';
export type Prisma = InstanceType<typeof PrismaClient>;

export interface Db extends SqlRunner {
  kind: DbKind;
  prisma: Prisma;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  /** LISTEN on a notification channel (lib/db/listen.ts): in-process on PGlite, a dedicated connection on PostgreSQL. */
  listen(channel: string, handlers: ListenHandlers): Promise<Unlisten>;
  close(): Promise<void>;
}

export interface OpenOptions {
  databaseUrl?: string | null;
  dataDir?: string;
  /** PGlite only: run fully in memory (tests). */
  memory?: boolean;
  /** pg only: pool size. */
  poolSize?: number;
}

export const PGLITE_SHARED_BUFFERS = '16MB';

const MIGRATION_LOCK_KEY = 727_073_691; // arbitrary, stable advisory-lock key for migrations

export async function openDb(opts: OpenOptions): Promise<Db> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.poolSize ?? 10);
  if (opts.memory) return openPglite(null);
  // DATA_DIR 0700, umask 077 before PGlite creates its files (lib/db/data-dir.ts).
  const dataDir = secureDataDir(resolve(/*turbopackIgnore: true*/ opts.dataDir ?? './data'));
  return openPglite(join(dataDir, 'pglite'));
}

async function openPglite(dir: string | null): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  if (dir) mkdirSync(dir, { recursive: true, mode: 0o700 });
  // PostgreSQL's default 128 MB of shared buffers is most of an embedded app's memory (WASM
  // memory never shrinks); the OS page cache still caches the data files. PGLITE_SHARED_BUFFERS
  // overrides it (PostgreSQL units: 16MB, 65536kB, 1GB).
  const opts = { postgresqlconf: `shared_buffers=${runtimeSettings().pgliteSharedBuffers ?? PGLITE_SHARED_BUFFERS}` };
  const pg = dir ? await PGlite.create(dir, opts) : await PGlite.create(opts);
  if (dir) makePrivate(dir); // PGlite unpacks its data directory 0666 (lib/db/data-dir.ts)
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pg) });
  const self: Db = {
    kind: 'pglite',
    prisma,
    exec: async (sql) => {
      await pg.exec(sql);
    },
    query: preparedQuery(pg),
    withLock: (fn) => fn(self),
    listen: (channel, h) => listenPglite(pg, channel, h),
    ping: async () => {
      try {
        await pg.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      await prisma.$disconnect();
      await pg.close();
      if (dir) makePrivate(dir);
    },
  };
  return self;
}

async function openPostgres(url: string, max: number): Promise<Db> {
  const pgmod = await import('pg');
  const { PrismaPg } = await import('@prisma/adapter-pg');
  const Pool = pgmod.default?.Pool ?? (pgmod as unknown as typeof import('pg')).Pool;
  // Return BIGINT as string from raw queries; Prisma's adapter does its own type mapping.
  const pool = new Pool({ connectionString: url, max, connectionTimeoutMillis: 5000 });
  pool.on('error', () => undefined); // a dropped idle client must not crash the process
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const listeners = new Set<Unlisten>();
  return {
    kind: 'postgresql',
    listen: async (channel, h) => {
      const off = await listenPostgres(url, channel, h);
      listeners.add(off);
      return async () => {
        listeners.delete(off);
        await off();
      };
    },
    prisma,
    exec: async (sql) => {
      await pool.query(sql);
    },
    query: async <T>(sql: string, params?: unknown[]) => (await pool.query(sql, params)).rows as T[],
    withLock: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        // The runner issues BEGIN/COMMIT through exec(), so it must use this same connection.
        const locked: SqlRunner = {
          exec: async (sql) => {
            await client.query(sql);
          },
          query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[],
          withLock: (f) => f(locked),
        };
        return await fn(locked);
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        client.release();
      }
    },
    ping: async () => {
      try {
        await pool.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      await Promise.all([...listeners].map((off) => off()));
      listeners.clear();
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
    },
  };
}
