// The `rpc` backend against Dogecoin Core 1.14.9 (`dogecoind -regtest`, docs/architecture.md#chain-backends): AuxPoW
// blocks (getblockheader h false answers header + AuxPoW, longer than 80 bytes), Dogecoin's RPC
// dialect (sendrawtransaction's bool, getblock h 2 without each tx's hex), and the app on it: payments, a double spend and a tx with
// a fake input (400 invalid_tx, the payment stays payable: docs/relay.md), and a reorg that
// takes a confirmed payment back to accepted; a refund (docs/api.md#refunds) paid by lib/wallet from a
// dogecoind wallet key and received by the customer. Skipped, saying why, when dogecoind is absent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createRpcBackend } from '@/lib/chain/rpc/backend';
import { koinuFromRpc, koinuToRpc } from '@/lib/chain/rpc/client';
import { parseTx, hashToHex, txidOf, fromHex, toHex, sha256d } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { haveDogecoind, startDogecoind, warnIfNoDogecoind, type Dogecoind } from '../helpers/dogecoind';
import { startApp, type AppServer } from '../helpers/app-server';
import { until } from '../helpers/wait';
import { vendorClient, outputsOf, type PaymentViewJson, type RelayAcceptedJson, type RelayStatusJson } from '../helpers/vendor-client';
import { buildPaymentTx, fetchPayment, readConnectQr } from '@/lib/wallet';
import { parseKoinu } from '@/lib/money';
import type { ErrorJson, EventJson, NodeBlockJson, NodeTxJson } from '../helpers/json-shapes';

warnIfNoDogecoind('tests/integration/rpc-dogecoind.test.ts');

const API_KEY = 'test-bootstrap-key-' + randomBytes(12).toString('hex');
const xpub = testXpub(11);

let node: Dogecoind;
let app: AppServer;

const { api, relay, createPayment } = vendorClient(() => app.url, API_KEY);
const newPayment = () => createPayment({ items: [{ type: 'item', id: 'SKU-1', name: 'Tea', count: 1, unit: '4' }] });
const payment = (id: string) => api<PaymentViewJson>(`/api/v1/payments/${id}`);

beforeAll(async () => {
  if (!haveDogecoind) return;
  node = await startDogecoind({ matureBlocks: 80 });
  await node.mine(5);
  app = await startApp({
    DOGE_NETWORK: 'regtest',
    CHAIN_BACKEND: 'rpc',
    DOGE_RPC_URL: node.rpcUrl,
    STORE_XPUB: xpub,
    BOOTSTRAP_API_KEY: API_KEY,
  });
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await node?.dispose();
});

describe.skipIf(!haveDogecoind)('rpc backend against dogecoind', () => {
  it('reads AuxPoW blocks: getblockheader h false is header + AuxPoW, the backend keeps the 80-byte header', async () => {
    const backend = createRpcBackend({ url: node.rpcUrl, network: 'regtest', timeoutMs: 5_000 });
    await backend.start();
    const tip = await backend.tip();
    expect(tip.height).toBe(await node.rpc('getblockcount'));
    const hex = await node.rpc<string>('getblockheader', tip.hash, false);
    expect(hex.length).toBeGreaterThan(160); // the AuxPoW follows the header
    const b = await backend.block(tip.hash);
    expect(b.header).toHaveLength(80);
    expect(hashToHex(sha256d(b.header))).toBe(tip.hash);
    expect(toHex(b.header)).toBe(hex.slice(0, 160));
    expect(b).toMatchObject({ hash: tip.hash, height: tip.height, txCount: 1 });
    expect(b.prevHash).toBe(await node.rpc('getblockhash', tip.height - 1));
    // A plain block from before height 20 reads the same way.
    const early: string = await node.rpc('getblockhash', 10);
    expect((await node.rpc<string>('getblockheader', early, false)).length).toBe(160);
    expect((await backend.block(early)).height).toBe(10);
  });

  it('gives every tx of a block its bytes, though Dogecoin Core’s getblock h 2 has no hex: the wallet file serves them', async () => {
    const backend = createRpcBackend({ url: node.rpcUrl, network: 'regtest', timeoutMs: 5_000 });
    const sent = await node.send(await node.payTo([{ address: await node.newAddress(), amountKoinu: 250_000_000n }]));
    const [hash] = await node.mine(1);
    const verbose = await node.rpc<{ tx: Record<string, unknown>[] }>('getblock', hash, 2);
    expect(verbose.tx.map((t) => 'hex' in t)).toEqual([false, false]);
    const b = await backend.block(hash);
    expect(b.txs.map((t) => t.txid)).toEqual(verbose.tx.map((t) => t.txid));
    expect(b.txs[1]?.txid).toBe(sent);
    // The coinbase and the payment, byte for byte as the node serialises them (-txindex=1).
    for (const t of b.txs) expect(toHex(t.raw ?? new Uint8Array(0))).toBe(await node.rpc<string>('getrawtransaction', t.txid, 0));
  });

  it('broadcasts with Dogecoin’s sendrawtransaction, reports a double spend and a missing input', async () => {
    const backend = createRpcBackend({ url: node.rpcUrl, network: 'regtest', timeoutMs: 5_000 });
    const a = await node.payTo([{ address: await node.newAddress(), amountKoinu: 100_000_000n }]);
    expect(await backend.broadcast(a)).toEqual({ ok: true, txid: txidOf(fromHex(a)) });
    expect(await backend.broadcast(a)).toEqual({ ok: true, txid: txidOf(fromHex(a)) }); // again: already there
    const i = parseTx(a).inputs[0]!;
    const raw = await node.rpc<string>('createrawtransaction', [{ txid: hashToHex(i.prevTxid), vout: i.vout }], {
      [await node.newAddress()]: '1',
    });
    const b = (await node.rpc<{ hex: string }>('signrawtransaction', raw)).hex;
    expect(await backend.broadcast(b)).toMatchObject({
      ok: false,
      code: 'double_spend',
      reason: expect.stringMatching(/txn-mempool-conflict/),
    });
    const fake = await node.rpc<string>('createrawtransaction', [{ txid: toHex(randomBytes(32)), vout: 0 }], {
      [await node.newAddress()]: '1',
    });
    expect(await backend.broadcast(fake)).toMatchObject({ ok: false, code: 'missing_inputs' });
  });

  it('the app on dogecoind: accepted, then confirmed in an AuxPoW block; /getChaintip follows', async () => {
    const p = await newPayment();
    const tx = await node.payTo(outputsOf(p));
    const r = await relay<RelayStatusJson>('pay', { id: p.id, tx });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: 'accepted', txid: txidOf(fromHex(tx)) });
    await node.mine(1);
    const st = await until(
      () => relay<RelayStatusJson>('status', { id: p.id }),
      (s) => s.body.status === 'confirmed',
    );
    expect(st.body).toMatchObject({ status: 'confirmed', confirmed: 1 });
    const height = await node.rpc('getblockcount');
    expect(
      await until(
        async () => (await fetch(`${app.url}/getChaintip`)).text(),
        (t) => t === `Chain tip: ${height}\n`,
      ),
    ).toBe(`Chain tip: ${height}\n`);
  }, 60_000);

  it('a double spend gets 400 invalid_tx with dogecoind’s reason; the payment stays unpaid and payable', async () => {
    const p = await newPayment();
    const customer = await node.payTo(outputsOf(p));
    const input = parseTx(customer).inputs[0]!;
    const prev = { txid: hashToHex(input.prevTxid), vout: input.vout };
    const value = koinuFromRpc((await node.rpc<NodeTxJson>('getrawtransaction', prev.txid, 1)).vout[prev.vout].value);
    const other = await node.rpc<string>('createrawtransaction', [prev], { [await node.newAddress()]: koinuToRpc(value - 100_000_000n) });
    await node.send((await node.rpc<{ hex: string }>('signrawtransaction', other)).hex);
    const r = await relay<ErrorJson>('pay', { id: p.id, tx: customer });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body).toMatchObject({ error: 'invalid_tx' });
    expect(r.body.message).toMatch(/spent|conflict/);
    expect((await payment(p.id)).body).toMatchObject({ status: 'unpaid' });
    const good = await relay<RelayStatusJson>('pay', { id: p.id, tx: await node.payTo(outputsOf(p)) });
    expect(good.status, JSON.stringify(good.body)).toBe(200);
  }, 60_000);

  it('a tx with a fake input gets 400 invalid_tx; the payment stays unpaid and payable', async () => {
    const p = await newPayment();
    const outs = Object.fromEntries(outputsOf(p).map((o) => [o.address, koinuToRpc(o.amountKoinu)]));
    const fake = await node.rpc<string>('createrawtransaction', [{ txid: toHex(randomBytes(32)), vout: 0 }], outs);
    const r = await relay<RelayStatusJson>('pay', { id: p.id, tx: fake });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body).toMatchObject({ error: 'invalid_tx', message: expect.stringMatching(/does not exist|missing/i) });
    expect((await payment(p.id)).body).toMatchObject({ status: 'unpaid' });
    const good = await relay<RelayStatusJson>('pay', { id: p.id, tx: await node.payTo(outputsOf(p)) });
    expect(good.status, JSON.stringify(good.body)).toBe(200);
  }, 60_000);

  it('a confirmed payment goes back to accepted when a reorg to a heavier branch removes its block', async () => {
    const p = await newPayment();
    const r = await relay<RelayAcceptedJson>('pay', { id: p.id, tx: await node.payTo(outputsOf(p)) });
    expect(r.status).toBe(200);
    const [block] = await node.mine(1);
    // Every read, the vendor's and the wallet's (/relay/status): never confirmed below the required
    // depth, however the worker's writes fall between them (docs/architecture.md#invariants).
    const read = async (id: string) => {
      const [v, s] = await Promise.all([payment(id), relay<RelayStatusJson>('status', { id })]);
      for (const b of [v.body, s.body])
        if (b.status === 'confirmed') expect(b.confirmed, JSON.stringify(b)).toBeGreaterThanOrEqual(b.required ?? Infinity);
      return v;
    };
    const before = await until(
      () => read(p.id),
      (v) => v.body.status === 'confirmed',
    );
    const minedAt = before.body.block_height;
    if (minedAt === null) throw new Error('confirmed without a block height');
    await node.invalidate(block!);
    await node.exclude(r.body.txid);
    for (const h of await node.mine(2)) expect((await node.rpc<NodeBlockJson>('getblock', h)).tx).not.toContain(r.body.txid);
    const st = await until(
      () => read(p.id),
      (v) => v.body.status === 'accepted',
      30_000,
      20,
    );
    expect(st.body).toMatchObject({ status: 'accepted', confirmed: 0, block_height: null });
    const height = await node.rpc('getblockcount');
    expect(
      await until(
        async () => (await fetch(`${app.url}/getChaintip`)).text(),
        (t) => t === `Chain tip: ${height}\n`,
      ),
    ).toBe(`Chain tip: ${height}\n`);
    await node.rpc('prioritisetransaction', r.body.txid, 0, 100_000_000_000_000);
    await node.mine(1);
    const again = await until(
      () => read(p.id),
      (v) => v.body.status === 'confirmed',
      30_000,
      20,
    );
    expect(again.body.block_height).toBe(minedAt + 2);
  }, 90_000);

  it('a refund: lib/wallet pays the refund envelope with a key of a dogecoind wallet, and the customer receives it', async () => {
    const p = await newPayment(); // 4 DOGE
    const customer = await node.newAddress();
    const r = await relay<RelayStatusJson>('pay', { id: p.id, tx: await node.payTo(outputsOf(p)), refund: customer });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await node.mine(1);
    await until(
      () => payment(p.id),
      (x) => x.body.status === 'confirmed',
    );
    const rf = await api<{ id: string; connect_uri: string }>(`/api/v1/payments/${p.id}/refunds`, {
      method: 'POST',
      body: JSON.stringify({ amount: '1.5', reason: 'one tea returned' }),
    });
    expect(rf.status, JSON.stringify(rf.body)).toBe(201);
    expect(rf.body).toMatchObject({ payment_id: p.id, status: 'unpaid', amount: '1.5', address: customer });
    // The merchant's own wallet: a key of dogecoind's wallet that holds 10 DOGE, spent by lib/wallet.
    const merchant = await node.newAddress();
    await node.rpc('sendtoaddress', merchant, 10);
    await node.mine(1);
    const [coin] = await node.rpc<{ txid: string; vout: number; amount: number; scriptPubKey: string }[]>('listunspent', 1, 9_999_999, [
      merchant,
    ]);
    const verified = await fetchPayment(readConnectQr(rf.body.connect_uri), { allowHttp: true });
    expect(verified.payment.outputs).toEqual([expect.objectContaining({ type: 'p2pkh', address: customer, amount: '1.5' })]);
    const tx = buildPaymentTx(verified.payment, {
      network: 'regtest',
      keys: [await node.rpc<string>('dumpprivkey', merchant)],
      utxos: [{ txid: coin!.txid, vout: coin!.vout, amount: parseKoinu(String(coin!.amount)), script: coin!.scriptPubKey }],
    });
    const paid = await relay<RelayStatusJson>('pay', { id: rf.body.id, tx: tx.hex });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ status: 'accepted', txid: tx.txid });
    expect(await node.rpc('getrawmempool')).toContain(tx.txid);
    await node.mine(1);
    const done = await until(
      () => payment(p.id),
      (x) => x.body.refunds?.[0]?.status === 'confirmed',
    );
    expect(done.body).toMatchObject({
      status: 'confirmed',
      amount_refunded: '1.5',
      refunds: [{ id: rf.body.id, status: 'confirmed', amount: '1.5', address: customer }],
    });
    // the customer's address (a dogecoind wallet address) received exactly the refund, in a block
    expect(parseKoinu(String(await node.rpc<number>('getreceivedbyaddress', customer, 1)))).toBe(150_000_000n);
    const events = (await api<{ events: EventJson[] }>('/api/v1/events?limit=500')).body.events
      .filter((e: EventJson) => e.refund?.id === rf.body.id)
      .map((e: EventJson) => e.type);
    expect(events).toEqual(['refund.created', 'refund.accepted', 'refund.confirmed']);
  });
});
