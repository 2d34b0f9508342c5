// The payment lifecycle, model-based (fast-check `commands`): random sequences of /relay/pay
// submissions, plain-wallet txs (short, exact, over, RBF-signalling, or spending a parent that
// signals it or not: unconfirmed, mined in a block of the sequence, or mined with the tx in the
// block that first brings it, so that a disconnect hands the parent's signal down) each brought
// by one of the real intake paths (rpc's
// getrawmempool diff, rpc's P2P announcements, spv's filter: tests/helpers/intake.ts; blocks
// through rpc's getblock reader), blocks, disconnected blocks, the wallet rescan over the
// sequence's blocks (the real rescan, which must find the payment's mined txs and change no
// payment: tests/helpers/model-rescan.ts), double spends mined, txs the node dropped, the clock passing the expiry, cancel, mark
// settled/invalid and refunds, against a real PGlite and the devnet backend, in-process. The
// test plays the node: it keeps a small chain and mempool and feeds the worker's hooks, as a
// worker tick would. After every step the stored payment must equal a plain in-memory model
// (tests/helpers/payment-model.ts) and keep the invariants: confirmed ⇒ confirmations ≥ required
// (unless the merchant settled it), amount_paid = the sum of its counted txs, one /pay broadcast
// per payment, and each transition's event in the outbox, in order.
//
// MODEL_RUNS (default 200) sets the number of sequences and MODEL_COMMANDS (default 12) their
// longest length; MODEL_SEED, MODEL_PATH and MODEL_REPLAY (its replayPath) replay a counterexample;
// MODEL_STATS=1 prints how often each command ran and each state was reached. MODEL_STRICT=1 adds
// a rule of the contract the code breaks today: only a tx paying a refund's exact amount pays it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc, { type AsyncCommand } from 'fast-check';
import {
  openPaymentDriver,
  COIN_VALUE,
  FEE,
  SINK,
  customerAddress,
  type BlockSummary,
  type BlockTxSummary,
  type Coin,
  type CreatedPayment,
  type PaymentDriver,
  type SignedTx,
} from '../helpers/payment-driver';
import { PaymentModel, type ModelTx } from '../helpers/payment-model';
import { assertPaymentInvariants } from '../helpers/payment-invariants';
import { intake, minedFacts, closeIntakes, INTAKES, type Intake } from '../helpers/intake';
import { headerAndHash, rescanBlocks } from '../helpers/model-rescan';

const RUNS = Number(process.env.MODEL_RUNS ?? 200);
/** The longest sequence (MODEL_COMMANDS): 12 keeps the default run near half a minute. */
const MAX_COMMANDS = Number(process.env.MODEL_COMMANDS ?? 12);
const SEED = process.env.MODEL_SEED === undefined ? undefined : Number(process.env.MODEL_SEED);
const STRICT = new Set((process.env.MODEL_STRICT ?? '').split(',').filter(Boolean));
const STRICT_REFUND = STRICT.has('1') || STRICT.has('refund');
const PATH = process.env.MODEL_PATH;
const DOGE = 100_000_000n;

let drv: PaymentDriver;

/** The node the test plays: blocks above a base height, and a mempool. Shared by all sequences. */
const node = { base: 1000, blocks: [] as BlockSummary[], mempool: [] as BlockTxSummary[], hex: new Map<string, string>() };
const tipHeight = () => node.base + node.blocks.length;
const tipHash = () => node.blocks.at(-1)?.hash ?? 'ba5e'.repeat(16);
/** One day per sequence: each starts on its own clock, so earlier payments never stay open. */
let clockBase = Math.floor(Date.now() / 1000) * 1000;

interface Model {
  pm: PaymentModel;
  now: number;
  /** This payment's txs that are unmined and not conflicted (the ones a node can drop or a block can conflict). */
  pending: string[];
  /** Blocks connected during this sequence (only those are disconnected). */
  blocks: number;
  /** Txs the node dropped: they may come back. */
  dropped: { tx: BlockTxSummary; value: bigint; rbf: boolean }[];
  /** The refunds asked, oldest first, and whether a tx paid each (docs/api.md#refunds). */
  refunds: { id: string; amount: bigint; paid: boolean }[];
  /** A tx's parent mined in a block of this sequence, and whether the parent signals RBF. */
  parentOf: Map<string, { txid: string; rbf: boolean }>;
}
interface Real {
  p: CreatedPayment;
  /** The coin each tx of this sequence spends (a double spend spends it again). */
  coins: Map<string, Coin>;
  /** This payment's /pay txids (a coin the relay did not spend is used again: the same tx may come back). */
  payTxids: Set<string>;
  /** The customer's address, where its refunds go. */
  customer: string;
}

function blockOf(unmined: BlockTxSummary[]): BlockSummary {
  // Each tx as a block brings it (the block path's own builder), from its bytes.
  const txs = unmined.map((t) => (node.hex.has(t.txid) ? minedFacts(node.hex.get(t.txid)!) : t));
  const b = {
    ...headerAndHash(),
    prevHash: tipHash(),
    height: tipHeight() + 1,
    txs,
    time: 0,
    size: 0,
    txCount: txs.length,
    totalTxSize: 0,
  };
  node.blocks.push(b);
  return b;
}

const modelTx = (tx: SignedTx, value: bigint, now: number, viaPay: boolean): ModelTx => ({
  txid: tx.txid,
  value,
  seenAt: now,
  height: null,
  conflicted: false,
  rbf: tx.rbf,
  viaPay,
});

/** A worker tick after the change: the recount at the tip, then expiry. */
async function tick(m: Model, seenRbf: ReadonlySet<string> = new Set()) {
  const now = new Date(m.now);
  await drv.recount(tipHeight(), tipHash(), now);
  await drv.expire(now);
  m.pm.tick(tipHeight(), m.now, seenRbf);
}

/** The stored payment equals the model, and the invariants hold. */
async function compare(m: Model, r: Real) {
  const s = await drv.read(r.p.id);
  const pm = m.pm;
  if (process.env.MODEL_DEBUG === '1') {
    console.log(
      JSON.stringify(
        {
          stored: s,
          model: {
            status: pm.status,
            exception: pm.exception,
            txids: pm.txids,
            events: pm.events,
            broadcasts: pm.broadcasts,
            required: pm.required,
            paid: pm.paid,
          },
          sent: [...r.payTxids].map((t) => drv.broadcasts.get(t) ?? 0),
        },
        (_, v) => (typeof v === 'bigint' ? String(v) : v),
      ),
    );
  }
  expect({
    status: s.status,
    exception: s.exception,
    amountPaid: s.amountPaid,
    txids: s.paidTxids,
    required: s.requiredConfirmations,
    events: s.events,
  }).toEqual({
    status: pm.status,
    exception: pm.exception,
    amountPaid: pm.paid,
    txids: pm.txids,
    required: pm.required,
    events: pm.events,
  });
  // Amounts add up: amount_paid is the sum of the txs it counts.
  expect(s.txSum).toBe(s.amountPaid);
  if (s.status === 'confirmed' && s.exception !== 'marked_settled') expect(s.confirmations).toBeGreaterThanOrEqual(s.requiredConfirmations);
  if ((s.status === 'accepted' || s.status === 'confirmed') && s.exception !== 'marked_settled')
    expect(s.confirmations).toBe(pm.confirmations);
  if (s.status === 'declined') expect(s.reason ?? '').toContain(pm.reason ?? '');
  // One broadcast per payment (once more only after a needed tx left the mempool and it reopened).
  const broadcasts = [...r.payTxids].reduce((n, t) => n + (drv.broadcasts.get(t) ?? 0), 0);
  expect(broadcasts).toBe(pm.broadcasts);
  expect(broadcasts).toBeLessThanOrEqual(1 + pm.reopened);
  expect(s.acceptedSubmissions).toBe(pm.broadcasts);
  if (m.refunds.length) {
    const stored = await drv.refunds(r.p.id);
    expect(stored.map((x) => ({ id: x.id, paid: x.status === 'accepted' || x.status === 'confirmed' }))).toEqual(
      m.refunds.map((x) => ({ id: x.id, paid: STRICT_REFUND ? x.paid : expect.any(Boolean) })),
    );
  }
}

type Cmd = AsyncCommand<Model, Real>;
/** With MODEL_STATS=1: how often each command ran, and the states and events reached. */
const stats = new Map<string, number>();
const count = (k: string) => stats.set(k, (stats.get(k) ?? 0) + 1);
const cmd = (name: string, check: (m: Readonly<Model>) => boolean, run: (m: Model, r: Real) => Promise<void>): Cmd => ({
  check,
  toString: () => name,
  async run(m, r) {
    await run(m, r);
    await compare(m, r);
    // Every payment row, as any reader sees it after the step (docs/architecture.md#invariants).
    await assertPaymentInvariants(drv.db, { rbf: drv.rbfTxids });
    count(`cmd ${name.replace(/\(.*/, '')}`);
    count(`state ${m.pm.status}/${m.pm.exception ?? '-'}`);
  },
});

type Parent = 'none' | 'final' | 'rbf' | 'mined final' | 'mined rbf';
/** A coin of an unconfirmed parent tx (unknown to devnet: plain wallets pay from elsewhere) whose input signals RBF or not. */
function parentCoin(rbf: boolean): { parent: SignedTx; coin: Coin } {
  const amount = COIN_VALUE - 2n * FEE;
  const parent = drv.sign([drv.foreignCoin()], [{ address: drv.walletAddress, amount }], rbf);
  return { parent, coin: { txid: parent.txid, vout: 0, amount, script: parent.summary.outputs[0]!.script } };
}

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

/** A block of the sequence mining a parent (paying elsewhere): its children spend a confirmed coin. */
async function mineParent(m: Model, parent: SignedTx, rbf: boolean) {
  node.hex.set(parent.txid, parent.hex);
  m.blocks++;
  await drv.connect(blockOf([{ ...parent.summary, signalsRbf: rbf }]), new Date(m.now));
}

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
      const chosen = candidates.find(([pm, a]) => same(pm) && a === answer.status) ?? candidates.find(([pm]) => same(pm)) ?? candidates[0];
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
      expect(got).toEqual(want === null ? { ok: false, error: 'RefundConflictError' } : { ok: true, id: expect.any(String), amount: want });
      if (got.ok) m.refunds.push({ id: got.id, amount: got.amount, paid: false });
      await tick(m);
    },
  );

// Weighted so that sequences live long enough to reach reorgs and double spends: the
// terminal commands (cancel, mark) are rarer than the chain's.
const command = fc.oneof(
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

let previous: CreatedPayment | null = null;
let sequences = 0;

async function setup(required: number): Promise<{ model: Model; real: Real }> {
  // The previous sequence's payment is closed, so that the recount and expiry stay small.
  if (previous) await drv.mark(previous.id, 'invalid', new Date(clockBase));
  clockBase += 86_400_000;
  node.mempool = [];
  node.hex.clear();
  const p = await drv.create(new Date(clockBase), required);
  previous = p;
  const pm = new PaymentModel({ total: p.total, required: p.required, expiresAt: p.expiresAt.getTime() });
  return {
    model: { pm, now: clockBase, pending: [], blocks: 0, dropped: [], refunds: [], parentOf: new Map() },
    real: { p, coins: new Map(), payTxids: new Set(), customer: customerAddress(sequences++) },
  };
}

beforeAll(async () => {
  drv = await openPaymentDriver();
}, 120_000);
afterAll(async () => {
  if (process.env.MODEL_STATS === '1')
    console.log(
      [...stats]
        .sort()
        .map(([k, n]) => `${k}: ${n}`)
        .join('\n'),
    );
  await drv?.close();
  await closeIntakes();
});

describe('payment lifecycle against a model (PGlite, devnet)', () => {
  it(
    `${RUNS} random sequences keep the stored payment equal to the model`,
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(0, 1, 1, 2),
          fc.commands([command], {
            maxCommands: MAX_COMMANDS,
            size: 'max',
            ...(process.env.MODEL_REPLAY ? { replayPath: process.env.MODEL_REPLAY } : {}),
          }),
          async (required, cmds) => {
            await fc.asyncModelRun(() => setup(required), cmds);
          },
        ),
        { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), ...(PATH === undefined ? {} : { path: PATH }) },
      );
    },
    30 * 60_000,
  );
});
