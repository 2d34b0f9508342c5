// Payments from any wallet (docs/api.md#payments-from-any-wallet) on the devnet backend and a real PGlite: plain
// wallet txs are seen from the mempool by the worker, summed per payment, and move the payment
// through the state machine (underpaid, accepted, overpaid, paid_late, double_spent).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { REGTEST, decodeTx } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { submitPayment } from '@/lib/relay/pay';
import type { DevnetBackend } from '@/lib/chain/devnet/backend';
import { buildPaymentTx } from '@/lib/wallet';
import { vendorPaymentView, onBlockConnected, onMempoolTxs, markPayment } from '@/lib/payments';
import { createRefund } from '@/lib/refunds/create-refund';
import { formatKoinu, parseKoinu } from '@/lib/money';
import { createTestPayment } from '../helpers/payments';
import { openDevnetStore, type DevnetStore } from '../helpers/devnet-store';

const URL_BASE = 'http://127.0.0.1:1';
const XPUB = testXpub(12);
let store: DevnetStore;
let db: Db;
let chain: DevnetBackend;

type Created = { id: string; total: string; payment: Parameters<typeof buildPaymentTx>[0] & { outputs: { address?: string }[] } };

const newPayment = (extra: Record<string, unknown> = {}) => createTestPayment<Created>(db, { extra, publicUrl: URL_BASE });
const addressOf = (p: Created) => p.payment.outputs[0].address!;

/** A plain wallet tx (no /pay) sending `amount` DOGE to `address` from an unused demo-wallet coin, broadcast. */
const sendPlain = (address: string, amount: string, sequence?: number) => store.sendPlain(address, amount, sequence);

const tick = () => store.tick();
const view = async (id: string) => vendorPaymentView(await db.prisma.payment.findUniqueOrThrow({ where: { id } }), URL_BASE, new Date());
const eventTypes = async (id: string) =>
  (await db.query<{ type: string }>(`SELECT type FROM vendor_event WHERE payment_id = $1 ORDER BY seq`, [id])).map((e) => e.type);
const lastEvent = async (id: string) =>
  JSON.parse(
    (await db.query<{ body: string }>(`SELECT body FROM vendor_event WHERE payment_id = $1 ORDER BY seq DESC LIMIT 1`, [id]))[0].body,
  );

beforeAll(async () => {
  // Coins enough for every test (each spends one unused coin of ≥ 10 DOGE).
  store = await openDevnetStore({ xpub: XPUB, coins: 20, name: 'counter-any-wallet-' });
  ({ db, chain } = store);
}, 120_000);
afterAll(async () => store?.close());

describe('payments from any wallet (devnet, PGlite)', () => {
  it('short, then enough through a second tx: seen from the mempool before any block, then confirmed', async () => {
    const p = await newPayment();
    const tip = (await chain.tip()).height;
    const t1 = await sendPlain(addressOf(p), '0.5');
    await tick();
    expect((await chain.tip()).height).toBe(tip); // no block: seen from the mempool
    expect(await view(p.id)).toMatchObject({
      status: 'unpaid',
      exception: 'underpaid',
      amount_paid: '0.5',
      amount_due: '1.5',
      txids: [t1.txid],
      txid: t1.txid,
    });
    expect(await eventTypes(p.id)).toEqual(['payment.underpaid']);
    expect((await lastEvent(p.id)).payment).toMatchObject({ amount_paid: '0.5', amount_due: '1.5', txids: [t1.txid] });
    const t2 = await sendPlain(addressOf(p), '1.5');
    await tick();
    expect(await view(p.id)).toMatchObject({
      status: 'accepted',
      exception: null,
      amount_paid: '2',
      amount_due: '0',
      txids: [t1.txid, t2.txid],
      txid: t1.txid,
      confirmed: 0,
      block_height: null,
    });
    expect(await eventTypes(p.id)).toEqual(['payment.underpaid', 'payment.accepted']);
    await chain.mine(1);
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'confirmed', confirmed: 1, block_height: (await chain.tip()).height });
    expect(await eventTypes(p.id)).toEqual(['payment.underpaid', 'payment.accepted', 'payment.confirmed']);
  });

  it('an exchange withdrawal that deducted its fee is not dropped: underpaid, each new tx emits payment.underpaid', async () => {
    const p = await newPayment();
    await sendPlain(addressOf(p), '1.99');
    await chain.mine(1);
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'unpaid', exception: 'underpaid', amount_paid: '1.99', amount_due: '0.01' });
    await sendPlain(addressOf(p), '0.005'.replace('0.005', '0.001'));
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'unpaid', exception: 'underpaid', amount_paid: '1.991', amount_due: '0.009' });
    expect(await eventTypes(p.id)).toEqual(['payment.underpaid', 'payment.underpaid']);
  });

  it('too much: accepted with exception overpaid and payment.overpaid; more money emits it again', async () => {
    const p = await newPayment();
    await sendPlain(addressOf(p), '2.5');
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'accepted', exception: 'overpaid', amount_paid: '2.5', amount_due: '0' });
    expect(await eventTypes(p.id)).toEqual(['payment.accepted', 'payment.overpaid']);
    await sendPlain(addressOf(p), '1');
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'accepted', exception: 'overpaid', amount_paid: '3.5' });
    expect(await eventTypes(p.id)).toEqual(['payment.accepted', 'payment.overpaid', 'payment.overpaid']);
  });

  it('confirmations count from the least-confirmed tx needed to reach the total', async () => {
    const p = await newPayment({ required_confirmations: 2 });
    await sendPlain(addressOf(p), '1');
    await chain.mine(1);
    await tick();
    await chain.mine(1);
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'unpaid', exception: 'underpaid', confirmed: 0 });
    await sendPlain(addressOf(p), '1');
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'accepted', confirmed: 0, block_height: null });
    await chain.mine(1);
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'accepted', confirmed: 1 });
    await chain.mine(1);
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'confirmed', confirmed: 2 });
  });

  it('late money after expires_at: accepted with paid_late and payment.paid_late', async () => {
    const p = await newPayment();
    await sendPlain(addressOf(p), '2');
    const txs = await chain.mempoolNewTxs!();
    const exp = (await db.prisma.payment.findUniqueOrThrow({ where: { id: p.id } })).expiresAt;
    await onMempoolTxs({ db, network: REGTEST, publicUrl: URL_BASE, now: () => new Date(exp.getTime() + 1000) }, txs);
    expect(await view(p.id)).toMatchObject({ status: 'accepted', exception: 'paid_late', amount_paid: '2' });
    expect(await eventTypes(p.id)).toEqual(['payment.paid_late']);
  });

  it('a /pay payment that more money reaches becomes overpaid; txid stays the submitted one', async () => {
    const p = await newPayment();
    const { u, w } = store.coin();
    const tx = buildPaymentTx(p.payment, { network: 'regtest', utxos: [u], keys: [w.wif] });
    const r = await submitPayment({ db, network: REGTEST, chain, publicUrl: URL_BASE }, { id: p.id, tx: tx.hex });
    expect(r.status).toBe(200);
    expect(await view(p.id)).toMatchObject({ status: 'accepted', amount_paid: '2', amount_due: '0', txids: [tx.txid], exception: null });
    await tick(); // the worker sees the /pay tx in the mempool: counted once
    expect(await view(p.id)).toMatchObject({ amount_paid: '2', txids: [tx.txid] });
    const extra = await sendPlain(addressOf(p), '0.3');
    await tick();
    expect(await view(p.id)).toMatchObject({
      status: 'accepted',
      exception: 'overpaid',
      amount_paid: '2.3',
      txid: tx.txid,
      txids: [tx.txid, extra.txid],
    });
    await chain.mine(1);
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'confirmed', block_height: (await chain.tip()).height });
  });

  it('double spent: a block mines a tx conflicting with a needed tx → declined, double_spent, payment.declined', async () => {
    const p = await newPayment();
    const a = await sendPlain(addressOf(p), '2');
    await tick();
    expect((await view(p.id)).status).toBe('accepted');
    // A block (as rpc/devnet deliver it) whose tx spends a's input to somewhere else.
    const tip = await chain.tip();
    const conflicting = {
      txid: 'ab'.repeat(32),
      inputs: [a.input],
      outputs: [{ n: 0, value: parseKoinu('9'), script: '51' }],
      signalsRbf: false,
    };
    await onBlockConnected(
      { db, network: REGTEST, publicUrl: URL_BASE },
      {
        hash: 'cd'.repeat(32),
        prevHash: tip.hash,
        height: tip.height + 1,
        time: 0,
        header: new Uint8Array(80),
        size: 0,
        txCount: 1,
        totalTxSize: 0,
        txs: [conflicting],
      },
    );
    const v = await view(p.id);
    expect(v).toMatchObject({ status: 'declined', exception: 'double_spent', amount_paid: '0', amount_due: '2', txids: [] });
    expect(String(v.reason)).toMatch(/double spent/);
    expect(await eventTypes(p.id)).toEqual(['payment.accepted', 'payment.declined']);
    expect(decodeTx(a.hex, REGTEST).txid).toBe(a.txid);
  });

  it('a conflicted tx the payment did not need only lowers the amount: overpaid → exact clears the exception', async () => {
    const p = await newPayment();
    await sendPlain(addressOf(p), '2');
    const b = await sendPlain(addressOf(p), '1');
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'accepted', exception: 'overpaid', amount_paid: '3' });
    const tip = await chain.tip();
    await onBlockConnected(
      { db, network: REGTEST, publicUrl: URL_BASE },
      {
        hash: 'ce'.repeat(32),
        prevHash: tip.hash,
        height: tip.height + 1,
        time: 0,
        header: new Uint8Array(80),
        size: 0,
        txCount: 1,
        totalTxSize: 0,
        txs: [{ txid: 'ac'.repeat(32), inputs: [b.input], outputs: [{ n: 0, value: 1n, script: '51' }], signalsRbf: false }],
      },
    );
    expect(await view(p.id)).toMatchObject({ status: 'accepted', exception: null, amount_paid: '2' });
    expect(formatKoinu(parseKoinu('2'))).toBe('2');
  });
});

describe('the merchant decides (markPayment)', () => {
  it('settled: an underpaid payment → confirmed, marked_settled, payment.confirmed; the decision is kept and shown', async () => {
    const p = await newPayment();
    await sendPlain(addressOf(p), '1.99');
    await tick();
    const r = await markPayment(db, { storeId: 1 }, p.id, { as: 'settled', note: 'exchange fee, fine' }, 'boss@example.com', URL_BASE);
    expect(r).toEqual({ ok: true });
    const v = await view(p.id);
    expect(v).toMatchObject({ status: 'confirmed', exception: 'marked_settled', amount_paid: '1.99', amount_due: '0.01' });
    expect(v.decision).toMatchObject({ as: 'settled', note: 'exchange fee, fine', by: 'boss@example.com' });
    expect(await eventTypes(p.id)).toEqual(['payment.underpaid', 'payment.confirmed']);
    // A settled payment is not unconfirmed by the confirmation recount, and cannot be decided again.
    await tick();
    expect((await view(p.id)).status).toBe('confirmed');
    expect(await markPayment(db, { storeId: 1 }, p.id, { as: 'invalid', note: '' }, 'x', URL_BASE)).toMatchObject({
      ok: false,
      error: 'conflict',
    });
  });

  it('invalid: an accepted payment → declined, marked_invalid, reason, payment.declined; other states conflict', async () => {
    const p = await newPayment();
    await sendPlain(addressOf(p), '2');
    await tick();
    expect(await markPayment(db, { storeId: 1 }, p.id, { as: 'invalid', note: 'stolen card' }, 'm@example.com', URL_BASE)).toEqual({
      ok: true,
    });
    expect(await view(p.id)).toMatchObject({ status: 'declined', exception: 'marked_invalid', reason: 'marked invalid by merchant' });
    expect(await eventTypes(p.id)).toEqual(['payment.accepted', 'payment.declined']);
    expect(await markPayment(db, { storeId: 1 }, p.id, { as: 'settled', note: '' }, 'x', URL_BASE)).toMatchObject({
      ok: false,
      error: 'conflict',
    });
    expect(await markPayment(db, { storeId: 1 }, 'nope', { as: 'settled', note: '' }, 'x', URL_BASE)).toMatchObject({
      ok: false,
      error: 'not_found',
    });
    // Money arriving later is still counted, the state stays final.
    await sendPlain(addressOf(p), '1');
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'declined', amount_paid: '3' });
  });
});

describe('replace-by-fee never gets 0-conf, whatever path brought the tx (issue 31 #1)', () => {
  const withZeroConf = async (run: () => Promise<void>) => {
    await db.prisma.store.update({ where: { id: 1 }, data: { zeroConfLimit: 100_00000000n } });
    try {
      await run();
    } finally {
      await db.prisma.store.update({ where: { id: 1 }, data: { zeroConfLimit: 0n } });
    }
  };
  const sale = () => createTestPayment<Created>(db, { unit: '5', publicUrl: URL_BASE });

  it('a plain-wallet tx signalling RBF (nSequence 0xfffffffd): accepted, required 1, and stays accepted until a block', async () => {
    await withZeroConf(async () => {
      const p = await sale();
      expect((await db.prisma.payment.findUniqueOrThrow({ where: { id: p.id } })).requiredConfirmations).toBe(0);
      const tx = await sendPlain(addressOf(p), '5', 0xfffffffd);
      expect(decodeTx(tx.hex, REGTEST).signalsRbf).toBe(true);
      for (let i = 0; i < 3; i++) {
        await tick();
        expect(await view(p.id)).toMatchObject({ status: 'accepted', confirmed: 0, required: 1, amount_paid: '5' });
      }
      expect(await eventTypes(p.id)).toEqual(['payment.accepted']);
      await chain.mine(1);
      await tick();
      expect(await view(p.id)).toMatchObject({ status: 'confirmed', confirmed: 1, required: 1 });
    });
  });

  it('the same sale paid by a final tx is 0-conf: confirmed at once (the rule above is what holds it back)', async () => {
    await withZeroConf(async () => {
      const p = await sale();
      await sendPlain(addressOf(p), '5');
      await tick();
      expect(await view(p.id)).toMatchObject({ status: 'confirmed', confirmed: 0, required: 0 });
    });
  });

  it('an RBF tx on top of a sale already paid by a final tx changes nothing: still confirmed, no unconfirmed event', async () => {
    await withZeroConf(async () => {
      const p = await sale();
      await sendPlain(addressOf(p), '5');
      await tick();
      await sendPlain(addressOf(p), '1', 0xfffffffd);
      await tick();
      await tick();
      expect(await view(p.id)).toMatchObject({ status: 'confirmed', required: 0, amount_paid: '6', exception: 'overpaid' });
      expect(await eventTypes(p.id)).toEqual(['payment.accepted', 'payment.confirmed', 'payment.overpaid']);
    });
  });
});

describe('data not committed: data_missing (issue 27 #4)', () => {
  const DATA = '6869'; // "hi"
  /** A tx paying `amount` to `address`, with an OP_RETURN carrying `data` when given. */
  async function send(address: string, amount: string, data?: string) {
    const { u, w } = store.coin();
    const outputs = [{ type: 'p2pkh', address, amount }, ...(data ? [{ type: 'data', data }] : [])];
    const tx = buildPaymentTx({ fee_per_kb: '0.01', outputs } as unknown as Parameters<typeof buildPaymentTx>[0], {
      network: 'regtest',
      utxos: [u],
      keys: [w.wif],
    });
    expect((await chain.broadcast(tx.hex)).ok).toBe(true);
    return tx;
  }

  it('a plain-wallet tx without the OP_RETURN: counted, but unpaid with data_missing and payment.data_missing; a block changes nothing', async () => {
    const p = await newPayment({ outputs: [{ type: 'data', data: DATA }] });
    const tx = await send(addressOf(p), '2');
    await tick();
    expect(await view(p.id)).toMatchObject({
      status: 'unpaid',
      exception: 'data_missing',
      amount_paid: '2',
      amount_due: '0',
      txids: [tx.txid],
    });
    expect(await eventTypes(p.id)).toEqual(['payment.data_missing']);
    expect((await lastEvent(p.id)).payment).toMatchObject({ status: 'unpaid', exception: 'data_missing' });
    await chain.mine(1);
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'unpaid', exception: 'data_missing', confirmed: 0 });
    expect(await eventTypes(p.id)).toEqual(['payment.data_missing']);
    // The merchant can settle it.
    expect(
      await markPayment(db, { storeId: 1 }, p.id, { as: 'settled', note: 'customer showed the order' }, 'owner@example.com', URL_BASE),
    ).toEqual({ ok: true });
    expect(await view(p.id)).toMatchObject({ status: 'confirmed', exception: 'marked_settled' });
  });

  it('the merchant can refund it', async () => {
    const p = await newPayment({ outputs: [{ type: 'data', data: DATA }] });
    await send(addressOf(p), '2');
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'unpaid', exception: 'data_missing' });
    const r = await createRefund({ storeId: 1, db, network: REGTEST, publicUrl: URL_BASE }, p.id, {
      reason: 'no order data',
      address: chain.demoWallet().address,
    });
    expect(r).toMatchObject({ payment_id: p.id, status: 'unpaid', amount: '2' });
  });

  it('a tx that carries the data pays it: accepted; after a data-less tx, it is overpaid', async () => {
    const p = await newPayment({ outputs: [{ type: 'data', data: DATA }] });
    await send(addressOf(p), '2', DATA);
    await tick();
    expect(await view(p.id)).toMatchObject({ status: 'accepted', exception: null, amount_paid: '2' });
    expect(await eventTypes(p.id)).toEqual(['payment.accepted']);
    const q = await newPayment({ outputs: [{ type: 'data', data: DATA }] });
    await send(addressOf(q), '2');
    await tick();
    await send(addressOf(q), '2', DATA);
    await tick();
    expect(await view(q.id)).toMatchObject({ status: 'accepted', exception: 'overpaid', amount_paid: '4' });
    expect(await eventTypes(q.id)).toEqual(['payment.data_missing', 'payment.accepted', 'payment.overpaid']);
  });
});
