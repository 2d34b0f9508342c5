// The chain worker publishes its view through chain_state rows; web processes read them.
import type { Db } from '../db';

/**
 * Writes the rows in one statement: the worker publishes every tick, and on PGlite (the web
 * process's own database) each statement is paid by the requests waiting behind it. Every row
 * written gets `updated_at = now` (the `peers` row's is the worker's heartbeat, lib/health.ts).
 */
export async function publishChainState(db: Db, values: Record<string, string | number | boolean>): Promise<void> {
  const keys = Object.keys(values);
  if (!keys.length) return;
  await db.query(
    `INSERT INTO chain_state (key, value, updated_at) SELECT k, v, $3 FROM unnest($1::text[], $2::text[]) AS x(k, v)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
    [keys, keys.map((k) => String(values[k])), new Date()],
  );
}
