// A store on the in-process devnet chain for library-level tests: a fresh migrated PGlite
// (tests/helpers/stores.ts) whose receiving wallet is `xpub`, a relay key, and the devnet
// backend with blocks only on request. The demo wallet's largest coin is split into `coins`
// confirmed coins of `coinAmount` DOGE, so each plain send spends a coin no other test has used.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Db } from '@/lib/db';
import { REGTEST } from '@/lib/doge';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { createDevnetBackend, type DevnetBackend, type DevnetWalletInfo } from '@/lib/chain/devnet/backend';
import { buildPaymentTx } from '@/lib/wallet';
import { workerTick } from '@/lib/worker';
import { openTestDb } from './stores';
import { TEST_PUBLIC_URL } from './payments';

/** A coin as lib/wallet spends it. */
export interface Coin {
  txid: string;
  vout: number;
  amount: bigint;
  script: string;
}

/** A plain send's tx and the coin it spent. */
export type PlainTx = ReturnType<typeof buildPaymentTx> & { input: { txid: string; vout: number } };

/** A payment request of plain p2pkh outputs, as lib/wallet's builder takes one. */
export const plainOutputs = (outputs: { address: string; amount: string }[]) =>
  ({ fee_per_kb: '0.01', outputs: outputs.map((o) => ({ type: 'p2pkh', ...o })) }) as unknown as Parameters<typeof buildPaymentTx>[0];

export interface DevnetStoreOptions {
  xpub: string;
  /** How many coins the demo wallet's largest coin is split into (default 24). */
  coins?: number;
  /** Each coin's amount in DOGE (default '20'). */
  coinAmount?: string;
  /** More fields of the store row (zeroConfLimit…). */
  store?: Record<string, unknown>;
  /** The temp directory's prefix (default 'counter-devnet-store-'). */
  name?: string;
}

export interface DevnetStore {
  db: Db;
  chain: DevnetBackend;
  /** The chain's directory. */
  dir: string;
  publicUrl: string;
  /** The worker's context, as lib/worker and lib/relay take it. */
  ctx(): { db: Db; network: typeof REGTEST; chain: DevnetBackend; publicUrl: string };
  /** One worker tick. */
  tick(): ReturnType<typeof workerTick>;
  /** An unused coin of the demo wallet of at least 10 DOGE (`confirmed`: in a block only), now used. */
  coin(opts?: { confirmed?: boolean }): { u: Coin; w: DevnetWalletInfo };
  /** A plain wallet tx (no /pay) of `amount` DOGE to `address` from an unused coin, broadcast (expecting acceptance). */
  sendPlain(address: string, amount: string, sequence?: number): Promise<PlainTx>;
  /** Closes the database and the chain and removes both. */
  close(): Promise<void>;
}

export async function openDevnetStore(opts: DevnetStoreOptions): Promise<DevnetStore> {
  const dir = mkdtempSync(join(tmpdir(), opts.name ?? 'counter-devnet-store-'));
  const db = await openTestDb();
  const row = { storeXpub: opts.xpub, ...opts.store };
  await db.prisma.store.upsert({ where: { id: 1 }, update: row, create: { id: 1, ...row } });
  await activeRelayKey(db, 1);
  const chain = createDevnetBackend({ network: REGTEST, dir, blockSeconds: 0 });
  await chain.start();
  const used = new Set<string>();
  const publicUrl = TEST_PUBLIC_URL;
  const ctx = () => ({ db, network: REGTEST, chain, publicUrl });
  const tick = () => workerTick(ctx());

  const coin: DevnetStore['coin'] = (o = {}) => {
    const w = chain.demoWallet();
    const u = w.utxos.find((x) => !used.has(`${x.txid}:${x.vout}`) && x.amount >= 10_00000000n && (!o.confirmed || x.confirmations > 0));
    if (!u) throw new Error('the devnet store has no unused coin of 10 DOGE left: ask openDevnetStore for more coins');
    used.add(`${u.txid}:${u.vout}`);
    return { u: { txid: u.txid, vout: u.vout, amount: u.amount, script: u.script }, w };
  };

  const sendPlain: DevnetStore['sendPlain'] = async (address, amount, sequence) => {
    const { u, w } = coin();
    const tx = buildPaymentTx(plainOutputs([{ address, amount }]), { network: 'regtest', utxos: [u], keys: [w.wif], sequence });
    expect((await chain.broadcast(tx.hex)).ok).toBe(true);
    return { ...tx, input: { txid: u.txid, vout: u.vout } };
  };

  // Coins enough for every test: the largest coin split, mined, and synced once.
  const w = chain.demoWallet();
  const big = w.utxos.sort((a, b) => (a.amount > b.amount ? -1 : 1))[0];
  const fan = plainOutputs(Array.from({ length: opts.coins ?? 24 }, () => ({ address: w.address, amount: opts.coinAmount ?? '20' })));
  expect((await chain.broadcast(buildPaymentTx(fan, { network: 'regtest', utxos: [big], keys: [w.wif] }).hex)).ok).toBe(true);
  await chain.mine(1);
  await tick();

  return {
    db,
    chain,
    dir,
    publicUrl,
    ctx,
    tick,
    coin,
    sendPlain,
    close: async () => {
      await chain.stop();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
