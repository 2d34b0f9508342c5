// The payment core's public entry points, as the relay, the worker and the vendor API call them,
// gathered in one place for the model-based test (tests/integration/payment-model.test.ts): when
// the modules move, only this file changes. Real parts: an in-memory PGlite with the project's
// migrations, and the devnet chain backend for /relay/pay (it checks inputs, signatures and fees
// and keeps a mempool). The worker's chain hooks are fed by the caller, which plays the node.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transaction } from '@scure/btc-signer';
import { type Db } from '@/lib/db';
import { openTestDb } from './stores';
import { REGTEST, derivePath, hdKeyToAddress, addressToScript, decodeWif, toHex, decodeTx, type Network } from '@/lib/doge';
import { testAccount } from './keys';
import { testXpub } from './keys';
import type { BlockSummary, BlockTxSummary, ChainBackend } from '@/lib/chain/backend';
import { createDevnetBackend, type DevnetBackend } from '@/lib/chain/devnet/backend';
import { buildPaymentTx } from '@/lib/wallet';
import { createPayment } from '@/lib/payments/creation/create-payment';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { submitPayment, type RelayAnswer } from '@/lib/relay/pay';
import {
  onBlockConnected,
  onBlockDisconnected,
  onMempoolTxs,
  updateConfirmations,
  expirePayments,
  dropTxs,
  unminedCounted,
  cancelPayment,
  markPayment,
} from '@/lib/payments';
import { createRefund } from '@/lib/refunds/create-refund';
import { formatKoinu, parseKoinu } from '@/lib/money';

export type { BlockSummary, BlockTxSummary, RelayAnswer };

const URL_BASE = 'http://127.0.0.1:1';
const XPUB = testXpub(26);
const COIN = 100_000_000n;
const OUTSIDE = testAccount(27);
/** The n-th customer's address (where refunds go): no payment's address. */
export const customerAddress = (n: number) => hdKeyToAddress(derivePath(OUTSIDE, `m/0/${n}`), REGTEST);
/** Where double spends send the money: neither a payment's nor a customer's address. */
export const SINK = hdKeyToAddress(derivePath(OUTSIDE, 'm/1/0'), REGTEST);
/** Each coin handed to a test tx (10 DOGE: enough for any payment here and its fee). */
export const COIN_VALUE = 10n * COIN;
export const FEE = COIN / 100n;

export interface Coin {
  txid: string;
  vout: number;
  amount: bigint;
  script: string;
}

export interface CreatedPayment {
  id: string;
  address: string;
  total: bigint;
  required: number;
  expiresAt: Date;
  /** The Connect Payment a wallet pays through /pay. */
  payment: Parameters<typeof buildPaymentTx>[0];
}

export interface SignedTx {
  txid: string;
  hex: string;
  summary: BlockTxSummary;
  rbf: boolean;
}

export interface StoredState {
  status: string;
  exception: string | null;
  reason: string | null;
  amountPaid: bigint;
  paidTxids: string[];
  confirmations: number;
  requiredConfirmations: number;
  broadcastState: string;
  /** Sum of the payment's payment_tx rows that are not conflicted. */
  txSum: bigint;
  events: string[];
  acceptedSubmissions: number;
}

export interface PaymentDriver {
  network: Network;
  /** The database (tests/helpers/payment-invariants.ts reads every row after each step). */
  db: Db;
  /** Every txid this driver signed that signals replace-by-fee. */
  rbfTxids: Set<string>;
  /** The devnet wallet's address (a coin paid to it is signed by sign()). */
  walletAddress: string;
  /** Broadcasts a tx to the devnet backend the relay uses (a parent for a /pay tx), not counted in `broadcasts`. */
  broadcast(hex: string): Promise<true | string>;
  /** Broadcasts the relay made, by txid. */
  broadcasts: Map<string, number>;
  create(now: Date, requiredConfirmations: number): Promise<CreatedPayment>;
  /** A coin of the devnet wallet no test tx has spent (refills from the devnet chain). */
  takeCoin(): Promise<Coin>;
  /** A coin the devnet chain does not know (plain wallets pay from elsewhere). */
  foreignCoin(): Coin;
  /** A signed tx spending `coins` (the devnet wallet's key) to `outputs`, change back to the wallet. */
  sign(coins: Coin[], outputs: { address: string; amount: bigint }[], rbf: boolean): SignedTx;
  /** A /relay/pay tx for the payment, built by the wallet SDK (non-RBF) or signed here (RBF). */
  payTx(p: CreatedPayment, coin: Coin, rbf: boolean): SignedTx;
  payTxOf(p: CreatedPayment, coin: Coin, rbf: boolean): SignedTx;
  pay(p: CreatedPayment, tx: SignedTx, now: Date): Promise<RelayAnswer>;
  mempool(txs: BlockTxSummary[], now: Date): Promise<void>;
  connect(b: BlockSummary, now: Date): Promise<void>;
  disconnect(b: BlockSummary, now: Date): Promise<void>;
  /** The txids the worker would ask the node about (unmined counted txs of open payments). */
  droppable(): Promise<string[]>;
  drop(txids: string[], now: Date): Promise<void>;
  recount(tipHeight: number, tipHash: string, now: Date): Promise<void>;
  expire(now: Date): Promise<void>;
  cancel(id: string, now: Date): Promise<string>;
  mark(id: string, as: 'settled' | 'invalid', now: Date): Promise<{ ok: boolean; error?: string }>;
  refund(
    id: string,
    amount: bigint | null,
    address: string,
    now: Date,
  ): Promise<{ ok: true; id: string; amount: bigint } | { ok: false; error: string }>;
  /** A payment's refunds, oldest first. */
  refunds(id: string): Promise<{ id: string; status: string; amountPaid: bigint; events: string[] }[]>;
  read(id: string): Promise<StoredState>;
  close(): Promise<void>;
}

export async function openPaymentDriver(): Promise<PaymentDriver> {
  const network = REGTEST;
  const dir = mkdtempSync(join(tmpdir(), 'counter-payment-model-'));
  const db: Db = await openTestDb();
  await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: XPUB }, create: { id: 1, storeXpub: XPUB } });
  await activeRelayKey(db, 1);
  const devnet: DevnetBackend = createDevnetBackend({ network, dir, blockSeconds: 0 });
  await devnet.start();
  const broadcasts = new Map<string, number>();
  // The relay's backend: the devnet one, with every broadcast counted.
  const chain: ChainBackend = new Proxy(devnet, {
    get: (t, k) =>
      k === 'broadcast'
        ? (hex: string) => {
            const txid = decodeTx(hex, network).txid;
            broadcasts.set(txid, (broadcasts.get(txid) ?? 0) + 1);
            return t.broadcast(hex);
          }
        : Reflect.get(t, k),
  });
  const wallet = devnet.demoWallet();
  const key = decodeWif(wallet.wif, network).privateKey;
  const walletScript = toHex(addressToScript(wallet.address, network));
  const used = new Set<string>();
  let pool: Coin[] = [];
  /** The coin each /pay tx spends: back to the pool when the relay did not broadcast it. */
  const payCoins = new Map<string, Coin>();
  let foreign = 0;
  const sync = (now: Date) => ({ db, network, publicUrl: URL_BASE, now: () => now });

  async function refill() {
    // Clear the devnet mempool (the relay's txs, whose change comes back to the wallet) and join
    // the wallet's largest unused coins into a fan-out of 10-DOGE coins.
    await devnet.mine(1);
    const coins = devnet
      .demoWallet()
      .utxos.filter((u) => !used.has(`${u.txid}:${u.vout}`))
      .sort((a, b) => (a.amount > b.amount ? -1 : 1))
      .slice(0, 50);
    const sum = coins.reduce((s, c) => s + c.amount, 0n);
    const count = Math.min(Number((sum - 2n * COIN) / COIN_VALUE), 300);
    if (count < 1) throw new Error('the devnet wallet ran dry');
    const tx = drv.sign(
      coins,
      Array.from({ length: count }, () => ({ address: wallet.address, amount: COIN_VALUE })),
      false,
    );
    for (const c of coins) used.add(`${c.txid}:${c.vout}`);
    const r = await devnet.broadcast(tx.hex);
    if (!r.ok) throw new Error(`fan-out refused: ${r.reason}`);
    await devnet.mine(1);
    pool = Array.from({ length: count }, (_, vout) => ({ txid: tx.txid, vout, amount: COIN_VALUE, script: walletScript }));
  }

  const rbfTxids = new Set<string>();
  const drv: PaymentDriver = {
    network,
    db,
    rbfTxids,
    walletAddress: wallet.address,
    broadcast: async (hex) => {
      const r = await devnet.broadcast(hex);
      return r.ok ? true : r.reason;
    },
    broadcasts,
    async create(now, requiredConfirmations) {
      const r = await createPayment(
        { storeId: 1, db, network, publicUrl: URL_BASE, apiKeyId: null, userId: null, idempotencyKey: null, now },
        JSON.stringify({
          items: [{ type: 'item', id: 'sku', name: 'Tea', count: 1, unit: '2' }],
          required_confirmations: requiredConfirmations,
        }),
      );
      if (r.status !== 201) throw new Error(`createPayment answered ${r.status}: ${JSON.stringify(r.body)}`);
      const body = r.body as { id: string; payment: CreatedPayment['payment'] & { outputs: { address?: string }[] } };
      const row = await db.prisma.payment.findUniqueOrThrow({ where: { id: body.id } });
      return {
        id: body.id,
        address: body.payment.outputs[0].address!,
        total: row.total,
        required: row.requiredConfirmations,
        expiresAt: row.expiresAt,
        payment: body.payment,
      };
    },
    async takeCoin() {
      if (!pool.length) await refill();
      const c = pool.pop()!;
      used.add(`${c.txid}:${c.vout}`);
      return c;
    },
    foreignCoin() {
      foreign++;
      return { txid: foreign.toString(16).padStart(64, 'f'), vout: 0, amount: COIN_VALUE, script: walletScript };
    },
    sign(coins, outputs, rbf) {
      const tx = new Transaction({ version: 1, allowLegacyWitnessUtxo: true, allowUnknownOutputs: true, lowR: true });
      for (const c of coins) {
        tx.addInput({
          txid: c.txid,
          index: c.vout,
          sequence: rbf ? 0xfffffffd : 0xffffffff,
          witnessUtxo: { script: Buffer.from(c.script, 'hex'), amount: c.amount },
        });
      }
      let out = 0n;
      for (const o of outputs) {
        tx.addOutput({ script: addressToScript(o.address, network), amount: o.amount });
        out += o.amount;
      }
      // 0.01 DOGE, or 0.02 DOGE per kB of a large tx (a fan-out), above any relay's minimum.
      const bytes = BigInt(10 + 150 * coins.length + 34 * (outputs.length + 1));
      const fee = FEE > bytes * 2000n ? FEE : bytes * 2000n;
      const change = coins.reduce((s, c) => s + c.amount, 0n) - out - fee;
      if (change > COIN / 100n) tx.addOutput({ script: Buffer.from(walletScript, 'hex'), amount: change });
      coins.forEach((_, i) => tx.signIdx(key, i));
      tx.finalize();
      const hex = tx.hex;
      const d = decodeTx(hex, network);
      if (d.signalsRbf) rbfTxids.add(d.txid);
      return {
        txid: d.txid,
        hex,
        rbf: d.signalsRbf,
        summary: {
          txid: d.txid,
          inputs: d.inputs.map((i) => ({ txid: i.prevTxid, vout: i.vout })),
          outputs: d.outputs.map((o, n) => ({ n, value: o.value, script: o.script })),
          signalsRbf: d.signalsRbf,
        },
      };
    },
    payTx(p, coin, rbf) {
      const tx = drv.payTxOf(p, coin, rbf);
      payCoins.set(tx.txid, coin);
      return tx;
    },
    payTxOf(p, coin, rbf) {
      if (rbf) return drv.sign([coin], [{ address: p.address, amount: p.total }], true);
      const built = buildPaymentTx(p.payment, { network: 'regtest', utxos: [coin], keys: [wallet.wif] });
      const d = decodeTx(built.hex, network);
      return {
        txid: d.txid,
        hex: built.hex,
        rbf: d.signalsRbf,
        summary: {
          txid: d.txid,
          inputs: d.inputs.map((i) => ({ txid: i.prevTxid, vout: i.vout })),
          outputs: d.outputs.map((o, n) => ({ n, value: o.value, script: o.script })),
          signalsRbf: d.signalsRbf,
        },
      };
    },
    async pay(p, tx, now) {
      const answer = await submitPayment({ db, network, chain, publicUrl: URL_BASE, now: () => now }, { id: p.id, tx: tx.hex });
      const coin = payCoins.get(tx.txid);
      payCoins.delete(tx.txid);
      if (coin && !broadcasts.get(tx.txid)) pool.push(coin);
      return answer;
    },
    mempool: (txs, now) => onMempoolTxs(sync(now), txs),
    connect: (b, now) => onBlockConnected(sync(now), b),
    disconnect: (b, now) => onBlockDisconnected(sync(now), b.hash, b),
    droppable: async () => (await unminedCounted(db)).map((t) => t.txid),
    drop: (txids, now) => dropTxs(sync(now), txids),
    recount: (h, hash, now) => updateConfirmations(sync(now), h, hash),
    async expire(now) {
      // The worker expires 200 a tick; earlier sequences' payments may be due as well.
      while ((await expirePayments(sync(now))) >= 200);
    },
    cancel: (id, now) => cancelPayment(db, { storeId: 1, ownSalesOf: null }, id, URL_BASE, now),
    async mark(id, as, now) {
      const r = await markPayment(db, { storeId: 1 }, id, { as, note: 'model' }, 'model@example.com', URL_BASE, now);
      return r.ok ? { ok: true } : { ok: false, error: r.error };
    },
    async refund(id, amount, address, now) {
      const body = { amount: amount === null ? null : formatKoinu(amount), address, reason: 'model' };
      try {
        const v = await createRefund({ storeId: 1, db, network, publicUrl: URL_BASE, now }, id, body);
        return { ok: true, id: v.id, amount: parseKoinu(v.amount) };
      } catch (e) {
        return { ok: false, error: (e as Error).name };
      }
    },
    async read(id) {
      // One statement: the row, the sum of its counted txs, its events in order, its accepted submissions.
      const [r] = await db.query<Record<string, unknown>>(
        `SELECT p.status, p.exception, p.reason, p.amount_paid::text AS paid, p.paid_txids, p.confirmations, p.required_confirmations, p.broadcast_state,
                (SELECT COALESCE(sum(t.value), 0)::text FROM payment_tx t WHERE t.payment_id = p.id AND t.conflicted_by IS NULL) AS tx_sum,
                ARRAY(SELECT e.type FROM vendor_event e WHERE e.payment_id = p.id ORDER BY e.seq) AS events,
                (SELECT count(*)::int FROM payment_submission s WHERE s.payment_id = p.id AND s.outcome = 'accepted') AS subs
           FROM payment p WHERE p.id = $1`,
        [id],
      );
      return {
        status: String(r.status),
        exception: (r.exception as string | null) ?? null,
        reason: (r.reason as string) || null,
        amountPaid: BigInt(String(r.paid)),
        paidTxids: (r.paid_txids as string[]).map(String),
        confirmations: Number(r.confirmations),
        requiredConfirmations: Number(r.required_confirmations),
        broadcastState: String(r.broadcast_state),
        txSum: BigInt(String(r.tx_sum)),
        events: (r.events as string[]).map(String),
        acceptedSubmissions: Number(r.subs),
      };
    },
    async refunds(id) {
      const rows = await db.query<Record<string, unknown>>(
        `SELECT r.id, r.status, r.amount_paid::text AS paid, ARRAY(SELECT e.type FROM vendor_event e WHERE e.payment_id = r.id ORDER BY e.seq) AS events
           FROM payment r WHERE r.refund_of = $1 ORDER BY r.seq`,
        [id],
      );
      return rows.map((r) => ({
        id: String(r.id),
        status: String(r.status),
        amountPaid: BigInt(String(r.paid)),
        events: (r.events as string[]).map(String),
      }));
    },
    async close() {
      await devnet.stop();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return drv;
}
