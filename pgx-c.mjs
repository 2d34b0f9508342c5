import { PGlite } from '@electric-sql/pglite';
import { createJiti } from 'jiti';
import { cpSync, rmSync } from 'node:fs';
const { preparedQuery } = await createJiti(import.meta.url).import('./lib/db/pglite-prepared.ts');
const drop = process.argv[2] ?? '';
rmSync('/tmp/pgx/db2', { recursive: true, force: true }); cpSync('/tmp/payexp/template/pglite', '/tmp/pgx/db2', { recursive: true });
const pg = await PGlite.create('/tmp/pgx/db2', { postgresqlconf: 'shared_buffers=16MB' });
if (drop) await pg.exec(drop.split(',').map((i) => `DROP INDEX ${i};`).join(''));
const q = preparedQuery(pg);
let ids = (await pg.query("SELECT id FROM payment WHERE status='unpaid' ORDER BY random() LIMIT 3200")).rows.map(r => r.id);
const SQL = `UPDATE payment p SET broadcast_state = 'pending', txid = i.txid, buyer_address = i.b, updated_at = now()
  FROM unnest($1::text[], $2::text[], $3::text[]) AS i(id, txid, b) WHERE p.id = ANY($1::text[]) AND p.id = i.id RETURNING p.id`;
const SQL2 = `UPDATE payment p SET status = 'accepted', broadcast_state = 'sent', updated_at = now(), accepted_at = now(), amount_paid = p.amount_paid + 1
  FROM unnest($1::text[]) AS i(id) WHERE p.id = ANY($1::text[]) AND p.id = i.id RETURNING p.id`;
let t = performance.now();
for (let b = 0; b < 200; b++) { const s = ids.slice(b * 16, b * 16 + 16); await q(SQL, [s, s.map((x) => 'tx' + x), s.map(() => 'nbuyer')]); await q(SQL2, [s]); }
console.log(drop || 'all', ids.length, ((performance.now() - t) / 3200).toFixed(3), 'ms/row (claim+accept)');
await pg.close();
