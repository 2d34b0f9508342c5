// lib/db/pglite-prepared.ts against a real (in-memory) PGlite: the prepared path gives exactly
// what PGlite's own query() gives, runs a repeated statement in one protocol round trip, stays
// bounded, survives schema changes and errors, and never runs inside another caller's transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { MAX_PREPARED, preparedQuery } from '@/lib/db/pglite-prepared';

let pg: PGlite;
let query: ReturnType<typeof preparedQuery>;

beforeAll(async () => {
  pg = await PGlite.create();
  query = preparedQuery(pg);
  await pg.exec(`
    CREATE TABLE t (id text PRIMARY KEY, n int NOT NULL, big bigint, at timestamptz, raw bytea, tags text[], doc json, ok boolean);
    INSERT INTO t VALUES ('a', 1, 9007199254740993, '2026-11-24T10:00:00Z', '\\x00ff10', '{x,"y z"}', '{"k":[1,2]}', true),
                         ('b', 2, NULL, NULL, NULL, '{}', NULL, false);`);
});

afterAll(async () => {
  await pg?.close();
});

const prepared = async () => (await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0].n;

describe('prepared statements on PGlite', () => {
  it('returns what query() returns, for every column type and parameter kind', async () => {
    const sql =
      'SELECT id, n, big, big::text AS big_text, at, raw, tags, doc, ok FROM t WHERE id = ANY($1::text[]) AND (at IS NULL OR at < $2) ORDER BY id';
    const params = [['a', 'b', "c'd"], new Date('2030-01-01T00:00:00Z')];
    const mine = await query(sql, params);
    const theirs = (await pg.query(sql, params)).rows;
    expect(mine).toEqual(theirs);
    expect(mine).toHaveLength(2);
    const a = mine[0] as Record<string, unknown>;
    expect(a.big_text).toBe('9007199254740993');
    expect(a.at).toEqual(new Date('2026-11-24T10:00:00Z'));
    expect(Array.from(a.raw as Uint8Array)).toEqual([0, 255, 16]);
    expect(a.tags).toEqual(['x', 'y z']);
    expect(a.doc).toEqual({ k: [1, 2] });
    // The same statement again, with other values (NULL, a bigint, bytes), still matches.
    const sql2 = 'SELECT $1::bigint + 1 AS s, $2::bytea AS b, $3::text AS nul, $4::int[] AS xs';
    const p2 = [10n ** 15n, new Uint8Array([1, 2]), null, [1, 2, 3]];
    expect(await query(sql2, p2)).toEqual((await pg.query(sql2, p2)).rows);
    expect(await query(sql2, p2)).toEqual((await pg.query(sql2, p2)).rows);
  });

  it('parses a statement once: a repeated call is one protocol round trip', async () => {
    const sql = 'SELECT n FROM t WHERE id = $1';
    await query(sql, ['a']);
    const real = pg.execProtocol.bind(pg);
    let calls = 0;
    pg.execProtocol = (async (...args: Parameters<typeof real>) => {
      calls++;
      return real(...args);
    }) as typeof pg.execProtocol;
    try {
      expect(await query(sql, ['b'])).toEqual([{ n: 2 }]);
      expect(calls).toBe(1);
    } finally {
      pg.execProtocol = real;
    }
  });

  it('keeps at most MAX_PREPARED statements, closing the least recently used', async () => {
    for (let i = 0; i < MAX_PREPARED + 20; i++) await query(`SELECT $1::int + ${i} AS v`, [1]);
    expect(await prepared()).toBe(MAX_PREPARED);
    // The oldest were closed and are prepared again on use.
    expect(await query('SELECT $1::int + 0 AS v', [5])).toEqual([{ v: 5 }]);
    expect(await prepared()).toBe(MAX_PREPARED);
  });

  it('sees a column added after the statement was prepared', async () => {
    const sql = 'SELECT * FROM t WHERE id = $1';
    expect(Object.keys((await query<Record<string, unknown>>(sql, ['a']))[0])).not.toContain('extra');
    await pg.exec("ALTER TABLE t ADD COLUMN extra text NOT NULL DEFAULT 'e'");
    const [row] = await query<Record<string, unknown>>(sql, ['a']);
    expect(row.extra).toBe('e');
    expect(await query<Record<string, unknown>>(sql, ['b'])).toHaveLength(1);
  });

  it('reports errors with their PostgreSQL code and stays usable', async () => {
    const ins = 'INSERT INTO t (id, n) VALUES ($1, $2) RETURNING id';
    expect(await query(ins, ['c', 3])).toEqual([{ id: 'c' }]);
    await expect(query(ins, ['c', 4])).rejects.toMatchObject({ code: '23505' });
    await expect(query('SELECT nope FROM t WHERE id = $1', ['a'])).rejects.toMatchObject({ code: '42703' });
    await expect(query('SELECT n FROM t WHERE id = $1', [`a\u0000`])).rejects.toThrow();
    expect(await query('SELECT n FROM t WHERE id = $1', ['c'])).toEqual([{ n: 3 }]);
    // Nothing was left half-done: no open transaction, and the failed insert wrote nothing.
    expect(await query('SELECT n FROM t WHERE id = $1 ORDER BY n', ['c'])).toHaveLength(1);
    expect(pg.isInTransaction()).toBe(false);
  });

  it('waits for another caller’s transaction instead of running inside it', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inside!: () => void;
    const started = new Promise<void>((r) => (inside = r));
    const tx = pg.transaction(async (t) => {
      await t.query("INSERT INTO t (id, n) VALUES ('tx', 9)");
      inside();
      await held;
      await t.query('ROLLBACK');
    });
    await started;
    let answered = false;
    const read = query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id = $1', ['tx']).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(answered).toBe(false);
    release();
    await tx.catch(() => undefined);
    expect(await read).toEqual([{ n: 0 }]);
  });

  it('passes statements it does not prepare through query()', async () => {
    await query('SET enable_seqscan = off');
    expect(await query<{ s: string }>("SELECT current_setting('enable_seqscan') AS s")).toEqual([{ s: 'off' }]);
    await query('SET enable_seqscan = on');
    const before = await prepared();
    await query("SET work_mem = '8MB'");
    expect(await prepared()).toBe(before);
  });
});
