// A tx whose unconfirmed parent signals replace-by-fee never gets 0-conf (docs/security.md),
// against Dogecoin Core 1.14.9 (`dogecoind -regtest`): the child itself has only final
// sequences, yet replacing the parent is accepted by the node and evicts the child. With
// zero_conf_limit above the sale, the sale is paid by such a child from a plain wallet and
// through /relay/pay (submitPayment, the relay's entry function), on `rpc` (getrawmempool diff
// alone, then the node's P2P tx announcements alone) and on `spv`. A child of an unconfirmed parent
// that signals nothing still gets 0-conf on rpc (the check is not vacuous); spv, which cannot see
// that parent, waits for a block. Skipped, saying why, when dogecoind is absent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db';
import { REGTEST } from '@/lib/doge';
import { koinuFromRpc, koinuToRpc } from '@/lib/chain/rpc/client';
import { vendorPaymentView } from '@/lib/payments';
import { submitPayment } from '@/lib/relay';
import { testXpub } from '../helpers/keys';
import { haveDogecoind, startDogecoind, warnIfNoDogecoind, type Dogecoind } from '../helpers/dogecoind';
import { startNodeWorker, type NodeWorker } from '../helpers/node-worker';
import { createTestPayment } from '../helpers/payments';

warnIfNoDogecoind('tests/integration/rbf-ancestor-dogecoind.test.ts');

const URL_BASE = 'http://127.0.0.1:1';
const RBF = 0xfffffffd;
type View = ReturnType<typeof vendorPaymentView>;

let node: Dogecoind;

/**
 * A parent tx (sent) paying 100 DOGE to the node's wallet, its input's sequence `parentSequence`;
 * a child (signed, not sent) spending that output with a final sequence, paying `amount` to
 * `address`; and a replacement of the parent (signed, not sent) that pays a higher fee.
 */
async function parentAndChild(address: string, amount: string, parentSequence: number) {
  const coins = await node.rpc<{ txid: string; vout: number; amount: string; spendable: boolean }[]>('listunspent', 1);
  const coin = coins.find((c) => c.spendable && koinuFromRpc(c.amount) > 1_000_00000000n)!;
  const mid = await node.newAddress();
  const raw = await node.rpc<string>('createrawtransaction', [{ txid: coin.txid, vout: coin.vout, sequence: parentSequence }], {
    [mid]: 100,
  });
  const funded = await node.rpc<{ hex: string }>('fundrawtransaction', raw, { changePosition: 1 });
  const parent = await node.send((await node.rpc<{ hex: string }>('signrawtransaction', funded.hex)).hex);
  const change = await node.newAddress();
  const rawChild = await node.rpc<string>('createrawtransaction', [{ txid: parent, vout: 0 }], {
    [address]: amount,
    [change]: koinuToRpc(100_00000000n - koinuFromRpc(amount) - 1_00000000n),
  });
  const child = (await node.rpc<{ hex: string; complete: boolean }>('signrawtransaction', rawChild)).hex;
  const rawRepl = await node.rpc<string>('createrawtransaction', [{ txid: coin.txid, vout: coin.vout, sequence: RBF }], {
    [await node.newAddress()]: koinuToRpc(koinuFromRpc(coin.amount) - 5_00000000n),
  });
  const replacement = (await node.rpc<{ hex: string }>('signrawtransaction', rawRepl)).hex;
  return { parent, child, replacement };
}

function suite(name: string, backend: 'rpc' | 'spv', announcements: boolean | 'only', seed: number) {
  let running: NodeWorker;
  let db: Db;
  const view = async (id: string): Promise<View> =>
    vendorPaymentView(await db.prisma.payment.findUniqueOrThrow({ where: { id } }), URL_BASE, new Date());
  async function until(id: string, pred: (v: View) => boolean, ms = 20_000): Promise<View> {
    const t0 = Date.now();
    for (;;) {
      const v = await view(id);
      if (pred(v)) return v;
      if (Date.now() - t0 > ms) throw new Error(`payment ${id} not as expected within ${ms} ms: ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  async function zeroConfSale(unit: string) {
    const b = await createTestPayment(db, { unit, publicUrl: URL_BASE });
    const p = { id: b.id, address: b.payment.outputs[0].address };
    expect(await view(p.id)).toMatchObject({ required: 0 });
    return p;
  }

  describe.skipIf(!haveDogecoind)(`a child of an RBF-signalling parent on dogecoind (${name})`, () => {
    beforeAll(async () => {
      running = await startNodeWorker(node, { backend, announcements, xpub: testXpub(seed), publicUrl: URL_BASE });
      db = running.db;
      await db.prisma.store.update({ where: { id: 1 }, data: { zeroConfLimit: 100_00000000n } });
    }, 180_000);
    afterAll(async () => {
      await running?.stop();
    });

    it('plain wallet: accepted and waiting for a block, not confirmed at 0 confirmations; replacing the parent evicts it', async () => {
      const p = await zeroConfSale('5');
      const { parent, child, replacement } = await parentAndChild(p.address, '5', RBF);
      const txid = await node.send(child);
      const v = await until(p.id, (x) => x.status !== 'unpaid');
      expect(v).toMatchObject({ status: 'accepted', required: 1, confirmed: 0, txid, amount_paid: '5' });
      // The row keeps the signal, for a disconnect to read.
      expect(await db.prisma.paymentTx.findFirstOrThrow({ where: { paymentId: p.id } })).toMatchObject({ txid, signalsRbf: true });
      // The risk is real: Dogecoin Core accepts the parent's replacement and drops the child.
      await node.send(replacement);
      const pool = await node.rpc<string[]>('getrawmempool');
      expect(pool).not.toContain(parent);
      expect(pool).not.toContain(txid);
      await node.mine(1);
      await running.caughtUp();
    });

    it('/relay/pay: the submitted child is accepted with required 1, not confirmed', async () => {
      const p = await zeroConfSale('6');
      const { child } = await parentAndChild(p.address, '6', RBF);
      const r = await submitPayment({ db, network: REGTEST, chain: running.chain, publicUrl: URL_BASE }, { id: p.id, tx: child });
      expect(r).toMatchObject({ status: 200, body: { status: 'accepted', required: 1, confirmed: 0 } });
      expect(await view(p.id)).toMatchObject({ status: 'accepted', required: 1, confirmed: 0 });
      expect(await db.prisma.paymentTx.findFirstOrThrow({ where: { paymentId: p.id } })).toMatchObject({ signalsRbf: true });
      await node.mine(1);
      await until(p.id, (x) => x.status === 'confirmed');
      expect(await view(p.id)).toMatchObject({ confirmed: 1, required: 1 });
    });

    it(
      backend === 'rpc'
        ? 'a child of an unconfirmed parent that signals nothing: 0-conf, plain wallet and /relay/pay'
        : 'a child of a parent spv never saw: waits for a block (spv cannot tell it from a replaceable one)',
      async () => {
        const expected =
          backend === 'rpc' ? { status: 'confirmed', required: 0, confirmed: 0 } : { status: 'accepted', required: 1, confirmed: 0 };
        const a = await zeroConfSale('7');
        const viaWallet = await parentAndChild(a.address, '7', 0xffffffff);
        await node.send(viaWallet.child);
        // 0-conf from the mempool is accepted, then confirmed by the same tick's confirmation count.
        expect(await until(a.id, (x) => x.status === expected.status)).toMatchObject(expected);
        const b = await zeroConfSale('8');
        const viaRelay = await parentAndChild(b.address, '8', 0xffffffff);
        const r = await submitPayment(
          { db, network: REGTEST, chain: running.chain, publicUrl: URL_BASE },
          { id: b.id, tx: viaRelay.child },
        );
        expect(r).toMatchObject({ status: 200, body: expected });
        await node.mine(1);
        await running.caughtUp();
      },
    );
  });
}

describe.skipIf(!haveDogecoind)('RBF inherited from an unconfirmed parent (dogecoind)', () => {
  beforeAll(async () => {
    // whitelist: spv and the announcement connection hear of txs at once (docs/node.md).
    node = await startDogecoind({ matureBlocks: 64, args: ['-whitelist=127.0.0.1'] });
  }, 180_000);
  afterAll(async () => {
    await node?.dispose();
  });
  suite('rpc, getrawmempool diff', 'rpc', false, 71);
  suite('rpc, P2P announcements alone', 'rpc', 'only', 72);
  suite('spv', 'spv', false, 73);
});
