// A reorg that unmines a parent and its child together hands the parent's replace-by-fee signal
// to the child at once (docs/security.md), against Dogecoin Core 1.14.9 (`dogecoind -regtest`)
// and the `rpc` backend, through the worker's own tick: two 0-conf sales, each paid by a child
// with final sequences first seen in the block that also mines its parent (one parent signals
// RBF, the other does not). `invalidateblock` puts both pairs back in the node's mempool; the
// tick that disconnects the block reads it from the node (getblock) and, in the same
// transaction, sends the sale whose parent signals back to accepted, one confirmation needed,
// while the other keeps its 0-conf. The mempool diff is left out, so that nothing but the
// disconnect can move them. Skipped, saying why, when dogecoind is absent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db';
import { REGTEST } from '@/lib/doge';
import { activeRelayKey } from '@/lib/payments';
import { createRpcBackend } from '@/lib/chain/rpc/backend';
import type { ChainBackend } from '@/lib/chain/backend';
import { koinuFromRpc, koinuToRpc } from '@/lib/chain/rpc/client';
import { workerTick, type WorkerContext } from '@/lib/worker';
import { testXpub } from '../helpers/keys';
import { openTestDb } from '../helpers/stores';
import { createTestPayment } from '../helpers/payments';
import { paymentInvariantViolations } from '../helpers/payment-invariants';
import { haveDogecoind, startDogecoind, warnIfNoDogecoind, type Dogecoind } from '../helpers/dogecoind';

warnIfNoDogecoind('tests/integration/rbf-reorg-dogecoind.test.ts');

const URL_BASE = 'http://127.0.0.1:1';
const RBF = 0xfffffffd;
const FINAL = 0xffffffff;
let node: Dogecoind;
let db: Db;
let ctx: WorkerContext;

/** A parent (sent) with its input's sequence `sequence`, and a final child of it paying `amount` DOGE to `address` (sent). */
async function parentAndChild(address: string, amount: string, sequence: number) {
  const coins = await node.rpc<{ txid: string; vout: number; amount: string; spendable: boolean }[]>('listunspent', 1);
  const coin = coins.find((c) => c.spendable && koinuFromRpc(c.amount) > 1_000_00000000n)!;
  const raw = await node.rpc<string>('createrawtransaction', [{ txid: coin.txid, vout: coin.vout, sequence }], {
    [await node.newAddress()]: 100,
  });
  const funded = await node.rpc<{ hex: string }>('fundrawtransaction', raw, { changePosition: 1 });
  const parent = await node.send((await node.rpc<{ hex: string }>('signrawtransaction', funded.hex)).hex);
  const rawChild = await node.rpc<string>('createrawtransaction', [{ txid: parent, vout: 0, sequence: FINAL }], {
    [address]: amount,
    [await node.newAddress()]: koinuToRpc(100_00000000n - koinuFromRpc(amount) - 1_00000000n),
  });
  const child = await node.send((await node.rpc<{ hex: string }>('signrawtransaction', rawChild)).hex);
  return { parent, child };
}

const row = (id: string) => db.prisma.payment.findUniqueOrThrow({ where: { id } });

describe.skipIf(!haveDogecoind)("a reorg on dogecoind hands a parent's RBF signal to its child (rpc, worker tick)", () => {
  beforeAll(async () => {
    node = await startDogecoind();
    db = await openTestDb();
    await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: testXpub(17) }, create: { id: 1, storeXpub: testXpub(17) } });
    await activeRelayKey(db, 1);
    await db.prisma.store.update({ where: { id: 1 }, data: { zeroConfLimit: 100_00000000n } });
    const rpc = createRpcBackend({ url: node.rpcUrl, network: 'regtest' });
    // Blocks only: the txs are first seen in the block, and only the disconnect can move the sales.
    const chain: ChainBackend = { ...rpc, mempoolNewTxs: undefined };
    ctx = { db, network: REGTEST, chain, publicUrl: URL_BASE };
    await workerTick(ctx);
  }, 240_000);
  afterAll(async () => {
    await db?.close();
    await node?.dispose();
  });

  it('the sale whose parent signals goes back to accepted, one confirmation needed; the other stays confirmed', async () => {
    const [a, b] = [await createTestPayment(db, { unit: '3' }), await createTestPayment(db, { unit: '4' })];
    for (const p of [a, b]) expect(await row(p.id)).toMatchObject({ requiredConfirmations: 0 });
    const signalling = await parentAndChild(a.payment.outputs[0].address, '3', RBF);
    const final = await parentAndChild(b.payment.outputs[0].address, '4', FINAL);
    const [hash] = await node.mine(1);
    const mined = await node.rpc<{ tx: string[] }>('getblock', hash);
    expect(mined.tx).toEqual(expect.arrayContaining([signalling.parent, signalling.child, final.parent, final.child]));
    await workerTick(ctx);
    for (const p of [a, b]) expect(await row(p.id)).toMatchObject({ status: 'confirmed', requiredConfirmations: 0, confirmations: 1 });
    expect(await db.prisma.paymentTx.findFirstOrThrow({ where: { paymentId: a.id } })).toMatchObject({
      txid: signalling.child,
      signalsRbf: false,
    });

    await node.invalidate(hash!);
    expect(await node.rpc<string[]>('getrawmempool')).toEqual(expect.arrayContaining([signalling.parent, signalling.child]));
    await workerTick(ctx);
    expect(await db.prisma.paymentTx.findFirstOrThrow({ where: { paymentId: a.id } })).toMatchObject({
      txid: signalling.child,
      signalsRbf: true,
      blockHash: null,
    });
    expect(await row(a.id)).toMatchObject({ status: 'accepted', exception: 'reorged', requiredConfirmations: 1, confirmations: 0 });
    expect(await row(b.id)).toMatchObject({ status: 'confirmed', requiredConfirmations: 0, confirmations: 0 });
    expect(await paymentInvariantViolations(db, { rbf: new Set([signalling.child]) })).toEqual([]);
  }, 120_000);
});
