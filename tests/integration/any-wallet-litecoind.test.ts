// Payments from any wallet on the rpc and spv backends against a real litecoind -regtest node
// (docs/api.md#payments-from-any-wallet): the rpc worker diffs getrawmempool, the spv node gets the tx
// through its bloom filter, so a plain `sendtoaddress` to a payment's address is seen within
// 5 s, before any block (the figures are printed). Real PGlite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { testXpub } from '../helpers/keys';
import { vendorPaymentView } from '@/lib/payments';
import { startLitecoind, LITECOIN_REGTEST_GENESIS, type Litecoind } from '../helpers/litecoind';
import { createTestPayment } from '../helpers/payments';
import { nodeArgsFor, startNodeWorker, type NodeWorker } from '../helpers/node-worker';

const URL_BASE = 'http://127.0.0.1:1';
const XPUB = testXpub(13);
let node: Litecoind;
let db: Db;
let running: NodeWorker;

async function newPayment() {
  const b = await createTestPayment(db, { publicUrl: URL_BASE });
  return { id: b.id, address: b.payment.outputs[0].address };
}
const view = async (id: string) => vendorPaymentView(await db.prisma.payment.findUniqueOrThrow({ where: { id } }), URL_BASE, new Date());

/** Polls until the payment matches `pred`; the time it took, in ms (throws after `ms`). */
async function seenWithin(id: string, pred: (v: Record<string, unknown>) => boolean, ms: number): Promise<number> {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    if (pred(await view(id))) return Date.now() - t0;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`payment ${id} not seen within ${ms} ms: ${JSON.stringify(await view(id))}`);
}

beforeAll(async () => {
  node = await startLitecoind();
  running = await startNodeWorker(node, { backend: 'rpc', xpub: XPUB, publicUrl: URL_BASE, intervalMs: 500 });
  db = running.db;
}, 180_000);
afterAll(async () => {
  await running?.stop();
  await node?.dispose();
});

describe('plain wallet payments on litecoind (rpc backend)', () => {
  it('sendtoaddress of the whole total: accepted from the mempool within 5 s, before any block', async () => {
    const p = await newPayment();
    const height = await node.rpc<number>('getblockcount');
    const txid = await node.rpc<string>('sendtoaddress', p.address, '2');
    const ms = await seenWithin(p.id, (v) => v.status === 'accepted', 5_000);
    console.log(`rpc mempool detection latency (accepted): ${ms} ms`);
    expect(await node.rpc<number>('getblockcount')).toBe(height); // no block was mined
    expect(await view(p.id)).toMatchObject({ status: 'accepted', txid, txids: [txid], amount_paid: '2', amount_due: '0', confirmed: 0 });
    await node.mine(1);
    await seenWithin(p.id, (v) => v.status === 'confirmed', 10_000);
  });

  it('two sendtoaddress that together pay: underpaid within 5 s, then accepted within 5 s', async () => {
    const p = await newPayment();
    const t1 = await node.rpc<string>('sendtoaddress', p.address, '0.75');
    const ms1 = await seenWithin(p.id, (v) => v.exception === 'underpaid', 5_000);
    console.log(`rpc mempool detection latency (underpaid): ${ms1} ms`);
    expect(await view(p.id)).toMatchObject({ status: 'unpaid', amount_paid: '0.75', amount_due: '1.25', txids: [t1] });
    const t2 = await node.rpc<string>('sendtoaddress', p.address, '1.25');
    const ms2 = await seenWithin(p.id, (v) => v.status === 'accepted', 5_000);
    console.log(`rpc mempool detection latency (second tx, accepted): ${ms2} ms`);
    expect(await view(p.id)).toMatchObject({ exception: null, amount_paid: '2', txids: [t1, t2], txid: t1 });
  });
});

describe('double spends on litecoind', () => {
  it('an accepted payment whose tx is conflicted by a tx mined in a block → declined, double_spent, payment.declined', async () => {
    const p = await newPayment();
    const hexA = await node.payTo([{ address: p.address, amountKoinu: 2_00000000n }]);
    const txA = await node.send(hexA);
    await seenWithin(p.id, (v) => v.status === 'accepted', 5_000);
    // B spends A's inputs to an address of the node's own; a miner puts B, not A, in a block
    // (litecoind refuses replacements in its mempool, so the block is made with generateblock).
    const a = await node.rpc<{ vin: { txid: string; vout: number }[] }>('getrawtransaction', txA, true);
    let inSum = 0;
    for (const i of a.vin) inSum += Number((await node.rpc<{ value: number | string }>('gettxout', i.txid, i.vout, false)).value);
    const other = await node.newAddress();
    const raw = await node.rpc<string>(
      'createrawtransaction',
      a.vin.map((i) => ({ txid: i.txid, vout: i.vout })),
      { [other]: Number((inSum - 0.01).toFixed(8)) },
    );
    const signed = await node.rpc<{ hex: string; complete: boolean }>('signrawtransactionwithwallet', raw);
    expect(signed.complete).toBe(true);
    await node.rpc('generateblock', other, [signed.hex]);
    await seenWithin(p.id, (v) => v.status === 'declined', 10_000);
    const v = await view(p.id);
    expect(v).toMatchObject({ status: 'declined', exception: 'double_spent', amount_paid: '0', amount_due: '2', txids: [] });
    expect(String(v.reason)).toMatch(/double spent/);
    const types = (await db.query<{ type: string }>(`SELECT type FROM vendor_event WHERE payment_id = $1 ORDER BY seq`, [p.id])).map(
      (e) => e.type,
    );
    expect(types).toEqual(['payment.accepted', 'payment.declined']);
  });
});

// The spv backend on the same kind of node: the tx comes through the bloom filter from the peer's
// mempool. litecoind runs with whitelist=127.0.0.1, as docs/node.md advises for one's own node:
// it then announces mempool txs to Counter at once instead of on its randomised inv timer.
describe('plain wallet payments on litecoind (spv backend)', () => {
  let spvNode: Litecoind;
  let spvDb: Db;
  let spvRunning: NodeWorker;
  const spvView = async (id: string) =>
    vendorPaymentView(await spvDb.prisma.payment.findUniqueOrThrow({ where: { id } }), URL_BASE, new Date());

  beforeAll(async () => {
    spvNode = await startLitecoind({ args: nodeArgsFor('spv') });
    spvRunning = await startNodeWorker(spvNode, { backend: 'spv', xpub: XPUB, publicUrl: URL_BASE, genesisHash: LITECOIN_REGTEST_GENESIS });
    spvDb = spvRunning.db;
  }, 180_000);
  afterAll(async () => {
    await spvRunning?.stop();
    await spvNode?.dispose();
  });

  it('sendtoaddress of the whole total: accepted from the mempool within 5 s, before any block', async () => {
    const p = await createTestPayment(spvDb, { publicUrl: URL_BASE });
    const height = await spvNode.rpc<number>('getblockcount');
    const t0 = Date.now();
    const txid = await spvNode.rpc<string>('sendtoaddress', p.payment.outputs[0].address, '2');
    while ((await spvView(p.id)).status !== 'accepted' && Date.now() - t0 < 10_000) await new Promise((res) => setTimeout(res, 50));
    const ms = Date.now() - t0;
    console.log(`spv (litecoind): plain payment seen as accepted ${ms} ms after sendtoaddress`);
    expect(ms).toBeLessThan(5_000);
    expect(await spvNode.rpc<number>('getblockcount')).toBe(height);
    expect(await spvView(p.id)).toMatchObject({ status: 'accepted', txid, amount_paid: '2', amount_due: '0', confirmed: 0 });
  });
});
