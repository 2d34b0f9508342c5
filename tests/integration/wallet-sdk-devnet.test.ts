// The wallet SDK against the real relay on the devnet backend: a full payment through both QR
// forms, accepted then confirmed after a block mined on request; the devnet-only endpoints.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGTEST, decodeTx } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { parseKoinu } from '@/lib/money';
import { payUri, waitForStatus, submitPayment, type WalletUtxo } from '@/lib/wallet';
import { devnetAppEnv, startApp, type AppServer } from '../helpers/app-server';
import type { DemoUtxoJson, OutputJson } from '../helpers/json-shapes';

const API_KEY = 'test-bootstrap-key-' + randomBytes(12).toString('hex');
const xpub = testXpub(11);
let app: AppServer;
const dataDir = mkdtempSync(join(tmpdir(), 'counter-devnet-'));
const ENV = devnetAppEnv({ STORE_XPUB: xpub, BOOTSTRAP_API_KEY: API_KEY });
let firstPayment = '';

async function api(path: string, init: RequestInit = {}) {
  const r = await fetch(app.url + path, {
    ...init,
    headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json', ...(init.headers ?? {}) },
  });
  return { status: r.status, body: await r.json().catch(() => null) };
}
async function demoWallet() {
  const r = await fetch(app.url + '/demo/api/wallet');
  expect(r.status).toBe(200);
  const w = await r.json();
  const utxos: WalletUtxo[] = w.utxos.map((u: DemoUtxoJson) => ({
    txid: u.txid,
    vout: u.vout,
    amount: parseKoinu(u.amount),
    script: u.script,
  }));
  return { ...w, utxos } as { address: string; wif: string; network: 'regtest'; utxos: WalletUtxo[] };
}
async function mine(blocks = 1) {
  const r = await fetch(app.url + '/demo/api/mine', { method: 'POST', body: JSON.stringify({ blocks }) });
  expect(r.status).toBe(200);
  return r.json();
}

beforeAll(async () => {
  app = await startApp(ENV, { keepDataDir: dataDir });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('wallet SDK on devnet', () => {
  it('pays a dogecoin: URI with a data output: accepted, then confirmed after a block', async () => {
    const created = await api('/api/v1/payments', {
      method: 'POST',
      body: JSON.stringify({
        items: [
          { type: 'item', id: 'SKU-1', name: 'Coffee', count: 2, unit: '10.5', tax: '1.05' },
          { type: 'signing', id: 'stamp', name: 'Loyalty stamp' },
        ],
        outputs: [{ type: 'data', data: '68656c6c6f' }],
      }),
    });
    expect(created.status).toBe(201);
    const p = created.body;
    const w = await demoWallet();
    const seen: string[] = [];
    const r = await payUri(p.uri, {
      allowHttp: true,
      network: w.network,
      utxos: w.utxos,
      keys: [w.wif],
      refund: w.address,
      confirm: (view) => view.signsData && view.total === '22.05' && view.lines[1].prominent,
      onStatus: (s) => seen.push(s.status),
    });
    expect(r.view.lines.map((l) => l.name)).toEqual(['Coffee', 'Loyalty stamp']);
    expect(r.submitted).toMatchObject({ id: p.id, status: 'accepted', txid: r.tx.txid, required: 1, confirmed: 0 });
    const tx = decodeTx(r.tx.hex, REGTEST);
    expect(tx.outputs.find((o) => o.type === 'nulldata')?.data).toBe('68656c6c6f');
    expect(tx.outputs.find((o) => o.address === p.payment.outputs.find((x: OutputJson) => x.type === 'p2pkh').address)?.value).toBe(
      2_205_000_000n,
    );

    await mine(1);
    const final = await waitForStatus(p.relay, p.id, {
      allowHttp: true,
      deadline: Date.now() + 30_000,
      intervalMs: 200,
      onStatus: (s) => seen.push(s.status),
    });
    expect(final).toMatchObject({ status: 'confirmed', txid: r.tx.txid, required: 1, due_sec: 0 });
    expect(final.status === 'confirmed' && final.confirmed >= 1).toBe(true);
    expect(seen[0]).toBe('accepted');
    expect(seen.at(-1)).toBe('confirmed');
    const vendor = await api(`/api/v1/payments/${p.id}`);
    expect(vendor.body).toMatchObject({ status: 'confirmed', txid: r.tx.txid, refund_address: w.address });

    // idempotent: paying again returns the current status and broadcasts nothing new
    const again = await submitPayment(r.verified.payment, { tx: r.tx.hex }, { allowHttp: true });
    expect(again).toMatchObject({ status: 'confirmed', txid: r.tx.txid });
    firstPayment = p.id;
  });

  it('pays the dogeconnect: form from unconfirmed change, and refuses an envelope whose h does not match', async () => {
    const make = async (unit: string) =>
      (
        await api('/api/v1/payments', {
          method: 'POST',
          body: JSON.stringify({ items: [{ type: 'item', id: 'T', name: 'Tea', count: 1, unit }] }),
        })
      ).body;
    const [p1, p2] = [await make('3.25'), await make('4.5')];
    const w = await demoWallet();
    const wrongH = p1.connect_uri.replace(/h=[^&]+$/, 'h=AAAAAAAAAAAAAAAAAAAA');
    await expect(payUri(wrongH, { allowHttp: true, network: w.network, utxos: w.utxos, keys: [w.wif] })).rejects.toMatchObject({
      code: 'bad_hash',
    });
    // without allowHttp the SDK only speaks https://, which this plain-http test server does not
    await expect(
      payUri(p1.connect_uri, { network: w.network, utxos: w.utxos, keys: [w.wif], retry: { attempts: 1 } }),
    ).rejects.toMatchObject({ code: 'fetch_failed' });

    const r1 = await payUri(p1.connect_uri, { allowHttp: true, network: w.network, utxos: w.utxos, keys: [w.wif], refund: w.address });
    expect(r1.submitted.status).toBe('accepted');
    // spend the first payment's change before any block: the devnet mempool and the relay's input lookup chain it
    const change = (await demoWallet()).utxos.filter((u) => u.txid === r1.tx.txid);
    expect(change).toHaveLength(1);
    const r2 = await payUri(p2.connect_uri, { allowHttp: true, network: w.network, utxos: change, keys: [w.wif], refund: w.address });
    expect(r2.submitted.status).toBe('accepted');
    expect(decodeTx(r2.tx.hex, REGTEST).inputs[0].prevTxid).toBe(r1.tx.txid);

    await mine(1);
    for (const p of [p1, p2]) {
      const final = await waitForStatus(p.relay, p.id, { allowHttp: true, deadline: Date.now() + 30_000, intervalMs: 200 });
      expect(final.status).toBe('confirmed');
    }
  });

  it('a tx the network refuses (its coins already spent) is tx_rejected and leaves the payment open; good coins then pay it', async () => {
    const make = async (unit: string) =>
      (
        await api('/api/v1/payments', {
          method: 'POST',
          body: JSON.stringify({ items: [{ type: 'item', id: 'T', name: 'Tea', count: 1, unit }] }),
        })
      ).body;
    const [other, p] = [await make('3'), await make('2')];
    const w = await demoWallet();
    const r0 = await payUri(other.uri, { allowHttp: true, network: w.network, utxos: w.utxos, keys: [w.wif] });
    expect(r0.submitted.status).toBe('accepted');
    const spent = new Set(decodeTx(r0.tx.hex, REGTEST).inputs.map((i) => `${i.prevTxid}:${i.vout}`));
    const stale = w.utxos.filter((u) => spent.has(`${u.txid}:${u.vout}`));
    expect(stale.length).toBeGreaterThan(0);
    // Someone (here: the same wallet, with a stale view of its coins) submits a tx whose inputs are spent.
    await expect(payUri(p.uri, { allowHttp: true, network: w.network, utxos: stale, keys: [w.wif] })).rejects.toMatchObject({
      code: 'tx_rejected',
    });
    expect((await api(`/api/v1/payments/${p.id}`)).body).toMatchObject({ status: 'unpaid', txid: null });
    const r = await payUri(p.uri, { allowHttp: true, network: w.network, utxos: (await demoWallet()).utxos, keys: [w.wif] });
    expect(r.submitted).toMatchObject({ id: p.id, status: 'accepted', txid: r.tx.txid });
  });

  it('serves the demo wallet and mining only on devnet, with validated input', async () => {
    const bad = await fetch(app.url + '/demo/api/mine', { method: 'POST', body: JSON.stringify({ blocks: 1000 }) });
    expect(bad.status).toBe(400);
    const before = (await (await fetch(app.url + '/api/health')).json()).chain.tip;
    const m = await mine(2);
    expect(m.blocks).toHaveLength(2);
    expect(m.tip.height).toBeGreaterThanOrEqual(before + 2);
  });

  it('restarts on the same data: the chain, the wallet and the confirmed payments continue', async () => {
    const before = (await (await fetch(app.url + '/api/health')).json()).chain.tip;
    const wallet = (await demoWallet()).address;
    await app.stop();
    app = await startApp(ENV, { keepDataDir: dataDir });
    const health = await (await fetch(app.url + '/api/health')).json();
    expect(health.chain.tip).toBeGreaterThanOrEqual(before);
    expect((await demoWallet()).address).toBe(wallet);
    await mine(1);
    const p = await api(`/api/v1/payments/${firstPayment}`);
    expect(p.body).toMatchObject({ status: 'confirmed', exception: null });
    expect(app.logs()).not.toMatch(/disconnected":[1-9]/);
  });
});
