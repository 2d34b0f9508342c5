// The spv node's watch set (lib/chain/spv/watch.ts) holds the outpoints spent by the unmined txs
// paying open payments, so a conflicting tx (a double spend that pays none of our addresses)
// matches the bloom filter when a block mines it (docs/api.md#payments-from-any-wallet), and the
// addresses of the wallet check's pending cases while their run is open
// (docs/wallet-check.md#what-the-relay-records). Real PGlite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { REGTEST } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { createPayment } from '@/lib/payments/creation/create-payment';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { addressHash160, buildFilter, loadWatchSet, outpointBytes } from '@/lib/chain/spv/watch';
import { createRun, runReport, type CheckContext } from '@/lib/wallet-check';

const XPUB = testXpub(41);
const A = 'aa'.repeat(32);
const B = 'bb'.repeat(32);
const C = 'cc'.repeat(32);
let db: Db;
const dir = mkdtempSync(join(tmpdir(), 'counter-spv-watch-'));

beforeAll(async () => {
  db = await openTestDb();
  await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: XPUB }, create: { id: 1, storeXpub: XPUB } });
  await activeRelayKey(db, 1);
});
afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function payment(status: string) {
  const r = await createPayment(
    { storeId: 1, db, network: REGTEST, publicUrl: 'http://127.0.0.1:1' },
    JSON.stringify({ items: [{ type: 'item', id: 's', name: 'Tea', count: 1, unit: '2' }] }),
  );
  const id = (r.body as { id: string }).id;
  await db.query(`UPDATE payment SET status = $1 WHERE id = $2`, [status, id]);
  return id;
}

describe('spv watch set', () => {
  it('watches the inputs of unmined txs paying open payments, not of mined ones or of declined payments', async () => {
    const open = await payment('accepted');
    const closed = await payment('declined');
    await db.query(`INSERT INTO payment_tx (payment_id, txid, value, inputs) VALUES ($1, $2, 100, ARRAY[$3, $4])`, [
      open,
      '11'.repeat(32),
      `${A}:0`,
      `${A}:3`,
    ]);
    await db.query(
      `INSERT INTO payment_tx (payment_id, txid, value, inputs, block_height, block_hash) VALUES ($1, $2, 100, ARRAY[$3], 5, $4)`,
      [open, '22'.repeat(32), `${B}:1`, 'ee'.repeat(32)],
    );
    await db.query(`INSERT INTO payment_tx (payment_id, txid, value, inputs) VALUES ($1, $2, 100, ARRAY[$3])`, [
      closed,
      '33'.repeat(32),
      `${C}:2`,
    ]);
    const w = await loadWatchSet(db);
    expect(w.outpoints).toEqual(
      expect.arrayContaining([
        { txid: A, vout: 0 },
        { txid: A, vout: 3 },
      ]),
    );
    expect(w.outpoints).not.toContainEqual({ txid: B, vout: 1 });
    expect(w.outpoints).not.toContainEqual({ txid: C, vout: 2 });
    expect(buildFilter(w).contains(outpointBytes(A, 3))).toBe(true);
  });

  it('watches the addresses of pending wallet check cases in open runs; a decided case, a finished, old or pruned run leaves the set', async () => {
    const check: CheckContext = { db, network: REGTEST, dataDir: dir, publicUrl: 'http://127.0.0.1:1' };
    const run = async (client: string) => {
      const made = await createRun(check, client);
      if (!made.ok) throw new Error('throttled');
      const cases = await db.query<{ id: string; address: string; expect: string }>(
        `SELECT id, address, expect FROM wallet_check_case WHERE run_id = $1 ORDER BY position`,
        [made.runId],
      );
      return { id: made.runId, cases: cases.map((c) => ({ ...c, h: addressHash160(String(c.address))! })) };
    };
    const watched = async () => new Set((await loadWatchSet(db)).hash160s);
    const a = await run('198.51.100.1');
    const b = await run('198.51.100.2');
    const c = await run('198.51.100.3');
    const w = await loadWatchSet(db);
    const filter = buildFilter(w);
    for (const x of [...a.cases, ...b.cases, ...c.cases]) {
      expect(w.hash160s).toContain(x.h);
      expect(filter.contains(Buffer.from(x.h, 'hex'))).toBe(true);
    }
    // A refuse case decided (the wallet submitted it to /relay/pay): its address leaves the set.
    const refuse = a.cases.find((x) => x.expect === 'refuse')!;
    await db.query(`UPDATE wallet_check_case SET result = 'fail' WHERE id = $1`, [refuse.id]);
    expect((await watched()).has(refuse.h)).toBe(false);
    expect((await watched()).has(a.cases.find((x) => x.id !== refuse.id)!.h)).toBe(true);
    // The run finished (its report read with finish): every case of it leaves.
    await runReport({ ...check }, a.id, { finish: true });
    let now = await watched();
    for (const x of a.cases) expect(now.has(x.h)).toBe(false);
    // A run older than a day (pruned by the next run's start) and one already pruned.
    await db.query(`UPDATE wallet_check_run SET created_at = now() - interval '25 hours' WHERE id = $1`, [b.id]);
    now = await watched();
    for (const x of b.cases) expect(now.has(x.h)).toBe(false);
    await db.query(`DELETE FROM wallet_check_run WHERE id = $1`, [c.id]);
    now = await watched();
    for (const x of c.cases) expect(now.has(x.h)).toBe(false);
  });
});
