// The `rpc` chain backend against a real `litecoind -regtest` (standing in for Dogecoin Core).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BackendUnavailableError, type ChainBackend } from '../../lib/chain/backend';
import { createRpcBackend } from '../../lib/chain/rpc/backend';
import { koinuFromRpc } from '../../lib/chain/rpc/client';
import { addressToScript } from '../../lib/doge/address';
import { hashToHex, sha256d, toHex } from '../../lib/doge/bytes';
import { REGTEST } from '../../lib/doge/network';
import { decodeTx } from '../../lib/doge/tx';
import { freePort } from '../helpers/ports';
import { EXTERNAL_ADDRESS, LITECOIN_REGTEST_GENESIS, startLitecoind, type Litecoind } from '../helpers/litecoind';
import type { NodeHeaderJson } from '../helpers/json-shapes';

const FAKE_TXID = 'ab'.repeat(32);

let node: Litecoind;
let backend: ChainBackend;

beforeAll(async () => {
  node = await startLitecoind();
  backend = createRpcBackend({ url: node.rpcUrl, network: 'regtest', timeoutMs: 5_000 });
  await backend.start();
});

afterAll(async () => {
  await backend?.stop();
  await node?.dispose();
});

/** A signed tx paying `koinu` to a fresh wallet address, not broadcast. */
async function payment(koinu: bigint, opts: Parameters<Litecoind['payTo']>[1] = {}) {
  const address = await node.newAddress();
  const hex = await node.payTo([{ address, amountKoinu: koinu }], opts);
  const tx = decodeTx(hex, REGTEST);
  return { address, hex, tx };
}

describe('chain following', () => {
  test('tip() matches getbestblockhash after mining', async () => {
    const [mined] = await node.mine(1, EXTERNAL_ADDRESS);
    const tip = await backend.tip();
    expect(tip.hash).toBe(mined);
    expect(tip.hash).toBe(await node.rpc('getbestblockhash'));
    expect(tip.height).toBe(await node.rpc('getblockcount'));
  });

  test('blockHashAt: genesis, tip, and null above the tip', async () => {
    const tip = await backend.tip();
    expect(await backend.blockHashAt(0)).toBe(LITECOIN_REGTEST_GENESIS);
    expect(await backend.blockHashAt(tip.height)).toBe(tip.hash);
    expect(await backend.blockHashAt(tip.height - 1)).toBe(await node.rpc('getblockhash', tip.height - 1));
    expect(await backend.blockHashAt(tip.height + 1)).toBeNull();
    expect(await backend.blockHashAt(tip.height + 1000)).toBeNull();
  });

  test('block(): header, sizes, txs, inputs and exact output values', async () => {
    const amount = 123_456_789n; // 1.23456789: not representable as a binary float
    const { address, hex, tx } = await payment(amount, { dataHex: ['cafe01'] });
    expect(await node.send(hex)).toBe(tx.txid);
    const prev = await backend.tip();
    const [blockHash] = await node.mine(1, EXTERNAL_ADDRESS);

    const b = await backend.block(blockHash);
    expect(b.hash).toBe(blockHash);
    expect(b.prevHash).toBe(prev.hash);
    expect(b.height).toBe(prev.height + 1);
    expect(b.header).toHaveLength(80);
    expect(hashToHex(sha256d(b.header))).toBe(blockHash); // double-SHA256, reversed
    expect(b.time).toBe((await node.rpc<NodeHeaderJson>('getblockheader', blockHash)).time);
    expect(b.txCount).toBe(2);
    expect(b.txs).toHaveLength(2);
    // block = header + varint(tx count) + txs
    expect(b.size).toBe(80 + 1 + b.totalTxSize);
    expect(b.totalTxSize).toBeGreaterThan(tx.size);

    const [coinbase, ours] = b.txs;
    expect(coinbase.inputs).toEqual([]);
    expect(coinbase.outputs[0].script).toBe(toHex(addressToScript(EXTERNAL_ADDRESS, REGTEST)));
    expect(ours.txid).toBe(tx.txid);
    expect(ours.inputs.map(({ txid, vout }) => ({ txid, vout }))).toEqual(tx.inputs.map((i) => ({ txid: i.prevTxid, vout: i.vout })));
    // Each input carries its scriptSig (refund matching reads whose coin it spends).
    for (const i of ours.inputs) expect(i.scriptSig).toMatch(/^([0-9a-f]{2})+$/);
    expect(ours.outputs).toEqual(tx.outputs.map((o) => ({ n: o.n, value: o.value, script: o.script })));
    const paid = ours.outputs.find((o) => o.script === toHex(addressToScript(address, REGTEST)));
    expect(paid?.value).toBe(amount);
    expect(ours.outputs.find((o) => o.script === '6a03cafe01')?.value).toBe(0n);
  });

  test('block() of genesis has a zero prevHash; unknown block is an RPC error', async () => {
    const g = await backend.block(LITECOIN_REGTEST_GENESIS);
    expect(g.prevHash).toBe('0'.repeat(64));
    expect(g.height).toBe(0);
    expect(g.txs[0].inputs).toEqual([]);
    await expect(backend.block(FAKE_TXID)).rejects.toMatchObject({ name: 'RpcError', code: -5 });
  });
});

describe('inputs, broadcast, mempool', () => {
  test('lookupInputs: unspent (exact value and script), spent, missing', async () => {
    const amount = 987_654_321n;
    const { address, hex, tx } = await payment(amount);
    await node.send(hex);
    const vout = tx.outputs.find((o) => o.address === address)!.n;

    // Unconfirmed but unspent: gettxout includes the mempool.
    let [r] = await backend.lookupInputs([{ txid: tx.txid, vout }]);
    expect(r).toEqual({ state: 'unspent', value: amount, script: toHex(addressToScript(address, REGTEST)) });
    await node.mine(1, EXTERNAL_ADDRESS);
    [r] = await backend.lookupInputs([{ txid: tx.txid, vout }]);
    expect(r).toEqual({ state: 'unspent', value: amount, script: toHex(addressToScript(address, REGTEST)) });

    // Spend it in the mempool: a confirmed output spent by a mempool tx.
    const spend = await node.payTo([{ address: EXTERNAL_ADDRESS, amountKoinu: 100_000_000n }], { inputs: [{ txid: tx.txid, vout }] });
    expect((await backend.broadcast(spend)).ok).toBe(true);
    const results = await backend.lookupInputs([
      { txid: tx.txid, vout }, // spent (mempool)
      { txid: FAKE_TXID, vout: 0 }, // unknown tx
      { txid: tx.txid, vout: 99 }, // the tx exists, the output does not
      { txid: tx.txid, vout: 1 - vout }, // its change: unspent
    ]);
    expect(results.map((x) => x.state)).toEqual(['spent', 'missing', 'missing', 'unspent']);

    // Spent in the chain (the wallet knows the parent tx, which is how Core without -txindex
    // can still tell "spent" from "missing").
    await node.mine(1, EXTERNAL_ADDRESS);
    [r] = await backend.lookupInputs([{ txid: tx.txid, vout }]);
    expect(r).toEqual({ state: 'spent' });

    // An output spent by a mempool child of a mempool parent.
    const parent = await payment(50_000_000n);
    await backend.broadcast(parent.hex);
    const pv = parent.tx.outputs.find((o) => o.address === parent.address)!.n;
    const child = await node.payTo([{ address: EXTERNAL_ADDRESS, amountKoinu: 10_000_000n }], {
      inputs: [{ txid: parent.tx.txid, vout: pv }],
    });
    await backend.broadcast(child);
    [r] = await backend.lookupInputs([{ txid: parent.tx.txid, vout: pv }]);
    expect(r).toEqual({ state: 'spent' });
    expect(await backend.lookupInputs([])).toEqual([]);
  });

  test('broadcast ok -> inMempool; re-broadcast is ok; confirmed -> not in mempool, re-broadcast ok', async () => {
    const { hex, tx } = await payment(200_000_000n);
    expect(await backend.inMempool(tx.txid)).toBe(false);
    expect(await backend.broadcast(hex)).toEqual({ ok: true, txid: tx.txid });
    expect(await backend.inMempool(tx.txid)).toBe(true);
    expect(await backend.broadcast(hex)).toEqual({ ok: true, txid: tx.txid }); // already in mempool
    await node.mine(1, EXTERNAL_ADDRESS);
    expect(await backend.inMempool(tx.txid)).toBe(false);
    expect(await backend.broadcast(hex)).toEqual({ ok: true, txid: tx.txid }); // -27 already in block chain
    expect(await backend.inMempool(FAKE_TXID)).toBe(false);
  });

  test('re-broadcast of a confirmed tx whose outputs are all spent is ok (the wallet knows it)', async () => {
    // Core answers -25 "missingorspent" here, not -27: -27 needs an unspent output.
    const { hex, tx } = await payment(300_000_000n);
    await backend.broadcast(hex);
    const spendAll = await node.payTo([{ address: EXTERNAL_ADDRESS, amountKoinu: 10_000_000n }], {
      inputs: tx.outputs.map((o) => ({ txid: tx.txid, vout: o.n })),
    });
    expect((await backend.broadcast(spendAll)).ok).toBe(true);
    await node.mine(1, EXTERNAL_ADDRESS);
    expect(await backend.lookupInputs(tx.outputs.map((o) => ({ txid: tx.txid, vout: o.n })))).toEqual([
      { state: 'spent' },
      { state: 'spent' },
    ]);
    expect(await backend.broadcast(hex)).toEqual({ ok: true, txid: tx.txid });
  });

  test('a high fee is not refused by Core (the relay applies its own fee rule)', async () => {
    // 5 LTC/kB: about 1.1 in fees, far above Core's default maxfeerate of 0.1/kB.
    const { hex, tx } = await payment(100_000_000n, { feeRateKoinuPerKb: 500_000_000n });
    expect(await backend.broadcast(hex)).toEqual({ ok: true, txid: tx.txid });
  });

  test('double spend: against a mempool tx and against a confirmed tx', async () => {
    // The oldest coin: a coinbase (which on Litecoin carries witness data, unlike Dogecoin).
    const coins = await node.rpc<{ txid: string; vout: number; confirmations: number }[]>('listunspent', 1);
    const coin = coins.reduce((a, b) => (b.confirmations > a.confirmations ? b : a));
    const input = [{ txid: coin.txid, vout: coin.vout }];
    const first = await node.payTo([{ address: await node.newAddress(), amountKoinu: 100_000_000n }], { inputs: input });
    const second = await node.payTo([{ address: await node.newAddress(), amountKoinu: 200_000_000n }], { inputs: input });
    expect((await backend.broadcast(first)).ok).toBe(true);

    const inMempool = await backend.broadcast(second);
    expect(inMempool).toMatchObject({ ok: false, code: 'double_spend' });
    expect(inMempool.ok === false && inMempool.reason).toMatch(/txn-mempool-conflict/);

    await node.mine(1, EXTERNAL_ADDRESS);
    const confirmed = await backend.broadcast(second);
    expect(confirmed).toMatchObject({ ok: false, code: 'double_spend' });
    expect(confirmed.ok === false && confirmed.reason).toContain(`${coin.txid}:${coin.vout}`);
  });

  test('missing inputs, invalid signature, garbage', async () => {
    const address = await node.newAddress();
    const missing = await node.rpc<string>('createrawtransaction', [{ txid: FAKE_TXID, vout: 0 }], [{ [address]: '1.00000000' }]);
    const r1 = await backend.broadcast(missing);
    expect(r1).toMatchObject({ ok: false, code: 'missing_inputs' });
    expect(r1.ok === false && r1.reason).toMatch(/missingorspent/);

    // A coin worth well over the output: a 1.0 coin spent to 1.0 pays no fee, and the node then
    // refuses it for the fee before it reads the signature.
    const coins = await node.rpc<{ txid: string; vout: number; amount: number }[]>('listunspent', 1);
    const coin = coins.find((c) => c.amount >= 2)!;
    const unsigned = await node.rpc<string>('createrawtransaction', [{ txid: coin.txid, vout: coin.vout }], [{ [address]: '1.00000000' }]);
    const r2 = await backend.broadcast(unsigned);
    expect(r2).toMatchObject({ ok: false, code: 'rejected' });
    expect(r2.ok === false && r2.reason).toMatch(/script-verify|signature/i);

    expect(await backend.broadcast('00zz')).toMatchObject({ ok: false, code: 'rejected' });
    const r3 = await backend.broadcast('0100000000');
    expect(r3).toMatchObject({ ok: false, code: 'rejected' });
    expect(r3.ok === false && r3.reason).toMatch(/decode/i);
  });

  test('peers() is 1 when reachable; start() checks the chain', async () => {
    expect(await backend.peers()).toBe(1);
    await expect(createRpcBackend({ url: node.rpcUrl, network: 'mainnet' }).start()).rejects.toThrow(/regtest/);
  });
});

describe('reorgs and peers', () => {
  test('invalidateblock then a longer chain: blockHashAt changes at the forked height', async () => {
    const tip = await backend.tip();
    const [a] = await node.mine(1); // to a wallet address; the replacement goes elsewhere
    expect(await backend.blockHashAt(tip.height + 1)).toBe(a);
    await node.rpc('invalidateblock', a);
    expect(await backend.blockHashAt(tip.height + 1)).toBeNull();
    expect((await backend.tip()).hash).toBe(tip.hash);
    const [b, c] = await node.mine(2, EXTERNAL_ADDRESS);
    expect(b).not.toBe(a);
    expect(await backend.blockHashAt(tip.height + 1)).toBe(b);
    expect(await backend.tip()).toEqual({ height: tip.height + 2, hash: c });
    // The stale block is still readable by hash.
    expect((await backend.block(a)).height).toBe(tip.height + 1);
  });

  test('helper: a second node connects and syncs', async () => {
    const other = await startLitecoind({ wallet: false });
    try {
      await other.connect(node);
      const want = await node.rpc<string>('getbestblockhash');
      const deadline = Date.now() + 20_000;
      while ((await other.rpc<string>('getbestblockhash')) !== want && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await other.rpc('getbestblockhash')).toBe(want);
    } finally {
      await other.dispose();
    }
  });
});

describe('unavailability', () => {
  test('wrong password: BackendUnavailableError that names the problem but not the password', async () => {
    const bad = createRpcBackend({ url: node.rpcUrl.replace(':p@', ':s3cret@') });
    const err = await bad.tip().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendUnavailableError);
    expect((err as Error).message).toMatch(/401/);
    expect((err as Error).message).not.toContain('s3cret');
  });

  test('nothing listening: BackendUnavailableError at once', async () => {
    const port = await freePort();
    const none = createRpcBackend({ url: `http://u:p@127.0.0.1:${port}` });
    await expect(none.tip()).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(none.peers()).rejects.toBeInstanceOf(BackendUnavailableError);
    await none.start(); // unreachable at boot is not fatal
  });

  test('stopped node: tip/broadcast/lookupInputs/block throw BackendUnavailableError quickly; restart recovers', async () => {
    const { hex, tx } = await payment(100_000_000n);
    const tipBefore = await backend.tip();
    await node.stop();
    const t0 = Date.now();
    await expect(backend.tip()).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(backend.broadcast(hex)).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(backend.lookupInputs([{ txid: tx.txid, vout: 0 }])).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(backend.blockHashAt(0)).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(backend.block(tipBefore.hash)).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(backend.inMempool(tx.txid)).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(backend.peers()).rejects.toBeInstanceOf(BackendUnavailableError);
    expect(Date.now() - t0).toBeLessThan(5_000); // refused at once, not retried into a timeout

    await node.restart();
    expect(await backend.tip()).toEqual(tipBefore);
    // The wallet came back too (load_on_startup), and the tx built before the stop still goes through.
    expect(await backend.broadcast(hex)).toEqual({ ok: true, txid: tx.txid });
    const balance = koinuFromRpc(await node.rpc('getbalance'));
    expect(balance).toBeGreaterThan(0n);
  });
});
