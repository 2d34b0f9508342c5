// The spv node's watch set (lib/chain/spv/watch.ts) holds the outpoints spent by the unmined txs
// paying open payments, so a conflicting tx (a double spend that pays none of our addresses)
// matches the bloom filter when a block mines it (docs/api.md#payments-from-any-wallet). Real PGlite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { REGTEST } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { createPayment } from '@/lib/payments/creation/create-payment';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { buildFilter, loadWatchSet, outpointBytes } from '@/lib/chain/spv/watch';

const XPUB = testXpub(41);
const A = 'aa'.repeat(32);
const B = 'bb'.repeat(32);
const C = 'cc'.repeat(32);
let db: Db;

beforeAll(async () => {
  db = await openTestDb();
  await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: XPUB }, create: { id: 1, storeXpub: XPUB } });
  await activeRelayKey(db, 1);
});
afterAll(async () => db?.close());

async function payment(status: string) {
  const r = await createPayment({ storeId: 1, db, network: REGTEST, publicUrl: 'http://127.0.0.1:1' }, JSON.stringify({ items: [{ type: 'item', id: 's', name: 'Tea', count: 1, unit: '2' }] }));
  const id = (r.body as { id: string }).id;
  await db.query(`UPDATE payment SET status = $1 WHERE id = $2`, [status, id]);
  return id;
}

describe('spv watch set', () => {
  it('watches the inputs of unmined txs paying open payments, not of mined ones or of declined payments', async () => {
    const open = await payment('accepted');
    const closed = await payment('declined');
    await db.query(`INSERT INTO payment_tx (payment_id, txid, value, inputs) VALUES ($1, $2, 100, ARRAY[$3, $4])`, [open, '11'.repeat(32), `${A}:0`, `${A}:3`]);
    await db.query(`INSERT INTO payment_tx (payment_id, txid, value, inputs, block_height, block_hash) VALUES ($1, $2, 100, ARRAY[$3], 5, $4)`, [open, '22'.repeat(32), `${B}:1`, 'ee'.repeat(32)]);
    await db.query(`INSERT INTO payment_tx (payment_id, txid, value, inputs) VALUES ($1, $2, 100, ARRAY[$3])`, [closed, '33'.repeat(32), `${C}:2`]);
    const w = await loadWatchSet(db);
    expect(w.outpoints).toEqual(expect.arrayContaining([{ txid: A, vout: 0 }, { txid: A, vout: 3 }]));
    expect(w.outpoints).not.toContainEqual({ txid: B, vout: 1 });
    expect(w.outpoints).not.toContainEqual({ txid: C, vout: 2 });
    expect(buildFilter(w).contains(outpointBytes(A, 3))).toBe(true);
  });
});
