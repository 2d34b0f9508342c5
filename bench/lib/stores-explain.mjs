// The plans PostgreSQL chooses for a store's payment count and its API list at the `stores`
// benchmark's size (docs/performance.md#many-stores): which index serves each and its time, with
// the store-first index payment_store_seq_idx, and without it (dropped inside a transaction that
// is rolled back, once the loads are over).
const QUERIES = {
  count: (s) => `SELECT count(*) FROM payment WHERE store_id = ${s} AND seq > 0`,
  list: (s) => `SELECT id FROM payment WHERE store_id = ${s} ORDER BY seq DESC LIMIT 51`,
  list_status: (s) => `SELECT id FROM payment WHERE store_id = ${s} AND status = 'confirmed' ORDER BY seq DESC LIMIT 51`,
};

async function explainAll(client, storeId) {
  const out = {};
  for (const [name, sql] of Object.entries(QUERIES)) {
    const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql(Number(storeId))}`);
    const lines = rows.map((r) => r['QUERY PLAN']);
    out[name] = { plan: lines, execution_ms: Number(/Execution Time: ([\d.]+)/.exec(lines.join('\n'))?.[1] ?? NaN) };
  }
  return out;
}

/** EXPLAIN ANALYZE of each query for store `storeId`, with the store-first index and without it. */
export async function explainStoreQueries(client, storeId) {
  const withIndex = await explainAll(client, storeId);
  const { rows } = await client.query(`SELECT status, count(*)::int AS n FROM payment WHERE store_id = $1 GROUP BY 1 ORDER BY 1`, [
    storeId,
  ]);
  withIndex.store = { id: Number(storeId), payments_by_status: Object.fromEntries(rows.map((r) => [r.status, r.n])) };
  await client.query('BEGIN');
  try {
    await client.query('DROP INDEX IF EXISTS payment_store_seq_idx');
    return { with_store_seq_index: withIndex, without_store_seq_index: await explainAll(client, storeId) };
  } finally {
    await client.query('ROLLBACK');
  }
}
