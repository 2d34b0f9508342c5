// Named prepared statements for PGlite. PGlite's query() runs every call as an unnamed statement
// in six protocol round trips into the WebAssembly PostgreSQL (parse, describe, bind, describe,
// execute, sync): the statement is parsed, analysed and planned again on each call. On the
// /relay/pay path a primary-key read took 1.1 ms that way and 0.6 ms as a prepared statement, a
// one-row UPDATE 0.68 ms and 0.25 ms (bench figures in docs/performance.md). Here a statement is
// parsed and described once per connection, then each call is one round trip: bind, execute,
// sync. Parameters are serialised and rows parsed by PGlite's own serialisers and parsers, as
// query() does, so callers see the same values. PostgreSQL re-plans a prepared statement itself
// when a table it reads changes (plancache.c); a statement whose result columns changed is
// dropped and the call runs once more through query().
import type { PGlite } from '@electric-sql/pglite';
import { parse, protocol } from '@electric-sql/pglite';

type Message = Parameters<typeof parse.parseResults>[0][number];

/** Statements kept prepared at most (least recently used ones are closed beyond it). */
export const MAX_PREPARED = 256;

// Only plain DML and queries are prepared; anything else (SET, DDL, EXPLAIN, transaction
// control) keeps query()'s unnamed path.
const PREPARABLE = /^\s*(select|with|insert|update|delete)\b/i;

interface Prepared {
  name: string;
  paramTypes: number[];
  /** The statement's row description (or none), prepended to each call's messages for parsing. */
  head: Message[];
}

// "cached plan must not change result type" (a table's columns changed under a SELECT *).
const STALE_PLAN = '0A000';

const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** A `query` for one PGlite instance that keeps its statements prepared. */
export function preparedQuery(pg: PGlite): <T>(sql: string, params?: unknown[]) => Promise<T[]> {
  const { serialize } = protocol;
  const cache = new Map<string, Prepared>(); // insertion order = recency
  let seq = 0;

  // Both PGlite locks, as query() takes them: a statement never runs inside another caller's
  // transaction, nor between the messages of another query.
  const exclusive = <T>(fn: () => Promise<T>) => pg._runExclusiveTransaction(() => pg._runExclusiveQuery(fn));

  const close = (name: string) => pg.execProtocol(concat([serialize.close({ type: 'S', name }), serialize.sync()]));

  async function prepare(sql: string): Promise<Prepared> {
    const name = `counter_${++seq}`;
    const { messages } = await pg.execProtocol(
      concat([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()]),
    );
    const paramTypes = parse.parseDescribeStatementResults(messages);
    const head = messages.filter((m) => m.name === 'rowDescription');
    const p: Prepared = { name, paramTypes, head };
    cache.set(sql, p);
    if (cache.size > MAX_PREPARED) {
      const [oldSql, old] = cache.entries().next().value as [string, Prepared];
      cache.delete(oldSql);
      await close(old.name);
    }
    return p;
  }

  async function run<T>(p: Prepared, params: unknown[]): Promise<T[]> {
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const s = pg.serializers[p.paramTypes[i]];
      return s ? s(v) : String(v);
    });
    const { messages } = await pg.execProtocol(
      concat([serialize.bind({ statement: p.name, values }), serialize.execute({}), serialize.sync()]),
    );
    return parse.parseResults([...p.head, ...messages], pg.parsers)[0].rows as T[];
  }

  return async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
    if (!PREPARABLE.test(sql)) return (await pg.query<T>(sql, params as never[])).rows;
    await pg.waitReady;
    const again = await exclusive(async () => {
      let p = cache.get(sql);
      if (p) {
        cache.delete(sql);
        cache.set(sql, p);
      } else {
        p = await prepare(sql);
      }
      try {
        return { rows: await run<T>(p, params) };
      } catch (e) {
        if ((e as { code?: unknown }).code !== STALE_PLAN) throw e;
        cache.delete(sql);
        await close(p.name);
        return null;
      }
    });
    return again ? again.rows : (await pg.query<T>(sql, params as never[])).rows;
  };
}
