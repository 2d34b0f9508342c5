// GET /invoices/{address} (docs/using-counter.md#the-back-office-admin-and-the-invoice-listing) on the real app with a real litecoind -regtest node
// (rpc backend, embedded PGlite): paging across 250 invoices with the real total and bounds,
// the mint_hash filter, the field mapping, and buyer matches via the submission's refund and
// via the tx's first input after a real payment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { deriveAddress, parseXpub, REGTEST, MAINNET, encodeAddress } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { parseKoinu } from '@/lib/money';
import { startLitecoind, LITECOIN_REGTEST_GENESIS, type Litecoind } from '../helpers/litecoind';
import { startApp, type AppServer } from '../helpers/app-server';
import { until } from '../helpers/wait';
import type { InvoiceJson } from '../helpers/json-shapes';

const KEY = 'invoice-test-key-' + randomBytes(12).toString('hex');
const XPUB = testXpub(9);
const SELLER = deriveAddress(parseXpub(XPUB, REGTEST), 0, REGTEST);
const N = 250;
const MINT_A = 'a1'.repeat(32);
let node: Litecoind;
let app: AppServer;
const created: Array<{ id: string; address: string; total: string; mint: string }> = []; // oldest first

async function get(path: string, auth: string | null = KEY) {
  const r = await fetch(app.url + path, { headers: auth ? { Authorization: `Bearer ${auth}` } : {} });
  return { status: r.status, body: await r.json().catch(() => null) };
}

beforeAll(async () => {
  node = await startLitecoind();
  app = await startApp({
    DOGE_NETWORK: 'regtest',
    CHAIN_GENESIS_HASH: LITECOIN_REGTEST_GENESIS,
    CHAIN_BACKEND: 'rpc',
    DOGE_RPC_URL: node.rpcUrl,
    STORE_XPUB: XPUB,
    BOOTSTRAP_API_KEY: KEY,
  });
  for (let i = 0; i < N; i++) {
    const mint = i % 10 === 3 ? MINT_A : '';
    const r = await fetch(`${app.url}/api/v1/payments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        items: [
          { type: 'item', id: 'SKU', name: 'Item', count: (i % 3) + 1, unit: `1.${i}` },
          { type: 'fee', id: 'f', name: 'Fee', count: 1, unit: '0.5' },
        ],
        mint_hash: mint,
        pending_token_balance_id: mint ? `bal-${i}` : '',
      }),
    });
    const b = await r.json();
    expect(r.status, JSON.stringify(b)).toBe(201);
    created.push({ id: b.id, address: b.payment.outputs[0].address, total: b.total, mint });
  }
}, 240_000);

afterAll(async () => {
  await app?.stop();
  await node?.dispose();
});

describe('GET /invoices/{address}', () => {
  const newestFirst = () => [...created].reverse().map((c) => c.id);

  it('the seller address lists every invoice: default limit 100, zero-based pages, real total, [] past the end', async () => {
    const p0 = await get(`/invoices/${SELLER}`);
    expect(p0.status).toBe(200);
    expect(p0.body).toMatchObject({ limit: 100, page: 0, total: N });
    expect(p0.body.invoices).toHaveLength(100);
    const p1 = await get(`/invoices/${SELLER}?page=1`);
    const p2 = await get(`/invoices/${SELLER}?page=2`);
    expect(p2.body.invoices).toHaveLength(50);
    const ids = [...p0.body.invoices, ...p1.body.invoices, ...p2.body.invoices].map((i: InvoiceJson) => i.id);
    expect(ids).toEqual(newestFirst());
    const past = await get(`/invoices/${SELLER}?page=3`);
    expect(past.body).toEqual({ invoices: [], limit: 100, page: 3, total: N });
    const last = await get(`/invoices/${SELLER}?page=1000&limit=1`);
    expect(last.body).toEqual({ invoices: [], limit: 1, page: 1000, total: N });
    // Page boundaries with an odd limit: page 7 of 33 holds items 231..249.
    const p7 = await get(`/invoices/${SELLER}?limit=33&page=7`);
    expect(p7.body.invoices.map((i: InvoiceJson) => i.id)).toEqual(newestFirst().slice(231));
    expect(p7.body.total).toBe(N);
    const one = await get(`/invoices/${SELLER}?limit=1&page=249`);
    expect(one.body.invoices.map((i: InvoiceJson) => i.id)).toEqual([created[0].id]);
  });

  it.each([
    ['limit=0'],
    ['limit=101'],
    ['limit=-1'],
    ['limit=abc'],
    ['limit=1.5'],
    ['limit='],
    ['page=-1'],
    ['page=1001'],
    ['page=x'],
    ['page=1e2'],
    ['mint_hash=xyz'],
  ])('400 invalid_request for %s', async (qs) => {
    const r = await get(`/invoices/${SELLER}?${qs}`);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_request');
    expect(r.body.message).toMatch(/^(limit|page|mint_hash):/);
  });

  it('400 for an address that is not valid on the configured network', async () => {
    const mainnet = encodeAddress('p2pkh', new Uint8Array(20).fill(3), MAINNET);
    for (const a of [mainnet, 'notanaddress', SELLER.slice(0, -1) + (SELLER.endsWith('a') ? 'b' : 'a')]) {
      const r = await get(`/invoices/${a}`);
      expect(r.status, a).toBe(400);
      expect(r.body).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('an address that matches nothing gives [] and total 0', async () => {
    const r = await get(`/invoices/${await node.newAddress()}`);
    expect(r.body).toEqual({ invoices: [], limit: 100, page: 0, total: 0 });
  });

  it('filters by mint_hash', async () => {
    const r = await get(`/invoices/${SELLER}?mint_hash=${MINT_A}&limit=10`);
    const want = [...created].reverse().filter((c) => c.mint === MINT_A);
    expect(r.body.total).toBe(want.length);
    expect(want.length).toBe(25);
    expect(r.body.invoices.map((i: InvoiceJson) => i.id)).toEqual(want.slice(0, 10).map((c) => c.id));
    expect(r.body.invoices.every((i: InvoiceJson) => i.mint_hash === MINT_A && /^bal-\d+$/.test(i.pending_token_balance_id!))).toBe(true);
    expect((await get(`/invoices/${SELLER}?mint_hash=${'b2'.repeat(32)}`)).body).toMatchObject({ invoices: [], total: 0 });
  });

  it('maps the fields of an unpaid invoice', async () => {
    const c = created[17];
    const r = await get(`/invoices/${c.address}`);
    expect(r.body.total).toBe(1);
    const inv = r.body.invoices[0];
    const env = await (await fetch(`${app.url}/dc/${c.id}`)).json();
    const payloadBytes = Buffer.from(env.payload, 'base64');
    const payment = JSON.parse(payloadBytes.toString('utf8'));
    expect(inv).toEqual({
      id: c.id,
      hash: createHash('sha256').update(payloadBytes).digest('hex'),
      mint_hash: '',
      pending_token_balance_id: '',
      block_height: 0,
      buyer_address: '',
      seller_address: SELLER,
      payment_address: c.address,
      price: Number(c.total),
      quantity: (17 % 3) + 1,
      public_key: env.pubkey,
      signature: env.sig,
      transaction_hash: '',
      created_at: inv.created_at,
      paid_at: { time: '', valid: false },
    });
    expect(price(inv.price)).toBe(parseKoinu(payment.total));
    expect(inv.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  });

  it('matches the buyer by the submission refund, and by the first input without one', async () => {
    const outs = (c: { address: string; total: string }) => [{ address: c.address, amountKoinu: parseKoinu(c.total) }];
    const withRefund = created[100];
    const refund = await node.newAddress();
    const pay1 = await fetch(`${app.url}/relay/pay`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: withRefund.id, tx: await node.payTo(outs(withRefund)), refund }),
    });
    expect(pay1.status).toBe(200);
    const txid = (await pay1.json()).txid;

    const noRefund = created[101];
    const pay2 = await fetch(`${app.url}/relay/pay`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: noRefund.id, tx: await node.payTo(outs(noRefund)) }),
    });
    expect(pay2.status).toBe(200);

    const byRefund = await get(`/invoices/${refund}`);
    expect(byRefund.body.total).toBe(1);
    expect(byRefund.body.invoices[0]).toMatchObject({
      id: withRefund.id,
      buyer_address: refund,
      transaction_hash: txid,
      paid_at: { time: '', valid: false },
      block_height: 0,
    });

    await node.mine(1);
    const paid = await until(
      () => get(`/invoices/${refund}`),
      (r) => r.body.invoices[0]?.paid_at.valid === true,
    );
    expect(paid.body.invoices[0].block_height).toBeGreaterThan(0);
    expect(Date.parse(paid.body.invoices[0].paid_at.time)).toBeGreaterThan(0);

    // Without a refund, the buyer is the address that funded the first input.
    const view = await get(`/invoices/${noRefund.address}`);
    const buyer = view.body.invoices[0].buyer_address;
    expect(buyer).toMatch(/^[mn]/);
    const info = await node.rpc<{ ismine: boolean }>('getaddressinfo', buyer);
    expect(info.ismine).toBe(true);
    const byBuyer = await get(`/invoices/${buyer}`);
    expect(byBuyer.body.invoices.map((i: InvoiceJson) => i.id)).toContain(noRefund.id);
    // A buyer-side query never lists other customers' invoices.
    expect(byBuyer.body.invoices.map((i: InvoiceJson) => i.id)).not.toContain(created[5].id);
  });

  it('needs an API key with invoices:read or an owner session', async () => {
    expect((await get(`/invoices/${SELLER}`, null)).status).toBe(401);
    expect((await get(`/invoices/${SELLER}`, 'wrong-key-wrong-key-wrong')).status).toBe(401);
  });
});

function price(n: number): bigint {
  return parseKoinu(String(n));
}
