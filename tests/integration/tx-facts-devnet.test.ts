// The tx facts every path hands the payment core (lib/chain/tx-facts.ts), on the devnet backend, a
// real PGlite and the worker's tick: a child of an unconfirmed parent that signals replace-by-fee
// never gets 0-conf (docs/security.md), from a plain wallet or through /relay/pay,
// and a tx that pays two payments is each one's txid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { REGTEST, decodeTx } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { submitPayment } from '@/lib/relay/pay';
import type { DevnetBackend } from '@/lib/chain/devnet/backend';
import { buildPaymentTx } from '@/lib/wallet';
import { vendorPaymentView } from '@/lib/payments';
import { createTestPayment } from '../helpers/payments';
import { openDevnetStore, type DevnetStore } from '../helpers/devnet-store';

const URL_BASE = 'http://127.0.0.1:1';
const RBF = 0xfffffffd;
let store: DevnetStore;
let db: Db;
let chain: DevnetBackend;

type Created = { id: string; total: string; payment: Parameters<typeof buildPaymentTx>[0] & { outputs: { address?: string }[] } };
type Utxo = { txid: string; vout: number; amount: bigint; script: string };

const addressOf = (p: Created) => p.payment.outputs[0].address!;
const tick = () => store.tick();
const view = async (id: string) => vendorPaymentView(await db.prisma.payment.findUniqueOrThrow({ where: { id } }), URL_BASE, new Date());

/** A signed tx (not broadcast) spending `utxo` to `outputs`, change to the demo wallet. */
function build(utxo: Utxo, outputs: { address: string; amount: string }[], sequence?: number) {
  const w = chain.demoWallet();
  const req = { fee_per_kb: '0.01', outputs: outputs.map((o) => ({ type: 'p2pkh', ...o })) } as unknown as Parameters<
    typeof buildPaymentTx
  >[0];
  return buildPaymentTx(req, { network: 'regtest', utxos: [utxo], keys: [w.wif], sequence });
}
const unusedCoin = (): Utxo => store.coin({ confirmed: true }).u;

/** A parent (broadcast) paying 10 DOGE to the demo wallet, its input's sequence `parentSequence`; the child (signed, not sent) pays `amount` to `address` from it with a final sequence. */
async function parentAndChild(address: string, amount: string, parentSequence: number) {
  const w = chain.demoWallet();
  const parent = build(unusedCoin(), [{ address: w.address, amount: '10' }], parentSequence);
  expect((await chain.broadcast(parent.hex)).ok).toBe(true);
  const child = build({ txid: parent.txid, vout: 0, amount: 10_00000000n, script: w.utxos[0]!.script }, [{ address, amount }]);
  expect(decodeTx(child.hex, REGTEST).signalsRbf).toBe(false);
  return { parent, child };
}

beforeAll(async () => {
  store = await openDevnetStore({ xpub: testXpub(14), store: { zeroConfLimit: 100_00000000n }, coins: 12, name: 'counter-tx-facts-' });
  ({ db, chain } = store);
}, 120_000);
afterAll(async () => store?.close());

describe('a child of an unconfirmed parent that signals RBF (devnet)', () => {
  const sale = async (unit: string) => {
    const p = await createTestPayment<Created>(db, { unit, publicUrl: URL_BASE });
    expect(await view(p.id)).toMatchObject({ required: 0 });
    return p;
  };

  it('plain wallet: accepted with required 1, not confirmed at 0 confirmations; a block confirms it', async () => {
    const p = await sale('5');
    const { child } = await parentAndChild(addressOf(p), '5', RBF);
    expect((await chain.broadcast(child.hex)).ok).toBe(true);
    await tick();
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'accepted', required: 1, confirmed: 0, txid: child.txid });
    await chain.mine(1);
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'confirmed', required: 1, confirmed: 1 });
  });

  it('/relay/pay: the child is accepted with required 1', async () => {
    const p = await sale('6');
    const { child } = await parentAndChild(addressOf(p), '6', RBF);
    const r = await submitPayment({ db, network: REGTEST, chain, publicUrl: URL_BASE }, { id: p.id, tx: child.hex });
    expect(r).toMatchObject({ status: 200, body: { status: 'accepted', required: 1, confirmed: 0 } });
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'accepted', required: 1 });
  });

  it('a grandchild inherits too; a child of a parent that signals nothing is 0-conf, by either path', async () => {
    const p = await sale('4');
    const w = chain.demoWallet();
    const { child: middle } = await parentAndChild(w.address, '9', RBF);
    expect((await chain.broadcast(middle.hex)).ok).toBe(true);
    const grandchild = build({ txid: middle.txid, vout: 0, amount: 9_00000000n, script: w.utxos[0]!.script }, [
      { address: addressOf(p), amount: '4' },
    ]);
    expect((await chain.broadcast(grandchild.hex)).ok).toBe(true);
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'accepted', required: 1 });

    const a = await sale('3');
    const viaWallet = await parentAndChild(addressOf(a), '3', 0xffffffff);
    expect((await chain.broadcast(viaWallet.child.hex)).ok).toBe(true);
    await tick();
    expect(await view(a.id)).toMatchObject({ status: 'confirmed', required: 0, confirmed: 0 });
    const b = await sale('2');
    const viaRelay = await parentAndChild(addressOf(b), '2', 0xffffffff);
    const r = await submitPayment({ db, network: REGTEST, chain, publicUrl: URL_BASE }, { id: b.id, tx: viaRelay.child.hex });
    expect(r).toMatchObject({ status: 200, body: { status: 'confirmed', required: 0 } });
    await chain.mine(1);
    await tick();
  });
});

describe('one tx paying two payments', () => {
  it('each payment shows it as its txid, and in its txids', async () => {
    await db.prisma.store.update({ where: { id: 1 }, data: { zeroConfLimit: 0n } });
    const p = await createTestPayment<Created>(db, { unit: '2', publicUrl: URL_BASE });
    const q = await createTestPayment<Created>(db, { unit: '3', publicUrl: URL_BASE });
    const tx = build(unusedCoin(), [
      { address: addressOf(p), amount: '2' },
      { address: addressOf(q), amount: '3' },
    ]);
    expect((await chain.broadcast(tx.hex)).ok).toBe(true);
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'accepted', txid: tx.txid, txids: [tx.txid] });
    expect(await view(q.id)).toMatchObject({ status: 'accepted', txid: tx.txid, txids: [tx.txid] });
  });
});
