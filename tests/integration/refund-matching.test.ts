// Which transaction pays a refund (docs/security.md), on the devnet backend
// (real signatures and scripts) and a real PGlite, through the chain worker and /relay/pay:
//  (a) two refunds to one customer address, 5 DOGE (older) and 7 DOGE: the merchant pays the 7
//      DOGE one with an ordinary wallet payment of exactly 7 → the 7 DOGE refund is paid, the 5
//      stays unpaid;
//  (b) the customer spends a coin of the refund address and change of the refund's amount comes
//      back to it → the refund stays unpaid (chain worker and /relay/pay);
//  (c) /relay/pay for a refund while an older unpaid refund of the same amount to the same
//      address waits → the submitted one is paid;
//  and a tx the customer broadcast before the refund existed, mined after, pays nothing.
// Each refund shows amount_paid and txids; the sales report counts only the refunds paid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { REGTEST, hdFromSeed, derivePath, hdKeyToAddress, decodeTx } from '@/lib/doge';
import { createPayment } from '@/lib/payments/creation/create-payment';
import { submitPayment } from '@/lib/relay/pay';
import type { DevnetBackend } from '@/lib/chain/devnet/backend';
import { buildPaymentTx, type WalletUtxo } from '@/lib/wallet';
import { vendorPaymentView } from '@/lib/payments';
import { createRefund } from '@/lib/refunds/create-refund';
import { withRefundsOne } from '@/lib/refunds/load';
import { loadEnvelope } from '@/lib/relay/hot-reads';
import { verifyPaymentEnvelope } from '@/lib/connect';
import { salesReport, resolveRange } from '@/lib/reports';
import { testXpub } from '../helpers/keys';
import { openDevnetStore, type DevnetStore } from '../helpers/devnet-store';

const URL_BASE = 'http://127.0.0.1:1';
const XPUB = testXpub(31);
const customerKey = (i: number) => derivePath(hdFromSeed(new Uint8Array(32).fill(78), REGTEST), `m/0/${i}`);
const customer = (i: number) => hdKeyToAddress(customerKey(i), REGTEST);
let store: DevnetStore;
let db: Db;
let chain: DevnetBackend;
const ctx = () => ({ db, storeId: 1, network: REGTEST, publicUrl: URL_BASE });
const from = new Date(Date.now() - 3600_000);

type Payment = Parameters<typeof buildPaymentTx>[0] & { relay_token?: string };
type Created = { id: string; payment: Payment & { outputs: { address?: string }[] } };

async function paidSale(unit: string): Promise<string> {
  const r = await createPayment(
    { storeId: 1, db, network: REGTEST, publicUrl: URL_BASE, apiKeyId: null, userId: null, idempotencyKey: null },
    JSON.stringify({ items: [{ type: 'item', id: 'sku', name: 'Tea', count: 1, unit }] }),
  );
  expect(r.status).toBe(201);
  const p = r.body as Created;
  await sendPlain(p.payment.outputs[0].address!, unit);
  await tick();
  return p.id;
}

const merchantCoin = () => store.coin();

/** The merchant's (demo) wallet pays `amount` DOGE to `address`: an ordinary wallet payment, no /pay. */
const sendPlain = (address: string, amount: string) => store.sendPlain(address, amount);

/** The coin a tx paid to `address` (its first output there). */
function coinOf(txHex: string, address: string): WalletUtxo {
  const t = decodeTx(txHex, REGTEST);
  const o = t.outputs.find((x) => x.address === address)!;
  return { txid: t.txid, vout: o.n, amount: o.value, address };
}

/** The customer spends `coin` of customer(i): `elsewhere` DOGE to another address, `back` DOGE back to customer(i), the rest to a third. */
function customerSpends(i: number, coin: WalletUtxo, elsewhere: string, back: string) {
  const outputs = [
    { type: 'p2pkh', address: customer(i + 100), amount: elsewhere },
    { type: 'p2pkh', address: customer(i), amount: back },
  ];
  return buildPaymentTx({ fee_per_kb: '0.01', outputs } as unknown as Payment, {
    network: 'regtest',
    utxos: [coin],
    keys: [customerKey(i).privateKey!],
    changeAddress: customer(i + 200),
  });
}

const tick = () => store.tick();
const refundOf = async (saleId: string, refundId: string) =>
  (
    vendorPaymentView(
      await withRefundsOne(db.prisma, await db.prisma.payment.findUniqueOrThrow({ where: { id: saleId } })),
      URL_BASE,
      new Date(),
    ).refunds as { id: string }[]
  ).find((r) => r.id === refundId)!;
const connectPayment = async (id: string) => verifyPaymentEnvelope(JSON.parse((await loadEnvelope(db, id))!)).payment as unknown as Payment;
const reportRefunds = async () =>
  (await salesReport(db, 1, resolveRange({ from: from.toISOString(), to: new Date(Date.now() + 3600_000).toISOString(), tz: 'UTC' })))
    .totals.refunds;

beforeAll(async () => {
  store = await openDevnetStore({ xpub: XPUB, coins: 24, coinAmount: '30', name: 'counter-refund-match-' });
  ({ db, chain } = store);
}, 120_000);
afterAll(async () => store?.close());

describe('which transaction pays a refund (devnet, PGlite)', () => {
  it('(a) the merchant pays the newer 7 DOGE refund with a plain wallet payment of 7: that refund is paid, the older 5 DOGE one stays unpaid; the report counts 7', async () => {
    const sale = await paidSale('12');
    const addr = customer(1);
    const before = await reportRefunds();
    const r5 = await createRefund(ctx(), sale, { amount: '5', address: addr });
    const r7 = await createRefund(ctx(), sale, { amount: '7', address: addr });
    const tx = await sendPlain(addr, '7');
    await tick();
    expect(await refundOf(sale, r7.id)).toMatchObject({ status: 'accepted', amount_paid: '7', txids: [tx.txid] });
    expect(await refundOf(sale, r5.id)).toMatchObject({ status: 'unpaid', amount_paid: '0', txids: [] });
    await chain.mine(1);
    await tick();
    expect(await refundOf(sale, r7.id)).toMatchObject({ status: 'confirmed', amount_paid: '7', txids: [tx.txid] });
    expect(await refundOf(sale, r5.id)).toMatchObject({ status: 'unpaid', amount_paid: '0', txids: [] });
    expect(Number(await reportRefunds()) - Number(before)).toBe(7);
    // The 5 DOGE refund is paid by its own exact payment.
    const tx5 = await sendPlain(addr, '5');
    await tick();
    await chain.mine(1);
    await tick();
    expect(await refundOf(sale, r5.id)).toMatchObject({ status: 'confirmed', amount_paid: '5', txids: [tx5.txid] });
    expect(await refundOf(sale, r7.id)).toMatchObject({ amount_paid: '7', txids: [tx.txid] });
    expect(Number(await reportRefunds()) - Number(before)).toBe(12);
  });

  it('(b) the customer spends a coin of the refund address and 5 DOGE of change comes back: the refund stays unpaid (worker and /relay/pay), the report counts nothing', async () => {
    const addr = customer(2);
    // The customer's own money at that address, from before the refund.
    const c1 = coinOf((await sendPlain(addr, '10')).hex, addr);
    const c2 = coinOf((await sendPlain(addr, '10')).hex, addr);
    await tick();
    await chain.mine(1);
    await tick();
    const sale = await paidSale('6');
    const before = await reportRefunds();
    const r = await createRefund(ctx(), sale, { amount: '5', address: addr });
    // Through /relay/pay: refused, the refund stays unpaid and payable.
    const own = customerSpends(2, c2, '4', '5');
    const answer = await submitPayment(
      { db, network: REGTEST, chain, publicUrl: URL_BASE },
      { id: r.id, tx: own.hex, relay_token: (await connectPayment(r.id)).relay_token },
    );
    expect(answer).toMatchObject({
      status: 400,
      body: { error: 'invalid_tx', message: expect.stringContaining(`spends coins of ${addr}`) },
    });
    // Plainly, on the network: the worker sees it in the mempool and in a block, and credits nothing.
    const change = customerSpends(2, c1, '4', '5');
    expect(decodeTx(change.hex, REGTEST).outputs.some((o) => o.address === addr && o.value === 5_00000000n)).toBe(true);
    expect((await chain.broadcast(change.hex)).ok).toBe(true);
    await tick();
    expect(await refundOf(sale, r.id)).toMatchObject({ status: 'unpaid', amount_paid: '0', txids: [] });
    await chain.mine(1);
    await tick();
    expect(await refundOf(sale, r.id)).toMatchObject({ status: 'unpaid', amount_paid: '0', txids: [] });
    expect(await reportRefunds()).toBe(before);
    // The merchant's own payment of the refund, through /relay/pay, is what pays it.
    const { u, w } = merchantCoin();
    const cpr = await connectPayment(r.id);
    const pay = buildPaymentTx(cpr, { network: 'regtest', utxos: [u], keys: [w.wif] });
    expect(
      await submitPayment({ db, network: REGTEST, chain, publicUrl: URL_BASE }, { id: r.id, tx: pay.hex, relay_token: cpr.relay_token }),
    ).toMatchObject({ status: 200, body: { status: 'accepted' } });
    await tick();
    await chain.mine(1);
    await tick();
    expect(await refundOf(sale, r.id)).toMatchObject({ status: 'confirmed', amount_paid: '5', txids: [pay.txid] });
    expect(Number(await reportRefunds()) - Number(before)).toBe(5);
  });

  it('(c) /relay/pay for a refund while an older unpaid refund of the same amount to the same address waits: the submitted one is paid', async () => {
    const sale = await paidSale('8');
    const addr = customer(3);
    const older = await createRefund(ctx(), sale, { amount: '3', address: addr });
    const newer = await createRefund(ctx(), sale, { amount: '3', address: addr });
    const { u, w } = merchantCoin();
    const cp = await connectPayment(newer.id);
    const tx = buildPaymentTx(cp, { network: 'regtest', utxos: [u], keys: [w.wif] });
    expect(
      await submitPayment({ db, network: REGTEST, chain, publicUrl: URL_BASE }, { id: newer.id, tx: tx.hex, relay_token: cp.relay_token }),
    ).toMatchObject({ status: 200, body: { status: 'accepted' } });
    await tick(); // the worker sees the submitted tx in the mempool
    await chain.mine(1);
    await tick();
    expect(await refundOf(sale, newer.id)).toMatchObject({ status: 'confirmed', amount_paid: '3', txids: [tx.txid] });
    expect(await refundOf(sale, older.id)).toMatchObject({ status: 'unpaid', amount_paid: '0', txids: [] });
  });

  it('(c) the same when the worker sees the submitted tx before /relay/pay records it (a block mines it first)', async () => {
    const sale = await paidSale('8');
    const addr = customer(4);
    const older = await createRefund(ctx(), sale, { amount: '3', address: addr });
    const newer = await createRefund(ctx(), sale, { amount: '3', address: addr });
    const { u, w } = merchantCoin();
    const tx = buildPaymentTx(await connectPayment(newer.id), { network: 'regtest', utxos: [u], keys: [w.wif] });
    // The submission is recorded (payment_submission) but its broadcast reaches the node first.
    expect((await chain.broadcast(tx.hex)).ok).toBe(true);
    await db.query(
      `INSERT INTO payment_submission (payment_id, txid, tx_hex, refund, outcome, error) VALUES ($1, $2, $3, '', 'ignored', 'backend unavailable')`,
      [newer.id, tx.txid, tx.hex],
    );
    await chain.mine(1);
    await tick();
    expect(await refundOf(sale, newer.id)).toMatchObject({ status: 'confirmed', amount_paid: '3', txids: [tx.txid] });
    expect(await refundOf(sale, older.id)).toMatchObject({ status: 'unpaid', amount_paid: '0' });
  });

  it('a tx the customer broadcast before the refund was created pays nothing when a block mines it after', async () => {
    const addr = customer(5);
    const other = customer(6);
    const coin = coinOf((await sendPlain(other, '10')).hex, other);
    await tick();
    await chain.mine(1);
    await tick();
    const sale = await paidSale('4');
    // From another of the customer's addresses, exactly the amount the customer will ask back.
    const pre = buildPaymentTx({ fee_per_kb: '0.01', outputs: [{ type: 'p2pkh', address: addr, amount: '4' }] } as unknown as Payment, {
      network: 'regtest',
      utxos: [coin],
      keys: [customerKey(6).privateKey!],
      changeAddress: customer(206),
    });
    expect((await chain.broadcast(pre.hex)).ok).toBe(true);
    await tick(); // the worker sees it in the mempool: it pays nothing yet
    await new Promise((r) => setTimeout(r, 5));
    const r = await createRefund(ctx(), sale, { amount: '4', address: addr });
    await chain.mine(1);
    await tick();
    expect(await refundOf(sale, r.id)).toMatchObject({ status: 'unpaid', amount_paid: '0', txids: [] });
  });

  it('/relay/pay for a refund refuses a tx that sends more than the exact amount to the address (two outputs there)', async () => {
    const sale = await paidSale('5');
    const addr = customer(7);
    const r = await createRefund(ctx(), sale, { amount: '2', address: addr });
    const cp = await connectPayment(r.id);
    const { u, w } = merchantCoin();
    const extra = buildPaymentTx({ ...cp, outputs: [...cp.outputs, { type: 'p2pkh', address: addr, amount: '1' }] } as Payment, {
      network: 'regtest',
      utxos: [u],
      keys: [w.wif],
    });
    expect(
      await submitPayment({ db, network: REGTEST, chain, publicUrl: URL_BASE }, { id: r.id, tx: extra.hex, relay_token: cp.relay_token }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_outputs', message: expect.stringContaining("not the refund's exact") } });
    expect(await refundOf(sale, r.id)).toMatchObject({ status: 'unpaid', amount_paid: '0' });
  });
});
