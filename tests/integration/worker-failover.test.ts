// `npm run worker` on PostgreSQL: two standalone worker processes (no Next.js) with the spv
// backend against litecoind. Exactly one is active; when it is SIGKILLed the standby takes
// over within 15 s and keeps the header store following the node. The workers run with a short
// lease (WORKER_LEASE_MS, docs/configuration.md): the standby waits about 2 s for a dead worker's
// lease instead of the default 8 s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { openDb, type Db } from '@/lib/db';
import { startLitecoind, LITECOIN_REGTEST_GENESIS, EXTERNAL_ADDRESS, type Litecoind } from '../helpers/litecoind';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';
import { sleep, until } from '../helpers/wait';
import { spawnWorker, type WorkerProcess } from '../helpers/worker-process';

const LEASE_MS = 2_000;
let node: Litecoind;
let pg: PgServer;
let dbUrl: string;
let db: Db;
const procs: WorkerProcess[] = [];

function startWorker() {
  const p = spawnWorker({
    DATABASE_URL: dbUrl,
    LOG_LEVEL: 'info',
    DOGE_NETWORK: 'regtest',
    CHAIN_GENESIS_HASH: LITECOIN_REGTEST_GENESIS,
    CHAIN_BACKEND: 'spv',
    DOGE_PEERS: `127.0.0.1:${node.p2pPort}`,
    WORKER_LEASE_MS: String(LEASE_MS),
  });
  procs.push(p);
  return p;
}
const holder = async () => (await db.query<{ holder: string }>(`SELECT holder FROM worker_lease WHERE name = 'chain'`))[0]?.holder ?? null;
const storedTip = async () =>
  (await db.query<{ hash: string }>(`SELECT hash FROM chain_header WHERE in_best ORDER BY height DESC LIMIT 1`))[0]?.hash;
const active = (out: string) => /"msg":"chain worker active"/.test(out);
const started = (out: string) => /"msg":"counter started"/.test(out);

beforeAll(async () => {
  [node, pg] = await Promise.all([startLitecoind({ wallet: false }), startPostgres()]);
  await node.mine(200, EXTERNAL_ADDRESS);
  dbUrl = await createDatabase(pg, 'failover');
  db = await openDb({ databaseUrl: dbUrl, poolSize: 2 });
}, 180_000);

afterAll(async () => {
  for (const p of procs) {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    rmSync(p.dir, { recursive: true, force: true });
  }
  await db?.close();
  await node?.dispose();
  await pg?.stop();
});

describe('standalone worker failover (PostgreSQL)', () => {
  it('runs one active worker; the standby takes over within 15 s of a SIGKILL and keeps syncing', async () => {
    // Both start at once and race for the lease: one (A) wins, B is up (migrated, booted) but standing by.
    const pair = [startWorker(), startWorker()];
    const up = () => pair.every((w) => started(w.out())) && pair.some((w) => active(w.out()));
    expect(await until(up, Boolean, 90_000), pair.map((w) => w.out()).join('\n----\n')).toBe(true);
    const [a, b] = active(pair[0].out()) ? pair : [pair[1], pair[0]];
    const best: string = await node.rpc('getbestblockhash');
    expect(await until(storedTip, (t) => t === best, 30_000)).toBe(best);
    // A whole lease and a second more: B asks at start and every second, and A's lease would
    // have lapsed in that time had A not renewed it.
    await sleep(LEASE_MS + 1_000);
    expect(active(b.out())).toBe(false);
    const first = await holder();
    expect(first).toMatch(/^[0-9a-f]{16}$/);

    a.child.kill('SIGKILL');
    const killedAt = Date.now();
    expect(await until(() => active(b.out()), Boolean, 20_000)).toBe(true);
    const takeover = Date.now() - killedAt;
    expect(takeover).toBeLessThan(15_000);
    expect(await holder()).not.toBe(first);

    await node.mine(5, EXTERNAL_ADDRESS);
    const next: string = await node.rpc('getbestblockhash');
    expect(await until(storedTip, (t) => t === next, 30_000)).toBe(next);
  }, 240_000);
});
