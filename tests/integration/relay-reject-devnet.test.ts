// docs/relay.md on the devnet backend, in process on PGlite: nothing a third party who
// saw the QR code can submit ends a payment. A tx with a missing or spent input, a tx already
// accepted for another payment, or a tx the network refuses (here: a bad signature) gets 400
// invalid_tx; the payment stays unpaid with no txid, the submission is kept as 'rejected' with
// the reason, no event is written, and the real tx then pays. Concurrent losers behind a refused
// winner get their own tx judged; the crash reconciler releases a claim the network now refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { REGTEST, encodeWif, wifToAddress, addressToScript, toHex } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { submitPayment, broadcastClaimed, type PayContext } from '@/lib/relay/pay';
import { claimPayment, loadPayRow, REJECTED_KEPT } from '@/lib/payments';
import { createDevnetBackend, type DevnetBackend } from '@/lib/chain/devnet/backend';
import { workerTick } from '@/lib/worker';
import { buildPaymentTx } from '@/lib/wallet';
import { createTestPayment } from '../helpers/payments';

const URL_BASE = 'http://127.0.0.1:1';
const XPUB = testXpub(12);
let db: Db;
let chain: DevnetBackend;
let dir: string;
let ctx: PayContext;
const used = new Set<string>();

type Created = { id: string; payment: Parameters<typeof buildPaymentTx>[0] };

const newPayment = () => createTestPayment<Created>(db, { publicUrl: URL_BASE });

/** One unused demo-wallet coin. */
function coin() {
  const w = chain.demoWallet();
  const u = w.utxos.find((x) => !used.has(`${x.txid}:${x.vout}`) && x.amount >= 10_00000000n)!;
  used.add(`${u.txid}:${u.vout}`);
  return { u, wif: w.wif };
}

/** A signed tx paying `p` from one unused demo-wallet coin. */
function payTx(p: Created, from = coin()) {
  return buildPaymentTx(p.payment, {
    network: 'regtest',
    utxos: [{ txid: from.u.txid, vout: from.u.vout, amount: from.u.amount, script: from.u.script }],
    keys: [from.wif],
  });
}

/** Pays `p` from an outpoint that does not exist (right outputs, validly signed for a made-up coin). */
function fakeInputTx(p: Created) {
  const { wif, u } = coin();
  return buildPaymentTx(p.payment, {
    network: 'regtest',
    utxos: [{ txid: randomBytes(32).toString('hex'), vout: 0, amount: 100_00000000n, script: u.script }],
    keys: [wif],
  });
}

/**
 * Pays `p` from a real, unspent demo-wallet coin, signed with a stranger's key: it passes every
 * check the relay makes itself (outputs, fee from the real input value) and the network refuses it.
 */
function badSignatureTx(p: Created) {
  const { u } = coin();
  const wif = encodeWif(randomBytes(32), true, REGTEST);
  const script = toHex(addressToScript(wifToAddress(wif, REGTEST), REGTEST));
  return buildPaymentTx(p.payment, { network: 'regtest', utxos: [{ txid: u.txid, vout: u.vout, amount: u.amount, script }], keys: [wif] });
}

const body = (p: Created, hex: string) => ({ id: p.id, tx: hex });
const events = async (id: string) =>
  (await db.query<{ type: string }>(`SELECT type FROM vendor_event WHERE payment_id = $1 ORDER BY seq`, [id])).map((e) => e.type);
const submissions = (id: string) =>
  db.query<{ outcome: string; txid: string; error: string }>(
    `SELECT outcome, txid, error FROM payment_submission WHERE payment_id = $1 ORDER BY id`,
    [id],
  );

/** Unpaid, nothing claimed, no tx: payable by anyone. */
async function expectPayable(id: string) {
  expect(await loadPayRow(db, id)).toMatchObject({
    status: 'unpaid',
    broadcastState: 'none',
    txid: null,
    txHex: null,
    refundAddress: '',
    buyerAddress: '',
    reason: '',
  });
  expect(await submitPayment(ctx, { id, tx: '00', relay_token: 'x' })).toMatchObject({ status: 400, body: { error: 'invalid_tx' } }); // not 403; the token is ignored
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'counter-pay-reject-'));
  db = await openTestDb();
  await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: XPUB }, create: { id: 1, storeXpub: XPUB } });
  await activeRelayKey(db, 1);
  chain = createDevnetBackend({ network: REGTEST, dir, blockSeconds: 0 });
  await chain.start();
  ctx = { db, network: REGTEST, chain, publicUrl: URL_BASE };
}, 60_000);
afterAll(async () => {
  await chain?.stop();
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('network rejections never end a payment (devnet)', () => {
  it('an input that does not exist: 400 invalid_tx, still unpaid, the submission kept; then the real tx pays', async () => {
    const p = await newPayment();
    const fake = fakeInputTx(p);
    const r = await submitPayment(ctx, body(p, fake.hex));
    expect(r).toMatchObject({ status: 400, body: { error: 'invalid_tx' } });
    expect(r.body!.message).toMatch(/input 0 \([0-9a-f]{64}:0\) does not exist/);
    await expectPayable(p.id);
    expect(await submissions(p.id)).toEqual([{ outcome: 'rejected', txid: fake.txid, error: (r.body as { message: string }).message }]);
    expect(await events(p.id)).toEqual([]);
    // Repeating it changes nothing either.
    expect((await submitPayment(ctx, body(p, fake.hex))).status).toBe(400);
    await expectPayable(p.id);

    const real = payTx(p);
    expect(await submitPayment(ctx, body(p, real.hex))).toMatchObject({ status: 200, body: { status: 'accepted', txid: real.txid } });
    expect(await events(p.id)).toEqual(['payment.accepted']);
    expect((await submissions(p.id)).map((s) => s.outcome)).toEqual(['rejected', 'rejected', 'accepted']);
  });

  it('an input already spent (in the mempool, then in a block): 400, still payable', async () => {
    const p = await newPayment();
    const c = coin();
    // The coin is spent elsewhere first (the customer's own wallet, or anyone holding the key).
    const elsewhere = payTx(await newPayment(), c);
    expect(await chain.broadcast(elsewhere.hex)).toEqual({ ok: true, txid: elsewhere.txid });
    const spent = payTx(p, c);
    const r = await submitPayment(ctx, body(p, spent.hex));
    expect(r).toMatchObject({ status: 400, body: { error: 'invalid_tx', message: expect.stringMatching(/is already spent/) } });
    await expectPayable(p.id);
    await chain.mine(1);
    expect(await submitPayment(ctx, body(p, spent.hex))).toMatchObject({ status: 400, body: { error: 'invalid_tx' } });
    await expectPayable(p.id);
    expect(await events(p.id)).toEqual([]);
    const real = payTx(p);
    expect(await submitPayment(ctx, body(p, real.hex))).toMatchObject({ status: 200, body: { status: 'accepted', txid: real.txid } });
  });

  it('a tx accepted for payment A, resubmitted for payment B with the same outputs: 400, B stays payable, A unchanged', async () => {
    const a = await newPayment();
    const b = await newPayment();
    // B asks for exactly A's outputs (a vendor key with payments:outputs can route two payments
    // to one address): set here in the table the relay reads them from.
    const [out] = await db.query<{ address: string }>(`SELECT address FROM payment_output WHERE payment_id = $1`, [a.id]);
    await db.query(`UPDATE payment_output SET address = $2 WHERE payment_id = $1`, [b.id, out.address]);
    const tx = payTx(a);
    const ra = await submitPayment(ctx, body(a, tx.hex));
    expect(ra).toMatchObject({ status: 200, body: { status: 'accepted', txid: tx.txid } });
    const rb = await submitPayment(ctx, body(b, tx.hex));
    expect(rb).toMatchObject({ status: 400, body: { error: 'invalid_tx' } });
    await expectPayable(b.id);
    expect(await events(b.id)).toEqual([]);
    expect(await submitPayment(ctx, body(a, 'zz'))).toEqual(ra);
    // B is paid by its own tx (to the shared address, as B's outputs now say).
    const own = payTx({ ...b, payment: { ...b.payment, outputs: a.payment.outputs } });
    expect(await submitPayment(ctx, body(b, own.hex))).toMatchObject({ status: 200, body: { status: 'accepted', txid: own.txid } });
  });

  it('a broadcast the network refuses: 400 with the node reason, the claim released, no event; then the real tx pays', async () => {
    const p = await newPayment();
    const bad = badSignatureTx(p);
    const r = await submitPayment(ctx, { ...body(p, bad.hex), refund: wifToAddress(encodeWif(randomBytes(32), true, REGTEST), REGTEST) });
    expect(r).toMatchObject({
      status: 400,
      body: { error: 'invalid_tx', message: expect.stringMatching(/^mandatory-script-verify-flag-failed/) },
    });
    await expectPayable(p.id); // txid, tx hex, refund and buyer addresses all cleared
    expect(await chain.inMempool(bad.txid)).toBe(false);
    expect(await submissions(p.id)).toEqual([{ outcome: 'rejected', txid: bad.txid, error: (r.body as { message: string }).message }]);
    expect(await events(p.id)).toEqual([]);
    const real = payTx(p);
    expect(await submitPayment(ctx, body(p, real.hex))).toMatchObject({ status: 200, body: { status: 'accepted', txid: real.txid } });
    expect(await submissions(p.id)).toMatchObject([
      { outcome: 'rejected', txid: bad.txid },
      { outcome: 'accepted', txid: real.txid },
    ]);
    expect(await events(p.id)).toEqual(['payment.accepted']);
  });

  it('losers waiting on a refused winner get their own tx judged: the valid one is accepted, once', async () => {
    const p = await newPayment();
    const bads = [badSignatureTx(p), badSignatureTx(p), badSignatureTx(p)];
    const good = payTx(p);
    // The refused txs are submitted first in the same turn, so one of them wins the first claim.
    const answers = await Promise.all([...bads, good].map((t) => submitPayment(ctx, body(p, t.hex))));
    expect(answers[3]).toMatchObject({ status: 200, body: { status: 'accepted', txid: good.txid } });
    for (const a of answers.slice(0, 3)) {
      // Each refused tx hears its own refusal, or (when it lost to the good one) the payment's status.
      if (a.status === 200) expect(a.body).toMatchObject({ status: 'accepted', txid: good.txid });
      else
        expect(a).toMatchObject({
          status: 400,
          body: { error: 'invalid_tx', message: expect.stringMatching(/mandatory-script-verify-flag-failed/) },
        });
    }
    expect(answers.filter((a) => a.status === 400).length).toBeGreaterThanOrEqual(1);
    expect(await loadPayRow(db, p.id)).toMatchObject({ status: 'accepted', txid: good.txid, broadcastState: 'sent' });
    expect((await submissions(p.id)).filter((s) => s.outcome === 'accepted')).toEqual([expect.objectContaining({ txid: good.txid })]);
    for (const t of bads) expect(await chain.inMempool(t.txid)).toBe(false);
    expect(await events(p.id)).toEqual(['payment.accepted']);
  });

  it('crash recovery: a claimed tx whose input was spent meanwhile is released by the reconciler, not declined', async () => {
    const p = await newPayment();
    const c = coin();
    const tx = payTx(p, c);
    expect(await claimPayment(db, p.id, { txid: tx.txid, txHex: tx.hex, refund: '', buyer: '', now: new Date() })).toBe('claimed');
    // The process died before broadcasting; meanwhile the coin was spent by another tx, now mined.
    const other = payTx(await newPayment(), c);
    expect((await chain.broadcast(other.hex)).ok).toBe(true);
    await chain.mine(1);
    // The reconciler takes claims older than 10 s.
    await db.query(`UPDATE payment SET updated_at = now() - interval '1 minute' WHERE id = $1`, [p.id]);
    await workerTick({ db, network: REGTEST, chain, publicUrl: URL_BASE });
    await expectPayable(p.id);
    expect(await submissions(p.id)).toEqual([{ outcome: 'rejected', txid: tx.txid, error: expect.stringMatching(/already spent/) }]);
    expect(await events(p.id)).toEqual([]);
    expect(await chain.inMempool(tx.txid)).toBe(false);
    // A second pass finds nothing to do; the customer then pays.
    await workerTick({ db, network: REGTEST, chain, publicUrl: URL_BASE });
    await expectPayable(p.id);
    const real = payTx(p);
    expect(await submitPayment(ctx, body(p, real.hex))).toMatchObject({ status: 200, body: { status: 'accepted', txid: real.txid } });
  });

  it('crash recovery when our own tx already reached the mempool: accepted, as before', async () => {
    const p = await newPayment();
    const tx = payTx(p);
    expect(await claimPayment(db, p.id, { txid: tx.txid, txHex: tx.hex, refund: '', buyer: '', now: new Date() })).toBe('claimed');
    expect((await chain.broadcast(tx.hex)).ok).toBe(true); // broadcast, then the crash
    const r = await broadcastClaimed(ctx, p.id);
    expect(r).toMatchObject({ kind: 'decided', row: { status: 'accepted', txid: tx.txid } });
    expect(await events(p.id)).toEqual(['payment.accepted']);
  });

  it('keeps at most REJECTED_KEPT refused submissions per payment', async () => {
    const p = await newPayment();
    const fake = fakeInputTx(p);
    await db.query(
      `INSERT INTO payment_submission (payment_id, txid, tx_hex, outcome, error) SELECT $1, NULL, '00', 'rejected', 'x' FROM generate_series(1, $2::int)`,
      [p.id, REJECTED_KEPT],
    );
    expect((await submitPayment(ctx, body(p, fake.hex))).status).toBe(400);
    expect(await submissions(p.id)).toHaveLength(REJECTED_KEPT);
    await expectPayable(p.id);
  });
});
