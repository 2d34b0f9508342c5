// Stock through every payment path (docs/catalog.md#stock), in process on a real PGlite with the
// devnet chain backend: /pay (one, a batch of one turn, retried, then seen by the chain too), a
// plain-wallet tx, expiry, paid late, short again and paid again, a double spend after
// acceptance, a vendor cancel, and a refund's own row (which is no sale). The routes and the
// back office are covered on the built app by tests/integration/stock-api.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { type Db } from '@/lib/db';
import { REGTEST } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { submitPayment } from '@/lib/relay/pay';
import type { DevnetBackend } from '@/lib/chain/devnet/backend';
import { buildPaymentTx } from '@/lib/wallet';
import { onBlockConnected, onMempoolTxs, expirePayments, dropTxs, cancelPayment, markPayment } from '@/lib/payments';
import { createRefund } from '@/lib/refunds/create-refund';
import { parseKoinu } from '@/lib/money';
import { createTestPayment } from '../helpers/payments';
import { stockOf } from '@/lib/stock';
import { importCatalogCsv } from '@/lib/backoffice/catalog-csv';
import { openDevnetStore, type DevnetStore } from '../helpers/devnet-store';

const URL_BASE = 'http://127.0.0.1:1';
const XPUB = testXpub(61);
let store: DevnetStore;
let db: Db;
let chain: DevnetBackend;

type Created = { id: string; total: string; payment: Parameters<typeof buildPaymentTx>[0] & { outputs: { address?: string }[] } };

/** A sale of `lines` ([sku, count]), each 1 DOGE a unit, plus a fee line named like a product (never stock). */
const sale = (lines: [string, number][], extra: Record<string, unknown> = {}, now?: Date) =>
  createTestPayment<Created>(db, {
    publicUrl: URL_BASE,
    ...(now ? { now } : {}),
    extra: {
      items: [
        ...lines.map(([id, count]) => ({ type: 'item', id, name: id, count, unit: '1' })),
        { type: 'fee', id: lines[0][0], name: 'Service', count: 1, unit: '0.5' },
      ],
      ...extra,
    },
  });
const addressOf = (p: Created) => p.payment.outputs[0].address!;

/** A plain wallet tx (no /pay) sending `amount` DOGE to `address`, broadcast to the devnet mempool. */
const sendPlain = (address: string, amount: string) => store.sendPlain(address, amount);
/** The /pay submission body paying `p` in full from one unused coin. */
function payBody(p: Created) {
  const { w, u } = store.coin();
  const tx = buildPaymentTx(p.payment, { network: 'regtest', utxos: [u], keys: [w.wif] });
  return { id: p.id, tx: tx.hex, txid: tx.txid };
}
const pay = (b: { id: string; tx: string }) => submitPayment({ db, network: REGTEST, chain, publicUrl: URL_BASE }, { id: b.id, tx: b.tx });

const tick = () => store.tick();
const sync = (now?: Date) => ({ db, network: REGTEST, publicUrl: URL_BASE, ...(now ? { now: () => now } : {}) });
const status = async (id: string) => (await db.prisma.payment.findUniqueOrThrow({ where: { id } })).status;

let n = 0;
/** A tracked product (a fresh SKU per test) and its id. */
async function product(stock: number | null): Promise<{ id: string; sku: string }> {
  const sku = `P${++n}-${randomUUID().slice(0, 6)}`;
  const id = randomUUID();
  await db.prisma.product.create({ data: { id, sku, name: sku, price: 100_000_000n, stock } });
  return { id, sku };
}
const level = async (p: { id: string }) => (await stockOf(db, 1, p.id)).stock;
const moves = async (p: { id: string }) => (await stockOf(db, 1, p.id)).movements.map((m) => [m.reason, m.delta, m.payment_id]);

beforeAll(async () => {
  store = await openDevnetStore({ xpub: XPUB, coins: 30, name: 'counter-stock-' });
  ({ db, chain } = store);
}, 120_000);
afterAll(async () => store?.close());

describe('stock through the payment paths (PGlite, devnet)', () => {
  it('/pay: an unpaid sale takes nothing; acceptance takes the item lines once (retried, then seen in the mempool and mined)', async () => {
    const a = await product(10);
    const b = await product(4);
    const untracked = await product(null);
    const p = await sale([
      [a.sku, 2],
      [b.sku, 1],
      [untracked.sku, 3],
      [a.sku, 1],
    ]);
    expect([await level(a), await level(b)]).toEqual([10, 4]);
    const body = payBody(p);
    const r = await pay(body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(['accepted', 'confirmed']).toContain(await status(p.id));
    // Two lines of one product sum; the fee line named like it is no goods; untracked stays null.
    expect([await level(a), await level(b), await level(untracked)]).toEqual([7, 3, null]);
    expect(await moves(a)).toEqual([['sale', -3, p.id]]);
    // The wallet retries, the worker sees the tx in the mempool, then in a block.
    expect((await pay(body)).status).toBe(200);
    await tick();
    await chain.mine(1);
    await tick();
    expect(await status(p.id)).toBe('confirmed');
    expect([await level(a), await level(b)]).toEqual([7, 3]);
    expect(await moves(a)).toEqual([['sale', -3, p.id]]);
  });

  it('/pay: acceptances of one event-loop turn share one statement, and each takes its own count', async () => {
    const a = await product(100);
    const sales = await Promise.all(Array.from({ length: 6 }, (_, i) => sale([[a.sku, i + 1]])));
    const bodies = sales.map(payBody);
    const answers = await Promise.all(bodies.map(pay));
    expect(answers.map((x) => x.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await level(a)).toBe(100 - 21);
    expect((await moves(a)).length).toBe(6);
  });

  it('a plain-wallet tx takes stock when it pays in full, not while short', async () => {
    const a = await product(5);
    const p = await sale([[a.sku, 2]]);
    await sendPlain(addressOf(p), '1');
    await tick();
    expect(await status(p.id)).toBe('unpaid');
    expect(await level(a)).toBe(5);
    await sendPlain(addressOf(p), '1.5');
    await tick();
    expect(await status(p.id)).toBe('accepted');
    expect(await level(a)).toBe(3);
  });

  it('an unpaid sale that expires takes nothing; money after expiry (paid late) is a sale', async () => {
    const a = await product(5);
    const p = await sale([[a.sku, 1]], { timeout: 60 }, new Date(Date.now() - 120_000));
    expect(await expirePayments(sync())).toBeGreaterThanOrEqual(1);
    expect((await db.prisma.payment.findUniqueOrThrow({ where: { id: p.id } })).expiredAt).toBeInstanceOf(Date);
    expect(await level(a)).toBe(5);
    expect(await moves(a)).toEqual([]);
    await sendPlain(addressOf(p), '1.5');
    await tick();
    const row = await db.prisma.payment.findUniqueOrThrow({ where: { id: p.id } });
    expect([row.status, row.exception]).toEqual(['accepted', 'paid_late']);
    expect(await level(a)).toBe(4);
  });

  it('short again (a needed tx dropped) keeps the goods taken; paid again takes nothing twice', async () => {
    const a = await product(5);
    const p = await sale([[a.sku, 2]]);
    const t1 = await sendPlain(addressOf(p), '2.5');
    await tick();
    expect(await level(a)).toBe(3);
    await dropTxs(sync(), [t1.txid]);
    expect(await status(p.id)).toBe('unpaid');
    expect(await level(a)).toBe(3);
    await sendPlain(addressOf(p), '2.5');
    await tick();
    expect(await status(p.id)).toBe('accepted');
    expect(await level(a)).toBe(3);
    expect(await moves(a)).toEqual([['sale', -2, p.id]]);
  });

  it('a double spend after acceptance declines the sale and gives its goods back, once', async () => {
    const a = await product(8);
    const p = await sale([[a.sku, 3]]);
    const t = await sendPlain(addressOf(p), '3.5');
    await tick();
    expect(await level(a)).toBe(5);
    const tip = await chain.tip();
    const conflicting = {
      txid: 'ab'.repeat(31) + 'cd',
      inputs: [t.input],
      outputs: [{ n: 0, value: parseKoinu('9'), script: '51' }],
      signalsRbf: false,
    };
    await onBlockConnected(sync(), {
      hash: 'cd'.repeat(31) + 'ef',
      prevHash: tip.hash,
      height: tip.height + 1,
      time: 0,
      header: new Uint8Array(80),
      size: 0,
      txCount: 1,
      totalTxSize: 0,
      txs: [conflicting],
    });
    const row = await db.prisma.payment.findUniqueOrThrow({ where: { id: p.id } });
    expect([row.status, row.exception]).toEqual(['declined', 'double_spent']);
    expect(await level(a)).toBe(8);
    expect(await moves(a)).toEqual([
      ['declined', 3, p.id],
      ['sale', -3, p.id],
    ]);
    // Money seen again for the declined payment changes nothing.
    await onMempoolTxs(sync(), []);
    expect(await level(a)).toBe(8);
  });

  it('marking invalid gives back; marking an unpaid sale invalid, or cancelling it, gives nothing it never took', async () => {
    const a = await product(6);
    const paid = await sale([[a.sku, 2]]);
    await sendPlain(addressOf(paid), '2.5');
    await tick();
    expect(await level(a)).toBe(4);
    expect((await markPayment(db, { storeId: 1 }, paid.id, { as: 'invalid', note: '' }, 'merchant', URL_BASE)).ok).toBe(true);
    expect(await level(a)).toBe(6);
    const unpaid = await sale([[a.sku, 1]]);
    expect((await markPayment(db, { storeId: 1 }, unpaid.id, { as: 'invalid', note: '' }, 'merchant', URL_BASE)).ok).toBe(true);
    const cancelled = await sale([[a.sku, 1]]);
    expect(await cancelPayment(db, { storeId: 1, ownSalesOf: null }, cancelled.id, URL_BASE)).toBe('cancelled');
    expect(await level(a)).toBe(6);
    expect((await moves(a)).map((m) => m[0])).toEqual(['declined', 'sale']);
    // Settling an unpaid sale is a sale.
    const settled = await sale([[a.sku, 5]]);
    expect((await markPayment(db, { storeId: 1 }, settled.id, { as: 'settled', note: 'cash' }, 'merchant', URL_BASE)).ok).toBe(true);
    expect(await level(a)).toBe(1);
  });

  it('a refund is no sale (even with a product whose SKU is "refund"); return_to_stock gives back once, after which a decline gives nothing more', async () => {
    const refundSku = await db.prisma.product.create({ data: { id: randomUUID(), sku: 'refund', name: 'Refund', price: 1n, stock: 50 } });
    const a = await product(9);
    const p = await sale([[a.sku, 4]]);
    await sendPlain(addressOf(p), '4.5');
    await tick();
    expect(await level(a)).toBe(5);
    const ctx = { db, storeId: 1, network: REGTEST, publicUrl: URL_BASE };
    const to = chain.demoWallet().address;
    const r1 = await createRefund(ctx, p.id, { amount: '1', address: to, return_to_stock: true });
    expect(await level(a)).toBe(9);
    await createRefund(ctx, p.id, { amount: '1', address: to, return_to_stock: true });
    expect(await level(a)).toBe(9);
    expect((await stockOf(db, 1, a.id)).movements[0]).toMatchObject({
      reason: 'returned',
      delta: 4,
      payment_id: p.id,
      note: `refund ${r1.id}`,
    });
    // The refund row accepted by the merchant's wallet takes nothing off the "refund" product.
    await sendPlain(to, '1');
    await tick();
    expect((await db.prisma.product.findUniqueOrThrow({ where: { id: refundSku.id } })).stock).toBe(50);
    // The sale declined after its goods came back: nothing more goes back.
    expect((await markPayment(db, { storeId: 1 }, p.id, { as: 'invalid', note: '' }, 'merchant', URL_BASE)).ok).toBe(true);
    expect(await level(a)).toBe(9);
    // A refund without the flag leaves stock alone.
    const q = await sale([[a.sku, 2]]);
    await sendPlain(addressOf(q), '2.5');
    await tick();
    await createRefund(ctx, q.id, { amount: '1', address: to });
    expect(await level(a)).toBe(7);
  });

  it('a CSV import records each stock level it changes as a count movement, and none for what it leaves', async () => {
    const a = await product(10);
    const b = await product(3);
    const csv = `sku,name,price,stock\n${a.sku},${a.sku},1,25\n${b.sku},${b.sku},1,3\nIMP-NEW,New,1,7\nIMP-UNT,Untracked,1,\n`;
    const r = await importCatalogCsv(db, 1, csv, { dryRun: false, userId: null });
    expect(r.applied).toBe(true);
    expect(await stockOf(db, 1, a.id)).toMatchObject({ stock: 25, movements: [{ delta: 15, reason: 'count', note: 'import' }] });
    expect((await stockOf(db, 1, b.id)).movements).toEqual([]);
    const created = await db.prisma.product.findUniqueOrThrow({ where: { storeId_sku: { storeId: 1, sku: 'IMP-NEW' } } });
    expect(await stockOf(db, 1, created.id)).toMatchObject({ stock: 7, movements: [{ delta: 7, reason: 'count', note: 'import' }] });
    const untracked = await db.prisma.product.findUniqueOrThrow({ where: { storeId_sku: { storeId: 1, sku: 'IMP-UNT' } } });
    expect(await stockOf(db, 1, untracked.id)).toEqual({ stock: null, low_stock: 0, movements: [] });
  });

  it('a CSV import leaves alone the stock its file does not change, so a sale landing between its plan and its apply is kept', async () => {
    const a = await product(10); // renamed by a file without a stock column
    const b = await product(10); // its stock column says the level the second plan reads (8, after the first race)
    const c = await product(10); // its stock column sets a new count: the count wins
    // A sale of 2 of each lands after the plan read the catalog, just before the import's transaction.
    const racing = new Proxy(db.prisma, {
      get(target, key) {
        if (key !== '$transaction') return Reflect.get(target, key);
        return async (...args: Parameters<typeof target.$transaction>) => {
          await target.$executeRawUnsafe('UPDATE product SET stock = stock - 2 WHERE id IN ($1, $2, $3)', a.id, b.id, c.id);
          return (target.$transaction as (...x: unknown[]) => unknown)(...args);
        };
      },
    });
    const racedDb = new Proxy(db, { get: (t, k) => (k === 'prisma' ? racing : Reflect.get(t, k)) }) as Db;
    expect((await importCatalogCsv(racedDb, 1, `sku,name,price\n${a.sku},Renamed,1\n`, { dryRun: false, userId: null })).applied).toBe(
      true,
    );
    expect(
      (
        await importCatalogCsv(racedDb, 1, `sku,name,price,stock\n${b.sku},Renamed,1,8\n${c.sku},${c.sku},1,30\n`, {
          dryRun: false,
          userId: null,
        })
      ).applied,
    ).toBe(true);
    expect(await level(a)).toBe(6); // both imports raced a sale of 2
    expect((await stockOf(db, 1, a.id)).movements).toEqual([]);
    expect(await level(b)).toBe(6); // two racing sales of 2 (one per import)
    expect((await stockOf(db, 1, b.id)).movements).toEqual([]);
    expect(await level(c)).toBe(30);
    expect((await stockOf(db, 1, c.id)).movements).toMatchObject([{ delta: 24, reason: 'count', note: 'import' }]);
  });
});
