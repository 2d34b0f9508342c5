// Payments from any wallet (docs/api.md#payments-from-any-wallet) against Dogecoin Core 1.14.9 (`dogecoind -regtest`),
// every transition of the table driven by a real node: plain `sendtoaddress` and raw txs, seen
// from the mempool within 5 s (the figure is printed), underpaid, two txs that together pay
// (confirmations from the least-confirmed needed tx), overpaid, late money, a double spend after
// acceptance (a BIP125 replacement mined in a block), and a reorg that takes one of two txs out
// of the chain (confirmed → accepted, then declined when its replacement is mined), and a
// payment with a `data` output paid from its dogecoin: form without the OP_RETURN (unpaid,
// data_missing, payment.data_missing; docs/relay.md), which the merchant settles. Once with
// the `rpc` backend and once with the `spv` backend (Dogecoin Core with whitelist=127.0.0.1, as
// docs/node.md advises). In-process worker on PGlite, the production worker interval (1 s).
// Skipped, saying why, when dogecoind is absent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { REGTEST } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { koinuFromRpc, koinuToRpc } from '@/lib/chain/rpc/client';
import { vendorPaymentView, markPayment } from '@/lib/payments';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { pubkeyToAddress } from '@/lib/doge/address';
import { encodeWif } from '@/lib/doge/wif';
import { haveDogecoind, startDogecoind, warnIfNoDogecoind, type Dogecoind } from '../helpers/dogecoind';
import { nodeArgsFor, startNodeWorker, type NodeBackend, type NodeWorker } from '../helpers/node-worker';
import { createTestPayment } from '../helpers/payments';
import type { NodeVoutJson } from '../helpers/json-shapes';
import type { NodeBlockJson, NodeTxJson } from '../helpers/json-shapes';

warnIfNoDogecoind('tests/integration/any-wallet-dogecoind.test.ts');

const URL_BASE = 'http://127.0.0.1:1';

type View = ReturnType<typeof vendorPaymentView>;

/** One node, one database and one worker per backend. */
function suite(backend: NodeBackend, seed: number) {
  const XPUB = testXpub(seed);
  let node: Dogecoind;
  let db: Db;
  let running: NodeWorker;

  async function newPayment(unit: string, extra: Record<string, unknown> = {}, now?: Date) {
    const b = await createTestPayment(db, { unit, extra, now, publicUrl: URL_BASE });
    return { id: b.id, address: b.payment.outputs[0].address };
  }
  /** A payment with a `data` output (docs/api.md#data_missing): its 201 body's id and `uri` (the `dogecoin:` form). */
  async function newDataPayment(unit: string) {
    const b = await createTestPayment<{ id: string; uri: string }>(db, {
      unit,
      extra: { outputs: [{ type: 'data', data: '6869' }] },
      publicUrl: URL_BASE,
    });
    return b;
  }
  const view = async (id: string): Promise<View> =>
    vendorPaymentView(await db.prisma.payment.findUniqueOrThrow({ where: { id } }), URL_BASE, new Date());
  const events = async (id: string) =>
    (await db.query<{ type: string }>(`SELECT type FROM vendor_event WHERE payment_id = $1 ORDER BY seq`, [id])).map((e) => e.type);

  /** Polls until the payment matches `pred`; the time it took, in ms (throws after `ms`). */
  async function seenWithin(id: string, pred: (v: View) => boolean, ms = 15_000): Promise<number> {
    const t0 = Date.now();
    while (Date.now() - t0 < ms) {
      if (pred(await view(id))) return Date.now() - t0;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`payment ${id} not as expected within ${ms} ms: ${JSON.stringify(await view(id))}`);
  }

  /** The worker has processed the node's best block. */
  const caughtUp = (ms?: number) => running.caughtUp(ms);

  /**
   * A signed tx paying `amount` to `address` that signals BIP125 replaceability (its first input
   * has sequence 1), NOT sent; and a replacement that spends that input to the node's own address
   * with a 1 DOGE fee (higher than the original's), also not sent.
   */
  async function replaceablePair(address: string, amount: string): Promise<{ hex: string; replacement: string }> {
    const coins = await node.rpc<{ txid: string; vout: number; amount: string; spendable: boolean }[]>('listunspent', 1);
    const coin = coins.find((c) => c.spendable && koinuFromRpc(c.amount) > 1_000_00000000n)!;
    const raw = await node.rpc<string>('createrawtransaction', [{ txid: coin.txid, vout: coin.vout, sequence: 1 }], { [address]: amount });
    const funded = await node.rpc<{ hex: string }>('fundrawtransaction', raw, { changePosition: 1 });
    const hex = (await node.rpc<{ hex: string }>('signrawtransaction', funded.hex)).hex;
    const other = await node.newAddress();
    const raw2 = await node.rpc<string>('createrawtransaction', [{ txid: coin.txid, vout: coin.vout, sequence: 1 }], {
      [other]: koinuToRpc(koinuFromRpc(coin.amount) - 1_00000000n),
    });
    const replacement = (await node.rpc<{ hex: string }>('signrawtransaction', raw2)).hex;
    return { hex, replacement };
  }

  describe.skipIf(!haveDogecoind)(`plain-wallet payments on dogecoind (${backend} backend)`, () => {
    beforeAll(async () => {
      node = await startDogecoind({ matureBlocks: 64, args: nodeArgsFor(backend) });
      running = await startNodeWorker(node, { backend, xpub: XPUB, publicUrl: URL_BASE });
      db = running.db;
    }, 180_000);

    afterAll(async () => {
      await running?.stop();
      await node?.dispose();
    });

    it('sendtoaddress of the total: accepted from the mempool within 5 s, before any block; then confirmed', async () => {
      const p = await newPayment('2');
      const height = await node.rpc<number>('getblockcount');
      const t0 = Date.now();
      const txid = await node.rpc<string>('sendtoaddress', p.address, 2);
      await seenWithin(p.id, (v) => v.status === 'accepted', 10_000);
      const ms = Date.now() - t0;
      console.log(`${backend} (dogecoind): plain payment seen as accepted ${ms} ms after sendtoaddress`);
      expect(ms).toBeLessThan(5_000);
      expect(await node.rpc<number>('getblockcount')).toBe(height); // no block was mined
      expect(await view(p.id)).toMatchObject({
        status: 'accepted',
        txid,
        txids: [txid],
        amount_paid: '2',
        amount_due: '0',
        confirmed: 0,
        exception: null,
      });
      await node.mine(1);
      await seenWithin(p.id, (v) => v.status === 'confirmed');
      expect(await events(p.id)).toEqual(['payment.accepted', 'payment.confirmed']);
    });

    it('a tx signalling RBF (nSequence 0xfffffffd) to a 0-conf sale: accepted, never confirmed with 0 confirmations, until a block', async () => {
      await db.prisma.store.update({ where: { id: 1 }, data: { zeroConfLimit: 100_00000000n } });
      try {
        const p = await newPayment('5');
        expect(await view(p.id)).toMatchObject({ required: 0 });
        const coins = await node.rpc<{ txid: string; vout: number; amount: string; spendable: boolean }[]>('listunspent', 1);
        const coin = coins.find((c) => c.spendable && koinuFromRpc(c.amount) > 1_000_00000000n)!;
        const raw = await node.rpc<string>('createrawtransaction', [{ txid: coin.txid, vout: coin.vout, sequence: 0xfffffffd }], {
          [p.address]: 5,
        });
        const funded = await node.rpc<{ hex: string }>('fundrawtransaction', raw, { changePosition: 1 });
        const hex = (await node.rpc<{ hex: string }>('signrawtransaction', funded.hex)).hex;
        const txid = await node.rpc<string>('sendrawtransaction', hex);
        expect((await node.rpc<{ vin: { sequence: number }[] }>('getrawtransaction', txid, 1)).vin.map((v) => v.sequence)).toContain(
          0xfffffffd,
        );
        await seenWithin(p.id, (v) => v.status !== 'unpaid');
        // Several worker ticks (1 s each): the node holds it in its mempool, and the payment waits for a block.
        for (let i = 0; i < 4; i++) {
          expect(await view(p.id)).toMatchObject({ status: 'accepted', confirmed: 0, required: 1, amount_paid: '5' });
          await new Promise((r) => setTimeout(r, 750));
        }
        await node.mine(1);
        await seenWithin(p.id, (v) => v.status === 'confirmed');
        expect(await view(p.id)).toMatchObject({ status: 'confirmed', confirmed: 1, required: 1 });
        expect(await events(p.id)).toEqual(['payment.accepted', 'payment.confirmed']);
      } finally {
        await db.prisma.store.update({ where: { id: 1 }, data: { zeroConfLimit: 0n } });
      }
    });

    it('underpaid, then a second tx: accepted, confirmations counted from the least-confirmed needed tx', async () => {
      const p = await newPayment('3', { required_confirmations: 2 });
      const t1 = await node.rpc<string>('sendtoaddress', p.address, 1.25);
      await seenWithin(p.id, (v) => v.exception === 'underpaid');
      expect(await view(p.id)).toMatchObject({ status: 'unpaid', amount_paid: '1.25', amount_due: '1.75', txids: [t1] });
      expect(await events(p.id)).toEqual(['payment.underpaid']);
      await node.mine(2); // t1 now has 2 confirmations; the payment is still short
      await caughtUp();
      expect(await view(p.id)).toMatchObject({ status: 'unpaid', exception: 'underpaid', amount_due: '1.75' });
      const t2 = await node.rpc<string>('sendtoaddress', p.address, 1.75);
      await seenWithin(p.id, (v) => v.status === 'accepted');
      expect(await view(p.id)).toMatchObject({
        exception: null,
        amount_paid: '3',
        amount_due: '0',
        txids: [t1, t2],
        txid: t1,
        confirmed: 0,
      });
      await node.mine(1);
      await seenWithin(p.id, (v) => v.confirmed === 1);
      expect((await view(p.id)).status).toBe('accepted'); // t2 has 1 of 2, though t1 has 3
      await node.mine(1);
      await seenWithin(p.id, (v) => v.status === 'confirmed');
      expect(await view(p.id)).toMatchObject({ confirmed: 2 });
      expect(await events(p.id)).toEqual(['payment.underpaid', 'payment.accepted', 'payment.confirmed']);
    });

    it('overpaid: accepted with exception overpaid and payment.overpaid', async () => {
      const p = await newPayment('2');
      const txid = await node.rpc<string>('sendtoaddress', p.address, 2.5);
      await seenWithin(p.id, (v) => v.status === 'accepted');
      expect(await view(p.id)).toMatchObject({ exception: 'overpaid', amount_paid: '2.5', amount_due: '0', txids: [txid] });
      expect(await events(p.id)).toEqual(['payment.accepted', 'payment.overpaid']);
    });

    it('late money, after expires_at: accepted with paid_late and payment.paid_late', async () => {
      const p = await newPayment('2', { timeout: 60 }, new Date(Date.now() - 120_000)); // expired a minute ago
      const t0 = Date.now();
      for (;;) {
        if ((await events(p.id)).includes('payment.expired')) break;
        if (Date.now() - t0 > 10_000) throw new Error('no payment.expired');
        await new Promise((r) => setTimeout(r, 100));
      }
      const txid = await node.rpc<string>('sendtoaddress', p.address, 2);
      await seenWithin(p.id, (v) => v.status === 'accepted');
      expect(await view(p.id)).toMatchObject({ exception: 'paid_late', amount_paid: '2', txids: [txid] });
      expect(await events(p.id)).toEqual(['payment.expired', 'payment.paid_late']);
    });

    it('double spent after acceptance: a replacement mined in a block → declined, double_spent, payment.declined', async () => {
      const p = await newPayment('2');
      const { hex, replacement } = await replaceablePair(p.address, '2');
      const txid = await node.send(hex);
      await seenWithin(p.id, (v) => v.status === 'accepted');
      const other = await node.send(replacement); // BIP125: replaces the customer's tx in the mempool
      expect(await node.rpc<string[]>('getrawmempool')).not.toContain(txid);
      if (backend === 'rpc') {
        // Replaced, not dropped (its input is spent by the replacement): still counted until a
        // block decides, past the 3 s in which rpc takes a vanished tx for dropped, and two
        // whole worker rounds after those 3 s.
        await new Promise((r) => setTimeout(r, 3_000));
        await running.roundsPass(2);
        expect(await view(p.id)).toMatchObject({ status: 'accepted', amount_paid: '2' });
      }
      const [block] = await node.mine(1);
      expect((await node.rpc<NodeBlockJson>('getblock', block)).tx).toContain(other);
      await seenWithin(p.id, (v) => v.status === 'declined');
      const v = await view(p.id);
      expect(v).toMatchObject({ status: 'declined', exception: 'double_spent', amount_paid: '0', amount_due: '2', txids: [] });
      expect(String(v.reason)).toMatch(/double spent/);
      expect(await events(p.id)).toEqual(['payment.accepted', 'payment.declined']);
    });

    it('a reorg takes one of two txs out of the chain: confirmed → accepted; its replacement mined → declined', async () => {
      const p = await newPayment('2');
      const t1 = await node.rpc<string>('sendtoaddress', p.address, 1);
      await seenWithin(p.id, (v) => v.exception === 'underpaid');
      await node.mine(1);
      await caughtUp();
      const { hex, replacement } = await replaceablePair(p.address, '1');
      const t2 = await node.send(hex);
      await seenWithin(p.id, (v) => v.status === 'accepted');
      const [b2] = await node.mine(1);
      await seenWithin(p.id, (v) => v.status === 'confirmed');
      expect(await view(p.id)).toMatchObject({ txids: [t1, t2], confirmed: 1 });
      // The block with t2 is replaced by a heavier branch without it: t2 is back in the mempool.
      await node.invalidate(b2!);
      await node.exclude(t2);
      for (const h of await node.mine(2)) expect((await node.rpc<NodeBlockJson>('getblock', h)).tx).not.toContain(t2);
      await seenWithin(p.id, (v) => v.status === 'accepted');
      expect(await view(p.id)).toMatchObject({ confirmed: 0, block_height: null, amount_paid: '2', txids: [t1, t2], exception: 'reorged' });
      // Then a tx conflicting with t2 is mined: what is left (t1) is short → double spent.
      const other = await node.send(replacement);
      const [b3] = await node.mine(1);
      expect((await node.rpc<NodeBlockJson>('getblock', b3)).tx).toContain(other);
      await seenWithin(p.id, (v) => v.status === 'declined');
      expect(await view(p.id)).toMatchObject({ exception: 'double_spent', amount_paid: '1', amount_due: '1', txids: [t1] });
      expect(await events(p.id)).toEqual([
        'payment.underpaid',
        'payment.accepted',
        'payment.confirmed',
        'payment.unconfirmed',
        'payment.declined',
      ]);
    });

    it("data_missing: an ordinary wallet pays the dogecoin: form's address and amount, no OP_RETURN → counted, unpaid, payment.data_missing; a block changes nothing; mark settled", async () => {
      const p = await newDataPayment('2');
      // What an ordinary wallet reads of the dogecoin: URI: the address and the amount, nothing else.
      const uri = new URL(p.uri);
      expect(uri.protocol).toBe('dogecoin:');
      const address = uri.pathname;
      const amount = uri.searchParams.get('amount')!;
      expect(Number(amount)).toBe(2);
      const txid = await node.rpc<string>('sendtoaddress', address, Number(amount));
      const outs = (await node.rpc<{ vout: { scriptPubKey: { type: string } }[] }>('getrawtransaction', txid, 1)).vout;
      expect(outs.map((o) => o.scriptPubKey.type)).not.toContain('nulldata'); // no OP_RETURN
      await seenWithin(p.id, (v) => v.exception === 'data_missing');
      expect(await view(p.id)).toMatchObject({
        status: 'unpaid',
        exception: 'data_missing',
        amount_paid: '2',
        amount_due: '0',
        txids: [txid],
      });
      expect(await events(p.id)).toEqual(['payment.data_missing']);
      const body = JSON.parse(
        (await db.query<{ body: string }>(`SELECT body FROM vendor_event WHERE payment_id = $1 ORDER BY seq DESC LIMIT 1`, [p.id]))[0].body,
      );
      expect(body.payment).toMatchObject({ id: p.id, status: 'unpaid', exception: 'data_missing', amount_paid: '2' });
      // Mined: still not paid, no new event (the data is still not committed).
      await node.mine(1);
      await caughtUp();
      await running.roundsPass(1); // a whole worker round past the block
      expect(await view(p.id)).toMatchObject({ status: 'unpaid', exception: 'data_missing', amount_paid: '2' });
      expect(await events(p.id)).toEqual(['payment.data_missing']);
      // The merchant settles it: confirmed, marked_settled, payment.confirmed.
      expect(
        await markPayment(db, { storeId: 1 }, p.id, { as: 'settled', note: 'customer showed the order' }, 'owner@example.com', URL_BASE),
      ).toEqual({ ok: true });
      expect(await view(p.id)).toMatchObject({ status: 'confirmed', exception: 'marked_settled', amount_paid: '2' });
      expect(await events(p.id)).toEqual(['payment.data_missing', 'payment.confirmed']);
      // The worker's next rounds keep the decision.
      await running.roundsPass(2);
      expect(await view(p.id)).toMatchObject({ status: 'confirmed', exception: 'marked_settled' });
    });

    it.skipIf(backend !== 'rpc')(
      'a reorg, then the node loses one of two txs: accepted → unpaid/underpaid, payable again',
      async () => {
        // t2 spends a coin of a key outside the wallet, so the wallet does not rebroadcast it.
        const key = new Uint8Array(32).fill(seed + 100);
        const keyAddress = pubkeyToAddress(secp256k1.getPublicKey(key, true), REGTEST);
        const fund = await node.rpc<string>('sendtoaddress', keyAddress, 5);
        await node.mine(1);
        const vout = (await node.rpc<NodeTxJson>('getrawtransaction', fund, 1)).vout.find((o: NodeVoutJson) =>
          o.scriptPubKey.addresses?.includes(keyAddress),
        )!;
        const p = await newPayment('2');
        const t1 = await node.rpc<string>('sendtoaddress', p.address, 1);
        await seenWithin(p.id, (v) => v.exception === 'underpaid');
        const raw = await node.rpc<string>('createrawtransaction', [{ txid: fund, vout: vout.n }], { [p.address]: 1, [keyAddress]: 3.9 });
        const signed = await node.rpc<{ hex: string; complete: boolean }>(
          'signrawtransaction',
          raw,
          [{ txid: fund, vout: vout.n, scriptPubKey: vout.scriptPubKey.hex, amount: 5 }],
          [encodeWif(key, true, REGTEST)],
        );
        expect(signed.complete).toBe(true);
        const t2 = await node.send(signed.hex);
        await seenWithin(p.id, (v) => v.status === 'accepted');
        const [b] = await node.mine(1);
        await seenWithin(p.id, (v) => v.status === 'confirmed');
        // A reorg takes t2 out of the chain (back to the mempool), then the node forgets its
        // mempool (restarted without mempool.dat): t1 is in the new branch, t2 is nowhere.
        await node.invalidate(b!);
        await node.exclude(t2);
        await node.mine(2);
        await seenWithin(p.id, (v) => v.status === 'accepted');
        await node.stop();
        rmSync(join(node.datadir, 'regtest', 'mempool.dat'), { force: true });
        await node.restart();
        expect(await node.rpc<string[]>('getrawmempool')).not.toContain(t2);
        await seenWithin(p.id, (v) => v.status === 'unpaid', 30_000);
        expect(await view(p.id)).toMatchObject({
          status: 'unpaid',
          exception: 'underpaid',
          amount_paid: '1',
          amount_due: '1',
          txids: [t1],
          confirmed: 0,
        });
        expect(await events(p.id)).toEqual([
          'payment.underpaid',
          'payment.accepted',
          'payment.confirmed',
          'payment.unconfirmed',
          'payment.unconfirmed',
          'payment.underpaid',
        ]);
        // The customer pays the rest: accepted again.
        const t3 = await node.rpc<string>('sendtoaddress', p.address, 1);
        await seenWithin(p.id, (v) => v.status === 'accepted');
        expect(await view(p.id)).toMatchObject({ amount_paid: '2', txids: [t1, t3] });
      },
      90_000,
    );
  });
}

suite('rpc', 21);
suite('spv', 22);
