// The commands of the payment lifecycle's model-based test (tests/integration/payment-model.test.ts),
// each a step of the real payment and of its model in the world of tests/helpers/payment-model-world.ts:
// plain-wallet txs by each intake path, /pay submissions (alone or racing a plain tx), blocks,
// disconnects, the rescan, double spends, dropped and reappearing txs, the clock, cancel, mark and
// refunds.
import { expect } from 'vitest';
import fc from 'fast-check';
import { FEE, SINK } from './payment-driver';
import type { PaymentModel } from './payment-model';
import { intake, INTAKES, type Intake } from './intake';
import { rescanBlocks } from './model-rescan';
import { modelTx, type Parent, type PaymentModelWorld } from './payment-model-world';

const DOGE = 100_000_000n;

/** The weighted arbitrary of one command, in the world `w`. */
export function paymentModelCommands(w: PaymentModelWorld) {
  const { drv, node, tipHeight, tipHash, blockOf, tick, cmd, parentCoin, mineParent } = w;
  const STRICT_REFUND = w.strictRefund;
  /**
   * A plain-wallet tx brought by `path`, spending a foreign coin or an unconfirmed parent's. The
   * facts must say replaceable when the tx or its parent signals, and always on spv.
   */
  const plainTx = (tenths: number, rbf: boolean, path: Intake, parent: Parent, filterSaw: boolean) =>
    cmd(
      `plain(${tenths / 10} DOGE${rbf ? ', rbf' : ''}, ${path}, parent ${parent}${path === 'spv' && parent !== 'none' ? (filterSaw ? ' seen' : ' unseen') : ''})`,
      () => true,
      async (m, r) => {
        const value = (BigInt(tenths) * DOGE) / 10n;
        const mined = parent.startsWith('mined');
        const from = parent === 'none' ? { parent: null, coin: drv.foreignCoin() } : parentCoin(parent.endsWith('rbf'));
        if (mined) await mineParent(m, from.parent!, parent === 'mined rbf');
        const tx = drv.sign([from.coin], [{ address: r.p.address, amount: value }], rbf);
        if (mined) m.parentOf.set(tx.txid, { txid: from.parent!.txid, rbf: parent === 'mined rbf' });
        const facts = await intake(path, tx.hex, from.parent && !mined ? [from.parent.hex] : [], filterSaw);
        // spv never sees the coin the parent spends (nor, unless its filter matched, the parent):
        // it cannot tell that they are confirmed, so it always says replaceable. A mined parent is
        // final to the rpc paths, whatever its own signal.
        const replaceable = rbf || parent === 'rbf' || path === 'spv';
        expect(facts).toMatchObject({ txid: tx.txid, signalsRbf: replaceable, outputs: tx.summary.outputs });
        r.coins.set(tx.txid, from.coin);
        node.hex.set(tx.txid, tx.hex);
        node.mempool.push(facts);
        m.pending.push(tx.txid);
        m.pm.txs.push({ ...modelTx(tx, value, m.now, false), rbf: replaceable });
        await drv.mempool([facts], new Date(m.now));
        await tick(m, replaceable ? new Set([tx.txid]) : new Set());
      },
    );

  /**
   * A final plain-wallet tx first seen in a block that also mines its parent (as after a restart,
   * or a block that came before the mempool report): recorded without the parent's signal, which a
   * disconnect of that block must hand down.
   */
  const minedWithParent = (tenths: number, parentRbf: boolean) =>
    cmd(
      `minedWithParent(${tenths / 10} DOGE, parent ${parentRbf ? 'rbf' : 'final'})`,
      () => true,
      async (m, r) => {
        const value = (BigInt(tenths) * DOGE) / 10n;
        const { parent, coin } = parentCoin(parentRbf);
        const tx = drv.sign([coin], [{ address: r.p.address, amount: value }], false);
        node.hex.set(parent.txid, parent.hex);
        node.hex.set(tx.txid, tx.hex);
        r.coins.set(tx.txid, coin);
        m.parentOf.set(tx.txid, { txid: parent.txid, rbf: parentRbf });
        const b = blockOf([parent.summary, tx.summary]);
        m.blocks++;
        m.pm.txs.push({ ...modelTx(tx, value, m.now, false), height: b.height });
        await drv.connect(b, new Date(m.now));
        await tick(m);
      },
    );

  const pay = (rbf: boolean, parentRbf = false) =>
    cmd(
      `pay(${rbf ? 'rbf' : ''}${parentRbf ? 'parent rbf' : ''})`,
      () => true,
      async (m, r) => {
        let coin = await drv.takeCoin();
        if (parentRbf) {
          // The parent, unconfirmed in the relay's mempool, signals; the /pay tx itself is final.
          const amount = coin.amount - 2n * FEE;
          const parent = drv.sign([coin], [{ address: drv.walletAddress, amount }], true);
          expect(await drv.broadcast(parent.hex)).toBe(true);
          coin = { txid: parent.txid, vout: 0, amount, script: parent.summary.outputs[0]!.script };
        }
        // payTxOf: a coin of an unconfirmed RBF parent must not go back to the pool for a later /pay tx.
        const tx0 = parentRbf ? drv.payTxOf(r.p, coin, rbf) : drv.payTx(r.p, coin, rbf);
        const tx = parentRbf ? { ...tx0, rbf: true, summary: { ...tx0.summary, signalsRbf: true } } : tx0;
        r.coins.set(tx.txid, coin);
        r.payTxids.add(tx.txid);
        node.hex.set(tx.txid, tx.hex);
        const answer = await drv.pay(r.p, tx, new Date(m.now));
        const expected = m.pm.pay(modelTx(tx, r.p.total, m.now, true), m.now);
        if (expected === 'expired') expect(answer).toMatchObject({ status: 400, body: { error: 'expired' } });
        else
          expect({ status: answer.status, paymentStatus: (answer.body as { status?: string }).status }).toEqual({
            status: expected,
            paymentStatus: m.pm.status,
          });
        if (m.pm.txids.includes(tx.txid)) {
          // Broadcast: the worker sees it come back from the mempool (counted once).
          node.mempool.push(tx.summary);
          m.pending.push(tx.txid);
          await drv.mempool([tx.summary], new Date(m.now));
        }
        await tick(m);
      },
    );

  /**
   * A /pay submission and a plain-wallet tx seen by the worker at the same time. The stored
   * payment must be one of the serial outcomes: /pay first, the plain tx first, or the plain tx
   * recorded while the /pay claim was in flight (counted first, decided by the acceptance).
   */
  const payRace = (tenths: number) =>
    cmd(
      `payRace(${tenths / 10} DOGE)`,
      () => true,
      async (m, r) => {
        const now = new Date(m.now);
        const value = (BigInt(tenths) * DOGE) / 10n;
        const coin = await drv.takeCoin();
        const tx = drv.payTx(r.p, coin, false);
        const plainCoin = drv.foreignCoin();
        const plainSigned = drv.sign([plainCoin], [{ address: r.p.address, amount: value }], false);
        const plain = { ...plainSigned, summary: await intake('rpc-diff', plainSigned.hex, [], false) };
        node.hex.set(tx.txid, tx.hex);
        node.hex.set(plain.txid, plain.hex);
        r.coins.set(tx.txid, coin);
        r.coins.set(plain.txid, plainCoin);
        r.payTxids.add(tx.txid);
        const [answer] = await Promise.all([drv.pay(r.p, tx, now), drv.mempool([plain.summary], now)]);
        // The worker's tick: the /pay tx back from the mempool (when it was broadcast), the recount, expiry.
        if (drv.broadcasts.get(tx.txid)) await drv.mempool([tx.summary], now);
        await drv.recount(tipHeight(), tipHash(), now);
        await drv.expire(now);
        const payTx = modelTx(tx, r.p.total, m.now, true);
        const plainTx = modelTx(plain, value, m.now, false);
        const payFirst = m.pm.clone();
        const a1 = payFirst.pay(payTx, m.now);
        payFirst.txs.push({ ...plainTx });
        payFirst.tick(tipHeight(), m.now);
        const plainFirst = m.pm.clone();
        plainFirst.txs.push({ ...plainTx });
        plainFirst.tick(tipHeight(), m.now);
        const a2 = plainFirst.pay({ ...payTx }, m.now);
        plainFirst.tick(tipHeight(), m.now);
        // In flight: the pay-first outcome, with the plain tx seen first.
        const inFlight = payFirst.clone();
        const reorder = <T>(xs: T[], isPlain: (x: T) => boolean, isPay: (x: T) => boolean) => {
          const i = xs.findIndex(isPlain);
          const j = xs.findIndex(isPay);
          if (i > j && j >= 0) xs.splice(j, 0, ...xs.splice(i, 1));
        };
        reorder(
          inFlight.txs,
          (t) => t.txid === plain.txid,
          (t) => t.txid === tx.txid,
        );
        reorder(
          inFlight.txids,
          (t) => t === plain.txid,
          (t) => t === tx.txid,
        );
        const s = await drv.read(r.p.id);
        const same = (pm: PaymentModel) =>
          pm.status === s.status &&
          pm.exception === s.exception &&
          pm.paid === s.amountPaid &&
          pm.txids.join() === s.paidTxids.join() &&
          pm.events.join() === s.events.join();
        const code = (a: 200 | 403 | 'expired') => (a === 'expired' ? 400 : a);
        // Two orders may store the same payment and differ only in the answer (/pay refused as
        // expired, or told it is already paid): the answer picks among them.
        const candidates: [PaymentModel, number][] = [
          [payFirst, code(a1)],
          [plainFirst, code(a2)],
          [inFlight, code(a1)],
        ];
        const chosen =
          candidates.find(([pm, a]) => same(pm) && a === answer.status) ?? candidates.find(([pm]) => same(pm)) ?? candidates[0];
        m.pm = chosen[0];
        expect(answer.status).toBe(chosen[1]);
        for (const id of [tx.txid, plain.txid]) {
          if (m.pm.txids.includes(id)) {
            node.mempool.push(id === tx.txid ? tx.summary : plain.summary);
            m.pending.push(id);
          }
        }
      },
    );

  const block = (all: boolean) =>
    cmd(
      `block(${all ? 'all' : 'oldest'})`,
      () => true,
      async (m) => {
        const mined = all ? node.mempool.splice(0) : node.mempool.splice(0, 1);
        const b = blockOf(mined);
        m.blocks++;
        for (const t of m.pm.txs) if (mined.some((x) => x.txid === t.txid)) t.height = b.height;
        m.pending = m.pending.filter((id) => !mined.some((x) => x.txid === id));
        await drv.connect(b, new Date(m.now));
        await tick(m);
      },
    );

  const disconnect = cmd(
    'disconnect',
    (m) => m.blocks > 0,
    async (m) => {
      const b = node.blocks.pop()!;
      m.blocks--;
      node.mempool.push(...b.txs);
      for (const t of m.pm.txs) {
        if (t.height === b.height) {
          t.height = null;
          if (!t.conflicted) m.pending.push(t.txid);
        }
        // Its parent back in the mempool: an unmined tx inherits the parent's signal (BIP125).
        const parent = m.parentOf.get(t.txid);
        if (t.height === null && !t.conflicted && parent?.rbf && b.txs.some((x) => x.txid === parent.txid)) t.rbf = true;
      }
      await drv.disconnect(b, new Date(m.now));
      await tick(m);
    },
  );

  const rescan = cmd(
    'rescan',
    (m) => m.blocks > 0,
    async (m) => {
      const from = tipHeight() - m.blocks + 1;
      const held = await rescanBlocks(drv.db, drv.network, node.blocks, from);
      // The payment's txs mined in those blocks pay a wallet address: the rescan found each one.
      for (const t of m.pm.txs) if (t.height !== null && t.height >= from && !t.conflicted) expect(held, t.txid).toContain(t.txid);
      await tick(m);
    },
  );

  const doubleSpend = (i: number) =>
    cmd(
      `doubleSpend(${i})`,
      (m) => m.pending.length > 0,
      async (m, r) => {
        const txid = m.pending[i % m.pending.length];
        const coin = r.coins.get(txid)!;
        const conflict = drv.sign([coin], [{ address: SINK, amount: coin.amount - 2n * FEE }], false);
        node.hex.set(conflict.txid, conflict.hex);
        node.mempool = node.mempool.filter((t) => t.txid !== txid);
        m.pending = m.pending.filter((id) => id !== txid);
        m.pm.txs.find((t) => t.txid === txid)!.conflicted = true;
        m.blocks++;
        await drv.connect(blockOf([conflict.summary]), new Date(m.now));
        await tick(m);
      },
    );

  const refundTx = (exact: boolean) =>
    cmd(
      `refundTx(${exact ? 'exact' : 'other amount'})`,
      (m) => STRICT_REFUND && m.refunds.length > 0,
      async (m, r) => {
        // The customer's address gets money: the exact amount of its oldest unpaid refund, or another amount.
        const open = m.refunds.find((x) => !x.paid);
        const value = exact && open ? open.amount : 3n * DOGE;
        const tx = drv.sign([drv.foreignCoin()], [{ address: r.customer, amount: value }], false);
        if (exact && open) open.paid = true;
        await drv.mempool([tx.summary], new Date(m.now));
        await tick(m);
      },
    );

  const reappear = (i: number) =>
    cmd(
      `reappear(${i})`,
      (m) => m.dropped.length > 0,
      async (m) => {
        const [d] = m.dropped.splice(i % m.dropped.length, 1);
        node.mempool.push(d.tx);
        m.pending.push(d.tx.txid);
        m.pm.txs.push({ txid: d.tx.txid, value: d.value, seenAt: m.now, height: null, conflicted: false, rbf: d.rbf, viaPay: false });
        await drv.mempool([d.tx], new Date(m.now));
        await tick(m, d.rbf ? new Set([d.tx.txid]) : new Set());
      },
    );

  const drop = (i: number) =>
    cmd(
      `drop(${i})`,
      (m) => m.pending.length > 0 && (m.pm.status === 'accepted' || m.pm.status === 'unpaid'),
      async (m) => {
        const txid = m.pending[i % m.pending.length];
        // The worker asks the node about exactly these (payment-txs unminedCounted).
        expect(await drv.droppable()).toContain(txid);
        const tx = node.mempool.find((t) => t.txid === txid)!;
        const gone = m.pm.txs.find((t) => t.txid === txid)!;
        m.dropped.push({ tx, value: gone.value, rbf: gone.rbf });
        node.mempool = node.mempool.filter((t) => t.txid !== txid);
        m.pending = m.pending.filter((id) => id !== txid);
        m.pm.txs = m.pm.txs.filter((t) => t.txid !== txid);
        await drv.drop([txid], new Date(m.now));
        await tick(m);
      },
    );

  const clock = (sec: number) =>
    cmd(
      `clock(+${sec}s)`,
      () => true,
      async (m) => {
        m.now += sec * 1000;
        await tick(m);
      },
    );

  const cancel = cmd(
    'cancel',
    () => true,
    async (m, r) => {
      expect(await drv.cancel(r.p.id, new Date(m.now))).toBe(m.pm.cancel());
      await tick(m);
    },
  );

  const mark = (as: 'settled' | 'invalid') =>
    cmd(
      `mark(${as})`,
      () => true,
      async (m, r) => {
        const got = await drv.mark(r.p.id, as, new Date(m.now));
        const ok = m.pm.mark(as);
        expect(got).toEqual(ok ? { ok: true } : { ok: false, error: 'conflict' });
        await tick(m);
      },
    );

  const refund = (tenths: number | null) =>
    cmd(
      `refund(${tenths === null ? 'all' : `${tenths / 10} DOGE`})`,
      () => true,
      async (m, r) => {
        const asked = tenths === null ? null : (BigInt(tenths) * DOGE) / 10n;
        const got = await drv.refund(r.p.id, asked, r.customer, new Date(m.now));
        const want = m.pm.refund(asked);
        expect(got).toEqual(
          want === null ? { ok: false, error: 'RefundConflictError' } : { ok: true, id: expect.any(String), amount: want },
        );
        if (got.ok) m.refunds.push({ id: got.id, amount: got.amount, paid: false });
        await tick(m);
      },
    );

  // Weighted so that sequences live long enough to reach reorgs and double spends: the
  // terminal commands (cancel, mark) are rarer than the chain's.
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(
          fc.oneof(fc.constant(20), fc.integer({ min: 1, max: 30 })),
          fc.boolean(),
          fc.constantFrom(...INTAKES),
          fc.constantFrom<Parent>('none', 'final', 'rbf', 'mined final', 'mined rbf'),
          fc.boolean(),
        )
        .map(([t, rbf, path, parent, saw]) => plainTx(t, rbf, path, parent, saw)),
    },
    { weight: 3, arbitrary: fc.tuple(fc.boolean(), fc.boolean()).map(([rbf, parentRbf]) => pay(rbf, parentRbf)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.oneof(fc.constant(20), fc.integer({ min: 1, max: 30 })), fc.boolean())
        .map(([t, rbf]) => minedWithParent(t, rbf)),
    },
    { weight: 6, arbitrary: fc.boolean().map(block) },
    { weight: 3, arbitrary: fc.constant(disconnect) },
    { weight: 2, arbitrary: fc.constant(rescan) },
    { weight: 3, arbitrary: fc.nat(5).map(doubleSpend) },
    { weight: 4, arbitrary: fc.nat(5).map(drop) },
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 1200 }).map(clock) },
    { weight: 1, arbitrary: fc.constant(cancel) },
    { weight: 1, arbitrary: fc.constantFrom<'settled' | 'invalid'>('settled', 'invalid').map(mark) },
    { weight: 2, arbitrary: fc.option(fc.integer({ min: 1, max: 30 }), { nil: null }).map(refund) },
    { weight: 1, arbitrary: fc.nat(3).map(reappear) },
    { weight: 2, arbitrary: fc.oneof(fc.constant(20), fc.integer({ min: 1, max: 30 })).map(payRace) },
    ...(STRICT_REFUND ? [{ weight: 2, arbitrary: fc.boolean().map(refundTx) }] : []),
  );
}
