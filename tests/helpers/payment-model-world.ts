// The world of the payment lifecycle's model-based test (tests/integration/payment-model.test.ts):
// the node the test plays (its blocks and mempool), the model and the real payment of one
// sequence, the worker tick after each step, and the comparison of the stored payment with the
// model (tests/helpers/payment-model.ts) and its invariants after every command.
import { expect } from 'vitest';
import type { AsyncCommand } from 'fast-check';
import {
  COIN_VALUE,
  FEE,
  customerAddress,
  type BlockSummary,
  type BlockTxSummary,
  type Coin,
  type CreatedPayment,
  type PaymentDriver,
  type SignedTx,
} from './payment-driver';
import { PaymentModel, type ModelTx } from './payment-model';
import { assertPaymentInvariants } from './payment-invariants';
import { minedFacts } from './intake';
import { headerAndHash } from './model-rescan';

export interface Model {
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
export interface Real {
  p: CreatedPayment;
  /** The coin each tx of this sequence spends (a double spend spends it again). */
  coins: Map<string, Coin>;
  /** This payment's /pay txids (a coin the relay did not spend is used again: the same tx may come back). */
  payTxids: Set<string>;
  /** The customer's address, where its refunds go. */
  customer: string;
}

export type Cmd = AsyncCommand<Model, Real>;
export type Parent = 'none' | 'final' | 'rbf' | 'mined final' | 'mined rbf';

export const modelTx = (tx: SignedTx, value: bigint, now: number, viaPay: boolean): ModelTx => ({
  txid: tx.txid,
  value,
  seenAt: now,
  height: null,
  conflicted: false,
  rbf: tx.rbf,
  viaPay,
});

/**
 * The world of one test file: `drv` its payment driver; `strictRefund` (MODEL_STRICT=1) adds the
 * rule that only a tx paying a refund's exact amount pays it.
 */
export function paymentModelWorld(drv: PaymentDriver, strictRefund: boolean) {
  const STRICT_REFUND = strictRefund;
  /** The node the test plays: blocks above a base height, and a mempool. Shared by all sequences. */
  const node = { base: 1000, blocks: [] as BlockSummary[], mempool: [] as BlockTxSummary[], hex: new Map<string, string>() };
  const tipHeight = () => node.base + node.blocks.length;
  const tipHash = () => node.blocks.at(-1)?.hash ?? 'ba5e'.repeat(16);
  /** One day per sequence: each starts on its own clock, so earlier payments never stay open. */
  let clockBase = Math.floor(Date.now() / 1000) * 1000;

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
    if (s.status === 'confirmed' && s.exception !== 'marked_settled')
      expect(s.confirmations).toBeGreaterThanOrEqual(s.requiredConfirmations);
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

  /** A coin of an unconfirmed parent tx (unknown to devnet: plain wallets pay from elsewhere) whose input signals RBF or not. */
  function parentCoin(rbf: boolean): { parent: SignedTx; coin: Coin } {
    const amount = COIN_VALUE - 2n * FEE;
    const parent = drv.sign([drv.foreignCoin()], [{ address: drv.walletAddress, amount }], rbf);
    return { parent, coin: { txid: parent.txid, vout: 0, amount, script: parent.summary.outputs[0]!.script } };
  }

  /** A block of the sequence mining a parent (paying elsewhere): its children spend a confirmed coin. */
  async function mineParent(m: Model, parent: SignedTx, rbf: boolean) {
    node.hex.set(parent.txid, parent.hex);
    m.blocks++;
    await drv.connect(blockOf([{ ...parent.summary, signalsRbf: rbf }]), new Date(m.now));
  }

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
  return { drv, node, tipHeight, tipHash, blockOf, tick, cmd, parentCoin, mineParent, setup, stats, strictRefund };
}

export type PaymentModelWorld = ReturnType<typeof paymentModelWorld>;
