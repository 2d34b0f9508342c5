// The wallet's history on PGlite (docs/node.md#node-text-api, docs/node.md#the-wallets-history-birthday-and-rescan), through a generic backend (as rpc and devnet
// hand over full blocks): the node API lists a block's records in block order then vout, not
// txid order; a rescan finds coins older than the follower's first block, resumes after a
// "restart" from its persisted cursor, chases the follower's tip, records a spend the follower
// met before the output was known, and changes nothing when run again; a birthday (height or
// date) starts one by itself; bad requests are refused saying why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { addressToScript, encodeTx, hexToHash, sha256d, toHex, txidOf, REGTEST } from '@/lib/doge';
import type { BlockSummary, BlockTxSummary, ChainBackend } from '@/lib/chain/backend';
import { followChain } from '@/lib/chain/follower';
import { trackBlockConnected, trackBlockDisconnected } from '@/lib/chain/wallet-tracker';
import { applyBirthday, requestRescan, rescanStep, RescanRefused, seedBirthdayFromEnv, setBirthday } from '@/lib/chain/rescan';
import { readWalletHistory } from '@/lib/chain/rescan-state';
import { parseBirthday } from '@/lib/chain/birthday';
import { walletBalance, walletOutputs } from '@/lib/node-api/read';
import { formatUtxos } from '@/lib/node-api/format';

const network = REGTEST;
const STORE = 'mfWxJ45yp2SFn7UciZyNpvDKrzbhyfKrY8';
const OTHER = 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn';
const T0 = Date.UTC(2024, 0, 1) / 1000; // block h at T0 + 600 h

function tx(inputs: { txid: string; vout: number }[], outputs: { address: string; value: bigint }[], salt: number): BlockTxSummary {
  const raw = encodeTx({
    version: 1,
    inputs: (inputs.length ? inputs : [{ txid: '00'.repeat(32), vout: 0xffffffff }]).map((i) => ({
      prevTxid: hexToHash(i.txid),
      vout: i.vout,
      scriptSig: Uint8Array.of(1, salt & 0xff, salt >> 8),
      sequence: 0xffffffff,
    })),
    outputs: outputs.map((o) => ({ value: o.value, script: addressToScript(o.address, network) })),
    locktime: 0,
  });
  return {
    txid: txidOf(raw),
    inputs,
    outputs: outputs.map((o, n) => ({ n, value: o.value, script: toHex(addressToScript(o.address, network)) })),
    raw,
    signalsRbf: false,
  };
}

/** A chain of n blocks; txsAt(h) gives the non-coinbase txs of block h. */
function makeChain(n: number, txsAt: (h: number) => BlockTxSummary[], salt = 0, base: BlockSummary[] = []): BlockSummary[] {
  const out = base.slice();
  let prev = out.length ? hexToHash(out[out.length - 1].hash) : new Uint8Array(32);
  for (let h = out.length; h < n; h++) {
    const header = new Uint8Array(80);
    const dv = new DataView(header.buffer);
    dv.setUint32(0, 1, true);
    header.set(prev, 4);
    dv.setUint32(68, T0 + 600 * h, true);
    dv.setUint32(72, 0x207fffff, true);
    dv.setUint32(76, salt * 100_000 + h, true);
    const txs = [tx([], [{ address: OTHER, value: 50n }], h), ...txsAt(h)];
    out.push({
      hash: toHex(sha256d(header).slice().reverse()),
      prevHash: toHex(prev.slice().reverse()),
      height: h,
      time: T0 + 600 * h,
      header,
      size: 81,
      txCount: txs.length,
      totalTxSize: 0,
      txs,
    });
    prev = sha256d(header);
  }
  return out;
}

function backend(get: () => BlockSummary[]): ChainBackend & { fetched: number } {
  const b = {
    fetched: 0,
    name: 'rpc' as const,
    canLookupInputs: true,
    start: async () => undefined,
    stop: async () => undefined,
    tip: async () => {
      const c = get();
      return { height: c.length - 1, hash: c[c.length - 1].hash };
    },
    blockHashAt: async (h: number) => get()[h]?.hash ?? null,
    block: async (hash: string) => {
      b.fetched++;
      return get().find((x) => x.hash === hash)!;
    },
    lookupInputs: async () => [],
    broadcast: async () => ({ ok: false as const, reason: 'n/a' }),
    inMempool: async () => false,
    peers: async () => 1,
    mempoolTxFacts: async () => {
      throw new Error('not used');
    },
  };
  return b;
}

const hooks = (db: Db) => ({
  connected: (b: BlockSummary) => trackBlockConnected(db, network, b).then(() => undefined),
  disconnected: (h: string) => trackBlockDisconnected(db, h),
});

// One database for the file (opening one costs seconds), emptied between scenarios.
let shared: Db | null = null;
async function freshDb(): Promise<Db> {
  shared ??= await openTestDb();
  const db = shared;
  await db.query('DELETE FROM wallet_output');
  await db.query('DELETE FROM wallet_tx');
  await db.query('DELETE FROM chain_header');
  await db.query('DELETE FROM chain_state');
  await db.prisma.store.upsert({
    where: { id: 1 },
    update: { storeAddress: STORE },
    create: { id: 1, storeXpub: '', storeAddress: STORE },
  });
  return db;
}

async function snapshot(db: Db) {
  const [outs, txs] = await Promise.all([
    db.prisma.walletOutput.findMany({
      orderBy: [{ txid: 'asc' }, { vout: 'asc' }],
      select: { txid: true, vout: true, amount: true, height: true, blockPos: true, spentTxid: true, spentHeight: true },
    }),
    db.prisma.walletTx.findMany({ orderBy: { txid: 'asc' }, select: { txid: true, height: true, blockPos: true } }),
  ]);
  return { outs, txs, balance: await walletBalance(db, 1) };
}

afterAll(async () => {
  await shared?.close();
});

describe('node API record order', () => {
  it("lists a block's records in block order, then vout, whatever their txids", async () => {
    const db = await freshDb();
    // Four txs paying the store in one block, built until their txids do not sort in block order.
    let txs: BlockTxSummary[] = [];
    for (let salt = 1; ; salt++) {
      txs = [1, 2, 3, 4].map((i) =>
        tx(
          [{ txid: toHex(sha256d(Uint8Array.of(i, salt))), vout: 0 }],
          [
            { address: STORE, value: BigInt(i) * 100_000_000n },
            { address: STORE, value: BigInt(i) },
          ],
          salt * 10 + i,
        ),
      );
      const ids = txs.map((t) => t.txid);
      if (JSON.stringify([...ids].sort()) !== JSON.stringify(ids) && ids[0] > ids[3]) break;
    }
    const chain = makeChain(3, (h) => (h === 2 ? txs : []));
    for (const b of chain) await trackBlockConnected(db, network, b);
    const { records, tipHeight } = await walletOutputs(db, 1, 'unspent');
    expect(records.map((r) => `${r.txid}:${r.vout}`)).toEqual(txs.flatMap((t) => [`${t.txid}:0`, `${t.txid}:1`]));
    const text = formatUtxos(records, 2);
    expect(text.indexOf(txs[0].txid)).toBeLessThan(text.indexOf(txs[3].txid));
    expect(tipHeight).toBe(-1); // no chain_header here: the order is what this test is about
    expect((await db.prisma.walletTx.findMany({ orderBy: { blockPos: 'asc' } })).map((t) => [t.txid, t.blockPos])).toEqual(
      txs.map((t, i) => [t.txid, i + 1]),
    );
  });
});

describe('rescan', () => {
  // Coins to the store at heights 5 (10 DOGE) and 6 (20 DOGE, 2 txs); the height-5 coin is spent at 36.
  const coinA = tx([{ txid: 'aa'.repeat(32), vout: 0 }], [{ address: STORE, value: 1_000_000_000n }], 1);
  const coinB = tx(
    [{ txid: 'bb'.repeat(32), vout: 0 }],
    [
      { address: OTHER, value: 1n },
      { address: STORE, value: 1_500_000_000n },
    ],
    2,
  );
  const coinC = tx([{ txid: 'cc'.repeat(32), vout: 0 }], [{ address: STORE, value: 500_000_000n }], 3);
  const spendA = tx([{ txid: coinA.txid, vout: 0 }], [{ address: OTHER, value: 999_000_000n }], 4);
  const at = (h: number) => (h === 5 ? [coinA] : h === 6 ? [coinB, coinC] : h === 36 ? [spendA] : []);
  let db: Db;
  let chain: BlockSummary[];
  let be: ReturnType<typeof backend>;

  beforeAll(async () => {
    db = await freshDb();
    chain = makeChain(40, at);
    be = backend(() => chain);
  });

  it('refuses before the node processed a block, and nonsense', async () => {
    await expect(requestRescan(db, be, 0)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/not processed any block/),
    });
    await expect(requestRescan(db, be, 'yesterday')).rejects.toBeInstanceOf(RescanRefused);
    await expect(requestRescan(db, be, 'yesterday')).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('without a birthday the follower scans only the last 7 blocks: the old coins are not seen (balance 0)', async () => {
    const r = await followChain(db, be, hooks(db), { initialDepth: 6 });
    expect(r).toMatchObject({ connected: 7, tip: { height: 39 } });
    expect(await walletBalance(db, 1)).toBe(0n);
    expect((await readWalletHistory(db)).scanned_from).toBe(33);
    await expect(requestRescan(db, be, 40)).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/after the last block/),
    });
  });

  it('scans from a height in batches, resumes from its persisted cursor, chases new blocks, and ends complete', async () => {
    await requestRescan(db, be, 3);
    expect((await readWalletHistory(db)).rescan).toMatchObject({
      from: 3,
      current: 2,
      target: 39,
      running: true,
      percent: 0,
      reason: 'operator',
    });
    expect(await rescanStep(db, network, be, { batch: 10, budgetMs: 0 })).toBe(10);
    const mid = (await readWalletHistory(db)).rescan!;
    expect(mid).toMatchObject({ current: 12, target: 39, running: true, percent: 27 });
    expect(Date.parse(mid.started_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(await walletBalance(db, 1)).toBe(3_000_000_000n); // A (unspent so far), B, C
    // "Restart": nothing in memory; new blocks arrive meanwhile and the follower takes them.
    chain = makeChain(45, at, 0, chain);
    expect((await followChain(db, be, hooks(db), {})).tip.height).toBe(44);
    let steps = 0;
    while ((await readWalletHistory(db)).rescan!.running && steps++ < 20) await rescanStep(db, network, be, { batch: 10, budgetMs: 0 });
    const done = await readWalletHistory(db);
    expect(done.rescan).toMatchObject({ from: 3, current: 44, target: 44, running: false, percent: 100, error: null, blocks: 42 });
    expect(done.scanned_from).toBe(3);
    // The spend at 36 was processed by the follower before A was known; the rescan recorded it.
    const spent = await walletOutputs(db, 1, 'spent');
    expect(spent.records.map((r) => [r.txid, r.vout])).toEqual([[coinA.txid, 0]]);
    expect(await db.prisma.walletOutput.findUnique({ where: { txid_vout: { txid: coinA.txid, vout: 0 } } })).toMatchObject({
      spentTxid: spendA.txid,
      spentHeight: 36,
    });
    expect(await walletBalance(db, 1)).toBe(2_000_000_000n);
    const unspent = await walletOutputs(db, 1, 'unspent');
    expect(unspent.records.map((r) => r.txid)).toEqual([coinB.txid, coinC.txid]); // block order
  });

  it('rescanning again (and overlapping) changes nothing', async () => {
    const before = await snapshot(db);
    await requestRescan(db, be, 0);
    while ((await readWalletHistory(db)).rescan!.running) await rescanStep(db, network, be, { batch: 7 });
    await requestRescan(db, be, 5);
    while ((await readWalletHistory(db)).rescan!.running) await rescanStep(db, network, be);
    expect(await snapshot(db)).toEqual(before);
    expect((await readWalletHistory(db)).scanned_from).toBe(0);
  });

  it('a failing backend pauses the rescan with the error; the next tick resumes', async () => {
    await requestRescan(db, be, 30);
    const real = be.block;
    be.block = async () => {
      throw new Error('node went away');
    };
    expect(await rescanStep(db, network, be)).toBe(0);
    expect((await readWalletHistory(db)).rescan).toMatchObject({ running: true, current: 29, error: 'node went away' });
    be.block = real;
    await rescanStep(db, network, be);
    expect((await readWalletHistory(db)).rescan).toMatchObject({ running: false, current: 44, error: null });
  });
});

describe('birthday', () => {
  const coin = tx([{ txid: 'dd'.repeat(32), vout: 1 }], [{ address: STORE, value: 700_000_000n }], 9);

  it('WALLET_BIRTHDAY (a height) becomes a rescan at the first processed block; changing it again applies again', async () => {
    const db = await freshDb();
    const chain = makeChain(30, (h) => (h === 4 ? [coin] : []));
    const be = backend(() => chain);
    await seedBirthdayFromEnv(db, parseBirthday('4'));
    await applyBirthday(db, be); // nothing processed yet: waits
    expect((await readWalletHistory(db)).rescan).toBeNull();
    await followChain(db, be, hooks(db), { initialDepth: 6 });
    await applyBirthday(db, be);
    expect(await readWalletHistory(db)).toMatchObject({
      birthday: '4',
      rescan: { from: 4, target: 29, reason: 'birthday', running: true },
    });
    await applyBirthday(db, be); // applied once
    while ((await readWalletHistory(db)).rescan!.running) await rescanStep(db, network, be);
    expect(await walletBalance(db, 1)).toBe(700_000_000n);
    expect((await readWalletHistory(db)).scanned_from).toBe(4);
    // The same env value on the next start does nothing; a back-office birthday above the history does not scan.
    await seedBirthdayFromEnv(db, parseBirthday('4'));
    await applyBirthday(db, be);
    expect((await readWalletHistory(db)).rescan!.running).toBe(false);
    expect(await setBirthday(db, be, 10)).toEqual({ birthday: '10', rescan: null });
  });

  it('a date maps to the first block at or after it minus 2 hours (blocks every 10 minutes here)', async () => {
    const db = await freshDb();
    const chain = makeChain(30, () => []);
    const be = backend(() => chain);
    await followChain(db, be, hooks(db), { initialDepth: 6 });
    // 2024-01-01T04:00Z − 2 h = T0 + 7200 = block 12.
    const r = await setBirthday(db, be, '2024-01-01T04:00Z');
    expect(r).toMatchObject({ birthday: '2024-01-01T04:00Z', rescan: { from: 12, reason: 'birthday' } });
    await expect(setBirthday(db, be, '2024-01-01T04:00')).rejects.toMatchObject({ code: 'invalid_request' });
    expect(await setBirthday(db, be, null)).toEqual({ birthday: null, rescan: null });
  });

  it('spv: a birthday before the first stored header (the checkpoint) is refused, saying how to go further back', async () => {
    const db = await freshDb();
    const chain = makeChain(30, () => []);
    for (const b of chain.slice(10)) {
      await db.prisma.chainHeader.create({
        data: {
          hash: b.hash,
          height: b.height,
          prevHash: b.prevHash,
          chainwork: String(b.height),
          header: new Uint8Array(b.header),
          time: b.time,
          inBest: true,
        },
      });
    }
    await db.prisma.chainState.create({ data: { key: 'processed_tip', value: `29:${chain[29].hash}` } });
    const spv = {
      ...backend(() => chain),
      ownsHeaderStore: true,
      blockHashAt: async () => {
        throw new Error('spv reads chain_header');
      },
    };
    await expect(requestRescan(db, spv, 5)).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/before the first block this node stores \(height 10.*CHAIN_CHECKPOINT/),
    });
    await expect(setBirthday(db, spv, '2023-12-25')).rejects.toMatchObject({ code: 'invalid_request' });
    expect((await readWalletHistory(db)).birthday).toBeNull();
    expect((await requestRescan(db, spv, '2024-01-01T04:00Z')).from).toBe(12);
    await rescanStep(db, network, spv);
    expect((await readWalletHistory(db)).rescan).toMatchObject({ running: false, current: 29 });
  });
});
