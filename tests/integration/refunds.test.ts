// Refunds (docs/api.md#refunds) on the devnet backend and a real PGlite: a refund is a signed payment
// request to the customer's address that the merchant's wallet pays (here the devnet demo
// wallet, through /relay/pay with lib/wallet, or plainly); the worker tracks it to confirmed
// with refund.* events; the payment lists it; over-refunding (also concurrently) is refused;
// refunds are never sales (payment list, invoices, report gross, open-payment cap) but the
// sales report subtracts the confirmed ones. The HTTP boundary (scopes, 400/403/404, openapi)
// is tested in refunds-api.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedDb, type Db } from '@/lib/db';
import { REGTEST, hdFromSeed, derivePath, hdKeyToAddress, decodeTx } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { submitPayment, queryStatus } from '@/lib/relay/pay';
import type { DevnetBackend } from '@/lib/chain/devnet/backend';
import { buildPaymentTx } from '@/lib/wallet';
import { vendorPaymentView } from '@/lib/payments';
import { createRefund, RefundNotFoundError } from '@/lib/refunds/create-refund';
import { RefundConflictError } from '@/lib/refunds/request';
import { withRefundsOne } from '@/lib/refunds/load';
import { cancelRefund } from '@/lib/refunds/cancel-refund';
import { InvalidRequestError } from '@/lib/errors';
import { loadEnvelope } from '@/lib/relay/hot-reads';
import { verifyPaymentEnvelope } from '@/lib/connect';
import { listPayments } from '@/lib/payments/queries/list-payments';
import { listInvoices, parseInvoiceQuery } from '@/lib/invoices/list-invoices';
import { countOpenPayments } from '@/lib/payments/queries/open-payments';
import { salesReport, resolveRange } from '@/lib/reports';
import { saveOutcome } from '@/lib/rates';
import { parseDecimal } from '@/lib/money';
import { exportInvoicesCsv } from '@/lib/backoffice/invoices';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';
import { loadWatchSet } from '@/lib/chain/spv/watch';
import { decodeAddress, toHex } from '@/lib/doge';
import { createTestPayment } from '../helpers/payments';
import { openDevnetStore, type DevnetStore } from '../helpers/devnet-store';

const URL_BASE = 'http://127.0.0.1:1';
const XPUB = testXpub(31);
const customer = (i: number) => hdKeyToAddress(derivePath(hdFromSeed(new Uint8Array(32).fill(77), REGTEST), `m/0/${i}`), REGTEST);
let store: DevnetStore;
let db: Db;
let chain: DevnetBackend;
const ctx = () => ({ db, storeId: 1, network: REGTEST, publicUrl: URL_BASE });

type Created = { id: string; total: string; payment: Parameters<typeof buildPaymentTx>[0] & { outputs: { address?: string }[] } };

const newPayment = (unit = '2') => createTestPayment<Created>(db, { unit, publicUrl: URL_BASE });

/** The demo wallet pays a Connect Payment through /relay/pay (lib/wallet builds the tx). */
async function payThroughRelay(id: string, payment: Created['payment'], refund = '') {
  const { u, w } = store.coin();
  const tx = buildPaymentTx(payment, { network: 'regtest', utxos: [u], keys: [w.wif] });
  const r = await submitPayment({ db, network: REGTEST, chain, publicUrl: URL_BASE }, { id, tx: tx.hex, ...(refund ? { refund } : {}) });
  expect(r.status).toBe(200);
  return tx;
}

/** A plain wallet tx (no /pay) of `amount` DOGE to `address`. */
const sendPlain = (address: string, amount: string) => store.sendPlain(address, amount);
const tick = () => store.tick();
const view = async (id: string) =>
  vendorPaymentView(await withRefundsOne(db.prisma, await db.prisma.payment.findUniqueOrThrow({ where: { id } })), URL_BASE, new Date());
const events = async (id: string) =>
  await db.query<{ type: string; body: string }>(`SELECT type, body FROM vendor_event WHERE payment_id = $1 ORDER BY seq`, [id]);
const refundConnectPayment = async (id: string) =>
  verifyPaymentEnvelope(JSON.parse((await loadEnvelope(db, id))!)).payment as unknown as Created['payment'];

async function rejects(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('did not reject');
}

beforeAll(async () => {
  store = await openDevnetStore({ xpub: XPUB, coins: 24, name: 'counter-refunds-' });
  ({ db, chain } = store);
}, 120_000);
afterAll(async () => store?.close());

describe('refunds (devnet, PGlite)', () => {
  it('full refund to the address from the /pay submission: signed envelope, paid through the relay by lib/wallet, accepted → confirmed with refund.* events', async () => {
    const p = await newPayment('2');
    await payThroughRelay(p.id, p.payment, customer(0));
    await chain.mine(1);
    await tick();
    const r = await createRefund(ctx(), p.id, { reason: 'wrong size' });
    expect(r).toMatchObject({
      payment_id: p.id,
      status: 'unpaid',
      amount: '2',
      address: customer(0),
      reason: 'wrong size',
      envelope_url: `${URL_BASE}/dc/${r.id}`,
    });
    expect(Object.keys(r).sort()).toEqual([
      'address',
      'amount',
      'amount_paid',
      'connect_uri',
      'created_at',
      'envelope_url',
      'fiat_amount',
      'fiat_currency',
      'id',
      'payment_id',
      'reason',
      'status',
      'tender',
      'txids',
      'uri',
    ]);
    expect(r).toMatchObject({ amount_paid: '0', txids: [], tender: 'doge' });
    expect(r.id).toMatch(/^rf_[A-Za-z0-9_-]{22}$/);
    expect(r.uri).toMatch(new RegExp(`^dogecoin:${customer(0)}\\?amount=2&dc=`));
    expect(r.connect_uri).toMatch(/^dogeconnect:/);
    // GET /dc/<rf_…>: a Connect Payment signed by the relay key: one item line, one p2pkh output to the customer.
    const cp = await refundConnectPayment(r.id);
    expect(cp.items).toEqual([expect.objectContaining({ type: 'item', name: `Refund of ${p.id}`, total: '2', desc: 'wrong size' })]);
    expect(cp.outputs).toEqual([{ type: 'p2pkh', address: customer(0), amount: '2' }]);
    expect((await events(r.id)).map((e) => e.type)).toEqual(['refund.created']);
    expect(JSON.parse((await events(r.id))[0].body).refund).toMatchObject({ id: r.id, payment_id: p.id, status: 'unpaid' });
    expect(await queryStatus(db, { id: r.id })).toMatchObject({ status: 200, body: { id: r.id, status: 'unpaid' } });
    expect(await view(p.id)).toMatchObject({ amount_refunded: '0', refunds: [{ id: r.id, status: 'unpaid', amount: '2' }] });

    const tx = await payThroughRelay(r.id, cp);
    // The customer's address receives the refund.
    expect(decodeTx(tx.hex, REGTEST).outputs.some((o) => o.value === 2_00000000n && o.address === customer(0))).toBe(true);
    expect(await view(p.id)).toMatchObject({ amount_refunded: '2', refunds: [{ id: r.id, status: 'accepted' }] });
    await tick(); // the worker sees the refund's tx in the mempool: counted once
    await chain.mine(1);
    await tick();
    expect(await view(p.id)).toMatchObject({ amount_refunded: '2', refunds: [{ id: r.id, status: 'confirmed' }], status: 'confirmed' });
    const types = (await events(r.id)).map((e) => e.type);
    expect(types).toEqual(['refund.created', 'refund.accepted', 'refund.confirmed']);
    expect(JSON.parse((await events(r.id))[2].body)).toMatchObject({
      type: 'refund.confirmed',
      refund: { id: r.id, status: 'confirmed', amount: '2' },
    });
    // Fully refunded: nothing more (409), and the payment's own events are untouched.
    expect(await rejects(createRefund(ctx(), p.id, {}))).toBeInstanceOf(RefundConflictError);
    expect((await events(p.id)).map((e) => e.type)).toEqual(['payment.accepted', 'payment.confirmed']);
  });

  it('partial refunds paid plainly to the customer address are seen by the worker; a second refund to the same address counts its own tx only; over-refund → 409', async () => {
    const p = await newPayment('3');
    await sendPlain(p.payment.outputs[0].address!, '3');
    await tick();
    const addr = customer(1);
    expect((await rejects(createRefund(ctx(), p.id, { amount: '0.5' }))) as InvalidRequestError).toMatchObject({ field: 'address' });
    const a = await createRefund(ctx(), p.id, { amount: '0.5', address: addr });
    const b = await createRefund(ctx(), p.id, { amount: '1', address: addr });
    expect(await rejects(createRefund(ctx(), p.id, { amount: '1.50000001', address: addr }))).toBeInstanceOf(RefundConflictError);
    await sendPlain(addr, '0.5');
    await tick();
    expect(await view(p.id)).toMatchObject({
      amount_refunded: '0.5',
      refunds: [
        { id: a.id, status: 'accepted' },
        { id: b.id, status: 'unpaid' },
      ],
    });
    await payThroughRelay(b.id, await refundConnectPayment(b.id));
    await tick();
    await chain.mine(1);
    await tick();
    expect(await view(p.id)).toMatchObject({
      amount_refunded: '1.5',
      refunds: [
        { id: a.id, status: 'confirmed' },
        { id: b.id, status: 'confirmed' },
      ],
    });
    const rb = await db.prisma.payment.findUniqueOrThrow({ where: { id: b.id } });
    expect(rb.amountPaid).toBe(1_00000000n); // the first refund's tx did not count for the second
    // The rest, with neither amount: exactly what is left.
    expect(await createRefund(ctx(), p.id, { address: addr })).toMatchObject({ amount: '1.5' });
  });

  it('an unpaid refund made by mistake is cancelled through the state machine (declined, no event) and frees its amount; one paid is not, and less than its amount pays nothing', async () => {
    const p = await newPayment('4');
    await sendPlain(p.payment.outputs[0].address!, '4');
    await tick();
    const addr = customer(11);
    const mistake = await createRefund(ctx(), p.id, { address: addr });
    expect(mistake.amount).toBe('4');
    expect(await rejects(createRefund(ctx(), p.id, { amount: '0.1', address: addr }))).toBeInstanceOf(RefundConflictError);
    expect(await cancelRefund(db, { storeId: 1 }, mistake.id, URL_BASE)).toEqual({ ok: true });
    expect(await db.prisma.payment.findUniqueOrThrow({ where: { id: mistake.id } })).toMatchObject({
      status: 'declined',
      exception: 'cancelled',
    });
    // The catalog (docs/api.md#webhooks) has no refund.cancelled: nothing is emitted for it.
    expect((await events(mistake.id)).map((e) => e.type)).toEqual(['refund.created']);
    expect(await cancelRefund(db, { storeId: 1 }, mistake.id, URL_BASE)).toMatchObject({ ok: false, code: 'conflict' });
    // The whole amount may be refunded again.
    const again = await createRefund(ctx(), p.id, { address: addr });
    expect(again.amount).toBe('4');
    expect(await view(p.id)).toMatchObject({
      amount_refunded: '0',
      refunds: [
        { id: mistake.id, status: 'declined' },
        { id: again.id, status: 'unpaid' },
      ],
    });
    // Paid through the relay (accepted): too late to cancel.
    await payThroughRelay(again.id, await refundConnectPayment(again.id));
    expect(await cancelRefund(db, { storeId: 1 }, again.id, URL_BASE)).toMatchObject({ ok: false, code: 'conflict' });
    expect((await db.prisma.payment.findUniqueOrThrow({ where: { id: again.id } })).status).toBe('accepted');
    // A plain wallet tx of less than the refund's amount to the customer pays no refund (only the
    // exact amount does, docs/security.md): the refund stays unpaid and may be cancelled; one
    // paid plainly with the exact amount may not.
    const q = await newPayment('3');
    await sendPlain(q.payment.outputs[0].address!, '3');
    await tick();
    const part = await createRefund(ctx(), q.id, { amount: '2', address: customer(12) });
    await sendPlain(customer(12), '1');
    await tick();
    expect(await db.prisma.payment.findUniqueOrThrow({ where: { id: part.id } })).toMatchObject({ status: 'unpaid', amountPaid: 0n });
    expect(await cancelRefund(db, { storeId: 1 }, part.id, URL_BASE)).toEqual({ ok: true });
    const plain = await createRefund(ctx(), q.id, { amount: '2', address: customer(12) });
    await sendPlain(customer(12), '2');
    await tick();
    expect(await db.prisma.payment.findUniqueOrThrow({ where: { id: plain.id } })).toMatchObject({
      status: 'accepted',
      amountPaid: 2_00000000n,
    });
    expect(await cancelRefund(db, { storeId: 1 }, plain.id, URL_BASE)).toMatchObject({ ok: false, code: 'conflict' });
    // A sale's id, or an unknown one, is no refund.
    expect(await cancelRefund(db, { storeId: 1 }, p.id, URL_BASE)).toMatchObject({ ok: false, code: 'not_found' });
    expect(await cancelRefund(db, { storeId: 1 }, 'rf_AAAAAAAAAAAAAAAAAAAAAA', URL_BASE)).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('two concurrent refunds may not together exceed amount_paid', async () => {
    const p = await newPayment('2');
    await sendPlain(p.payment.outputs[0].address!, '2');
    await tick();
    const results = await Promise.allSettled([0, 1, 2].map(() => createRefund(ctx(), p.id, { amount: '1.2', address: customer(2) })));
    expect(results.filter((x) => x.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((x) => x.status === 'rejected').map((x) => (x as PromiseRejectedResult).reason)).toEqual([
      expect.any(RefundConflictError),
      expect.any(RefundConflictError),
    ]);
  });

  it('nothing paid → 409; unknown id or a refund id → not found; bad address → 400 naming address', async () => {
    const p = await newPayment('2');
    expect(await rejects(createRefund(ctx(), p.id, { address: customer(3) }))).toBeInstanceOf(RefundConflictError);
    expect(await rejects(createRefund(ctx(), 'no-such-payment', { address: customer(3) }))).toBeInstanceOf(RefundNotFoundError);
    await sendPlain(p.payment.outputs[0].address!, '2');
    await tick();
    const r = await createRefund(ctx(), p.id, { amount: '1', address: customer(3) });
    expect(await rejects(createRefund(ctx(), r.id, { amount: '0.1', address: customer(3) }))).toBeInstanceOf(RefundNotFoundError);
    expect(
      ((await rejects(createRefund(ctx(), p.id, { amount: '0.1', address: 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L' }))) as InvalidRequestError)
        .field,
    ).toBe('address');
    // The store's own receiving address is not the customer's.
    expect(
      ((await rejects(createRefund(ctx(), p.id, { amount: '0.1', address: p.payment.outputs[0].address! }))) as InvalidRequestError).field,
    ).toBe('address');
    // A cashier scope only reaches its own sales (another's payment is not found).
    expect(
      await rejects(createRefund({ ...ctx(), ownSalesOf: 'someone-else' }, p.id, { amount: '0.1', address: customer(3) })),
    ).toBeInstanceOf(RefundNotFoundError);
  });

  it("fiat_amount at the payment's locked rate (then) or the rate in force (now); then without a locked rate → 409", async () => {
    const p = await newPayment('10');
    await sendPlain(p.payment.outputs[0].address!, '10');
    await tick();
    expect(await rejects(createRefund(ctx(), p.id, { fiat_amount: '1.00', address: customer(4) }))).toBeInstanceOf(RefundConflictError);
    // The fiat-pricing work locks these columns at creation; here the locked rate is set as it would be.
    await db.prisma.payment.update({
      where: { id: p.id },
      data: { fiatCurrency: 'USD', rateValue: '0.4', rateSource: 'fixed', rateAt: new Date() },
    });
    const then = await createRefund(ctx(), p.id, { fiat_amount: '1.00', rate: 'then', address: customer(4) });
    expect(then.amount).toBe('2.5');
    const now = new Date();
    for (const name of ['coingecko', 'kraken', 'coinbase'])
      await saveOutcome(db, 'USD', name, { ok: true, value: parseDecimal('0.5') } as never, now);
    const later = await createRefund(ctx(), p.id, { fiat_amount: '1', rate: 'now', address: customer(4) });
    expect(later.amount).toBe('2');
    const row = await db.prisma.payment.findUniqueOrThrow({ where: { id: later.id } });
    expect(row).toMatchObject({ fiatTotal: '1.00', fiatCurrency: 'USD', rateValue: '0.5', rateSource: 'coingecko,kraken,coinbase' });
    expect(((await rejects(createRefund(ctx(), p.id, { fiat_amount: '1.001', address: customer(4) }))) as InvalidRequestError).field).toBe(
      'fiat_amount',
    );
  });

  it('refunds are not sales: not in the payment list, invoices, open-payment count or report gross; the report subtracts confirmed ones', async () => {
    const from = new Date(Date.now() - 3600_000);
    const p = await newPayment('4');
    await sendPlain(p.payment.outputs[0].address!, '4');
    await tick();
    await chain.mine(1);
    await tick();
    const before = await salesReport(
      db,
      1,
      resolveRange({ from: from.toISOString(), to: new Date(Date.now() + 3600_000).toISOString(), tz: 'UTC' }),
    );
    const openBefore = await countOpenPayments(db, 1, 5000);
    const r = await createRefund(ctx(), p.id, { amount: '1.25', address: customer(5), reason: 'returned' });
    expect(await countOpenPayments(db, 1, 5000)).toBe(openBefore);
    const listed = await listPayments(db, { storeId: 1, ownSalesOf: null }, new URLSearchParams({ limit: '100' }), URL_BASE);
    expect(listed.payments.map((x) => x.id)).not.toContain(r.id);
    expect(listed.payments.find((x) => x.id === p.id)).toMatchObject({ refunds: [{ id: r.id }] });
    const inv = await listInvoices(db, REGTEST, 1, customer(5), parseInvoiceQuery(customer(5), new URLSearchParams(), REGTEST));
    expect(inv.total).toBe(0);
    await payThroughRelay(r.id, await refundConnectPayment(r.id));
    await chain.mine(1);
    await tick();
    const after = await salesReport(
      db,
      1,
      resolveRange({ from: from.toISOString(), to: new Date(Date.now() + 3600_000).toISOString(), tz: 'UTC' }),
    );
    expect(after.totals.count).toBe(before.totals.count);
    expect(after.totals.gross).toBe(before.totals.gross);
    const refundsBefore = parseDecimal(before.totals.refunds);
    expect(
      parseDecimal(after.totals.refunds).m * 10n ** BigInt(8 - parseDecimal(after.totals.refunds).s) -
        refundsBefore.m * 10n ** BigInt(8 - refundsBefore.s),
    ).toBe(1_25000000n);
    const csv = await exportInvoicesCsv(db, 1, {});
    const [head, ...rows] = csv.trim().split('\r\n');
    expect(head.endsWith(',timezone,amount_refunded,refunds,tender,terminal')).toBe(true);
    const line = rows.find((l) => l.startsWith(p.id))!;
    expect(line.endsWith(`,1.25,${r.id} confirmed 1.25,doge,`)).toBe(true);
    expect(rows.some((l) => l.startsWith('rf_'))).toBe(false);
  });
});

describe('refunds and the spv filter', () => {
  it("an open refund's customer address is in the spv watch set (it is no wallet address); a confirmed one leaves it", async () => {
    const p = await newPayment('2');
    await sendPlain(p.payment.outputs[0].address!, '2');
    await tick();
    const addr = customer(6);
    const h = toHex(decodeAddress(addr, REGTEST).hash160);
    expect((await loadWatchSet(db)).hash160s).not.toContain(h);
    const r = await createRefund(ctx(), p.id, { amount: '1', address: addr });
    expect((await loadWatchSet(db)).hash160s).toContain(h);
    expect(await db.prisma.walletAddress.findUnique({ where: { address: addr } })).toBeNull(); // not the store's money
    await payThroughRelay(r.id, await refundConnectPayment(r.id));
    await chain.mine(1);
    await tick();
    expect((await view(p.id)).refunds).toEqual([expect.objectContaining({ id: r.id, status: 'confirmed' })]);
    expect((await loadWatchSet(db)).hash160s).not.toContain(h);
  });
});

describe('refunds on PostgreSQL', () => {
  let pg: PgServer;
  let pdb: Db;
  beforeAll(async () => {
    pg = await startPostgres();
    pdb = await openMigratedDb({ databaseUrl: await createDatabase(pg, `refunds_${process.pid}`) });
    await pdb.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: XPUB }, create: { id: 1, storeXpub: XPUB } });
    await activeRelayKey(pdb, 1);
  }, 120_000);
  afterAll(async () => {
    await pdb?.close();
    await pg?.stop();
  });

  it('concurrent refunds on separate connections are serialised by the row lock: together never above amount_paid', async () => {
    const { id } = await createTestPayment(pdb, { publicUrl: URL_BASE });
    // What the worker records when a wallet pays it (amount_paid only: refunds look at nothing else).
    await pdb.prisma.payment.update({ where: { id }, data: { amountPaid: 2_00000000n } });
    const c = { db: pdb, storeId: 1, network: REGTEST, publicUrl: URL_BASE };
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => createRefund(c, id, { amount: '0.7', address: customer(9) })));
    expect(results.filter((x) => x.status === 'fulfilled')).toHaveLength(2);
    expect(
      results.filter((x) => x.status === 'rejected').every((x) => (x as PromiseRejectedResult).reason instanceof RefundConflictError),
    ).toBe(true);
    const sum = await pdb.query<{ s: string }>(`SELECT sum(total)::text AS s FROM payment WHERE refund_of = $1`, [id]);
    expect(sum[0].s).toBe('140000000');
    // Refund rows sit below 0 in seq and out of the invoice count.
    const seqs = await pdb.query<{ seq: string }>(`SELECT seq::text AS seq FROM payment WHERE refund_of = $1`, [id]);
    expect(seqs.every((x) => BigInt(x.seq) < 0n)).toBe(true);
    expect((await pdb.query<{ n: string }>(`SELECT sum(n)::text AS n FROM payment_count`))[0].n).toBe('1');
  });
});
