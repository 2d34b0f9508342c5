// The wallet check's run limit under a burst (docs/wallet-check.md#limits): at most 10 runs a
// minute per client even when the requests arrive together over several connections and
// processes' pools on PostgreSQL, where a count-then-insert would let more through.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMigratedDb, type Db } from '@/lib/db';
import { REGTEST } from '@/lib/doge';
import { createRun, RUNS_PER_MINUTE, type CheckContext } from '@/lib/wallet-check';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';

let pg: PgServer;
const dbs: Db[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'counter-wallet-check-'));

beforeAll(async () => {
  pg = await startPostgres();
  const url = await createDatabase(pg, `wallet_check_burst_${process.pid}`);
  // Four pools, as four web processes would hold.
  for (let i = 0; i < 4; i++) dbs.push(await openMigratedDb({ databaseUrl: url, poolSize: 8 }));
}, 180_000);
afterAll(async () => {
  for (const db of dbs) await db.close();
  await pg?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it(`a burst of 40 runs from one client over four pools: exactly ${RUNS_PER_MINUTE} are made, the rest told when to retry`, async () => {
  const now = new Date('2026-11-29T12:00:00Z');
  const ctx = (db: Db): CheckContext => ({ db, network: REGTEST, dataDir, publicUrl: 'http://127.0.0.1:1', now: () => now });
  const results = await Promise.all(Array.from({ length: 40 }, (_, i) => createRun(ctx(dbs[i % dbs.length]), '198.51.100.7')));
  expect(results.filter((r) => r.ok)).toHaveLength(RUNS_PER_MINUTE);
  for (const r of results.filter((x) => !x.ok)) expect(r).toMatchObject({ ok: false, retryAfterSec: 60 });
  const [{ n }] = await dbs[0].query<{ n: string }>(`SELECT count(*)::text AS n FROM wallet_check_run`);
  expect(Number(n)).toBe(RUNS_PER_MINUTE);
  // Another client is not held back by the first.
  expect((await createRun(ctx(dbs[1]), '198.51.100.8')).ok).toBe(true);
}, 120_000);
