// Seeds many payments straight into a stopped app's PGlite database with one INSERT … SELECT
// per batch, copying a real payment created through the API (so every row is well-formed) with
// fresh ids, spread creation times and a mix of statuses.
import { join } from 'node:path';

/**
 * `columns` overrides column expressions (SQL over the template row `t` and the series number
 * `g`); `params` are bound from $4 on (e.g. arrays of addresses the expressions index).
 */
export async function seedPayments(dataDir, templateId, n, opts = {}) {
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = await PGlite.create(join(dataDir, 'pglite'));
  try {
    return await seedPaymentsInto(pg, templateId, n, opts);
  } finally {
    await pg.close();
  }
}

/** The same into an open client (PGlite, or a `pg` client of a PostgreSQL server): anything with `query(sql, params)`. */
export async function seedPaymentsInto(pg, templateId, n, { batch = 20_000, columns = {}, params = [] } = {}) {
  const cols = (
    await pg.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'payment' AND table_schema = current_schema() ORDER BY ordinal_position`,
    )
  ).rows.map((r) => r.column_name);
  const override = {
    id: `t.id || '-' || g`,
    seq: null, // BIGSERIAL default
    status: `(ARRAY['unpaid','accepted','confirmed','declined'])[1 + g % 4]`,
    txid: `CASE WHEN g % 4 IN (1, 2) THEN md5(t.id || g) || md5(g::text || t.id) ELSE NULL END`,
    broadcast_state: `CASE WHEN g % 4 IN (1, 2) THEN 'sent' ELSE 'none' END`,
    // A confirmed row holds its depth (the payment_confirmed_depth constraint).
    confirmations: `CASE WHEN g % 4 = 2 THEN GREATEST(1, t.required_confirmations) ELSE 0 END`,
    reason: `CASE WHEN g % 4 = 3 THEN 'cancelled by vendor' ELSE '' END`,
    created_at: `t.created_at - (g || ' seconds')::interval`,
    updated_at: `t.updated_at - (g || ' seconds')::interval`,
    ...columns,
  };
  const insertCols = cols.filter((c) => override[c] !== null);
  const select = insertCols.map((c) => (c in override ? override[c] : `t."${c}"`)).join(', ');
  for (let from = 1; from <= n; from += batch) {
    const to = Math.min(n, from + batch - 1);
    await pg.query(
      `INSERT INTO payment (${insertCols.map((c) => `"${c}"`).join(', ')})
        SELECT ${select} FROM payment t, generate_series($2::int, $3::int) g WHERE t.id = $1`,
      [templateId, from, to, ...params],
    );
  }
  const { rows } = await pg.query(`SELECT count(*)::int AS n FROM payment`);
  return rows[0].n;
}

/** Ids of seeded payments (deterministic: template id + '-' + g). */
export function seededIds(templateId, n, count) {
  const ids = [];
  for (let i = 0; i < count; i++) ids.push(`${templateId}-${1 + Math.floor((i * 7919) % n)}`);
  return ids;
}
