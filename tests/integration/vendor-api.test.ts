// The vendor API and relay routes on the real built app with embedded PGlite (mainnet
// parameters, a dgub watch-only key): auth, validation, idempotency, paging, cancel, limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { MAINNET, parseXpub, deriveAddress } from '@/lib/doge';
import { verifyPaymentEnvelope, parsePaymentUri } from '@/lib/connect';
import { startApp, type AppServer } from '../helpers/app-server';
import { DGUB } from '../helpers/keys';
import type { EventJson, ListedPaymentJson } from '../helpers/json-shapes';

const KEY = 'vendor-test-key-' + randomBytes(12).toString('hex');
let app: AppServer;

const DESIGN_EXAMPLE = {
  items: [
    { type: 'item', id: 'SKU-1', name: 'Coffee', count: 2, unit: '10.5', tax: '1.05', desc: '', icon: '' },
    { type: 'fee', id: 'svc', name: 'Service', count: 1, unit: '1' },
  ],
  outputs: [{ type: 'data', data: '68656c6c6f' }],
  vendor_order_id: 'INV-42',
  order_reference: 'A073',
  note: 'Thanks!',
  vendor_order_url: '',
  fiat_total: '5.00',
  fiat_tax: '0.23',
  fiat_currency: 'USD',
  timeout: 900,
  required_confirmations: 1,
  mint_hash: '',
  pending_token_balance_id: '',
  meta: { 'com.example.table': '7' },
};

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(app.url + path, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null, headers: r.headers };
}

beforeAll(async () => {
  app = await startApp({ STORE_XPUB: DGUB, BOOTSTRAP_API_KEY: KEY });
});
afterAll(async () => app?.stop());

describe('vendor API on PGlite', () => {
  it('needs a valid API key', async () => {
    const none = await fetch(app.url + '/api/v1/payments');
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: 'unauthorized' });
    expect((await call('GET', '/api/v1/payments', undefined, { Authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await call('GET', '/api/v1/events', undefined, { Authorization: 'Basic eDp5' })).status).toBe(401);
  });

  it('creates the design example: totals, fresh address 0/i, data output, URIs and a verifiable envelope', async () => {
    const r = await call('POST', '/api/v1/payments', DESIGN_EXAMPLE);
    expect(r.status).toBe(201);
    const p = r.body;
    expect(p.total).toBe('23.05');
    expect(p.payment).toMatchObject({
      type: 'payment',
      total: '23.05',
      taxes: '1.05',
      fees: '1',
      timeout: 900,
      fee_per_kb: '0.01',
      max_size: 100000,
      vendor_order_id: 'INV-42',
      order_reference: 'A073',
      fiat_total: '5.00',
      fiat_currency: 'USD',
      vendor_icon: '',
      meta: { 'com.example.table': '7' },
      relay: `${app.url}/relay`,
    });
    expect(p.payment.items[0]).toEqual({
      type: 'item',
      id: 'SKU-1',
      icon: '',
      name: 'Coffee',
      desc: '',
      count: 2,
      unit: '10.5',
      total: '21',
      tax: '1.05',
    });
    const first = deriveAddress(parseXpub(DGUB, MAINNET), 0, MAINNET);
    expect(p.payment.outputs).toEqual([
      { type: 'p2pkh', address: first, amount: '23.05' },
      { type: 'data', data: '68656c6c6f' },
    ]);
    expect(p.uri).toBe(
      `dogecoin:${first}?amount=23.05&dc=${encodeURIComponent(p.envelope_url.replace(/^https?:\/\//, ''))}&h=${p.connect_uri.split('h=')[1]}`,
    );
    expect(p.connect_uri).toMatch(/^dogeconnect:127\.0\.0\.1(:|%3A)\d+\/dc\/[A-Za-z0-9_-]+\?h=[A-Za-z0-9_-]{20}$/);
    const env = await (await fetch(p.envelope_url)).json();
    const uri = parsePaymentUri(p.connect_uri);
    expect(verifyPaymentEnvelope(env, { expectedHash15: (uri as { hash15: Uint8Array }).hash15 }).payment).toEqual(p.payment);
    // A second payment gets the next address.
    const second = await call('POST', '/api/v1/payments', { items: [{ type: 'item', id: 'x', name: 'X', count: 1, unit: '1' }] });
    expect(second.body.payment.outputs[0].address).toBe(deriveAddress(parseXpub(DGUB, MAINNET), 1, MAINNET));
    const got = await call('GET', `/api/v1/payments/${p.id}`);
    expect(got.body).toMatchObject({
      id: p.id,
      status: 'unpaid',
      txid: null,
      required: 1,
      confirmed: 0,
      due_sec: 60,
      expired: false,
      exception: null,
      confirmed_at: null,
    });
    expect(got.body.payment).toEqual(p.payment);
  });

  it.each([
    [{ items: [{ type: 'item', id: 'a', name: 'A', count: 1, unit: '1.000000001' }] }, 'items[0].unit'],
    [{ items: [{ type: 'discount', id: 'a', name: 'A', count: 1, unit: '1' }] }, 'items[0].unit'],
    [{ items: [{ type: 'bogus', id: 'a', name: 'A', count: 1, unit: '1' }] }, 'items[0].type'],
    [{ items: [{ type: 'item', id: 'a', name: 'A', count: 1, unit: '1' }], outputs: [{ type: 'data', data: 'abc' }] }, 'outputs[0].data'],
    [{ items: [{ type: 'item', id: 'a', name: 'A', count: 1, unit: '1' }], fiat_total: '1' }, 'fiat_currency'],
  ])('rejects %j with 400 naming %s', async (body, field) => {
    const r = await call('POST', '/api/v1/payments', body);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_request');
    expect(r.body.message.startsWith(field + ':')).toBe(true);
  });

  it('rejects invalid JSON and oversized bodies', async () => {
    expect((await call('POST', '/api/v1/payments', '{not json')).status).toBe(400);
    const big = JSON.stringify({ items: [{ type: 'item', id: 'a', name: 'A', count: 1, unit: '1', desc: 'x'.repeat(1_100_000) }] });
    expect((await call('POST', '/api/v1/payments', big)).status).toBe(413);
    const relayBig = await fetch(app.url + '/relay/pay', { method: 'POST', body: 'x'.repeat(1_100_000) });
    expect(relayBig.status).toBe(413);
    expect(relayBig.headers.get('cache-control')).toContain('no-store');
  });

  it('replays an Idempotency-Key with the same body and refuses a different body with 409', async () => {
    const body = { items: [{ type: 'item', id: 'i', name: 'I', count: 1, unit: '2' }] };
    const a = await call('POST', '/api/v1/payments', body, { 'Idempotency-Key': 'order-1' });
    const b = await call('POST', '/api/v1/payments', body, { 'Idempotency-Key': 'order-1' });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body).toEqual(a.body);
    const c = await call('POST', '/api/v1/payments', { ...body, note: 'changed' }, { 'Idempotency-Key': 'order-1' });
    expect(c.status).toBe(409);
    expect(c.body.error).toBe('conflict');
  });

  it('lists newest first with cursor pages and filters', async () => {
    const all: string[] = [];
    let cursor = '';
    for (let i = 0; i < 10; i++) {
      const r = await call('GET', `/api/v1/payments?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      all.push(...r.body.payments.map((p: ListedPaymentJson) => p.id));
      if (!r.body.next_cursor) break;
      cursor = r.body.next_cursor;
    }
    expect(new Set(all).size).toBe(all.length);
    const full = await call('GET', '/api/v1/payments?limit=100');
    expect(full.body.payments.map((p: ListedPaymentJson) => p.id)).toEqual(all);
    expect((await call('GET', '/api/v1/payments?status=confirmed')).body.payments).toEqual([]);
    expect((await call('GET', '/api/v1/payments?limit=0')).status).toBe(400);
    expect((await call('GET', '/api/v1/payments?status=paid')).status).toBe(400);
    expect((await call('GET', '/api/v1/payments?cursor=zzz')).status).toBe(400);
  });

  it('cancels an unpaid payment, which the relay then declines with 403', async () => {
    const p = (await call('POST', '/api/v1/payments', { items: [{ type: 'item', id: 'c', name: 'C', count: 1, unit: '3' }] })).body;
    const c = await call('POST', `/api/v1/payments/${p.id}/cancel`);
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ status: 'declined', reason: 'cancelled by vendor', exception: 'cancelled' });
    expect((await call('POST', `/api/v1/payments/${p.id}/cancel`)).status).toBe(409);
    expect((await call('POST', '/api/v1/payments/nope/cancel')).status).toBe(404);
    const pay = await fetch(app.url + '/relay/pay', { method: 'POST', body: JSON.stringify({ id: p.id, tx: '00', relay_token: 'x' }) });
    expect(pay.status).toBe(403);
    expect(await pay.json()).toEqual({ id: p.id, status: 'declined', reason: 'cancelled by vendor' });
    const ev = await call('GET', '/api/v1/events');
    expect(ev.body.events.some((e: EventJson) => e.type === 'payment.declined' && e.payment.id === p.id)).toBe(true);
  });

  it('answers the envelope and status routes with no-store, and 404 for unknown ids', async () => {
    const dc = await fetch(app.url + '/dc/unknown-id');
    expect(dc.status).toBe(404);
    expect(dc.headers.get('cache-control')).toContain('no-store');
    const st = await fetch(app.url + '/relay/status', { method: 'POST', body: JSON.stringify({ id: 'unknown-id' }) });
    expect(st.status).toBe(404);
    expect(await st.json()).toMatchObject({ error: 'not_found' });
  });

  it('answers /relay/pay with 503 (no body) when the chain backend is unavailable', async () => {
    const p = (await call('POST', '/api/v1/payments', { items: [{ type: 'item', id: 'd', name: 'D', count: 1, unit: '3' }] })).body;
    // A well-formed legacy tx paying the right output: reaches the backend step, which is the (not yet built) spv node.
    const { encodeTx, addressToScript } = await import('@/lib/doge');
    const tx = encodeTx({
      version: 1,
      inputs: [{ prevTxid: new Uint8Array(32).fill(1), vout: 0, scriptSig: new Uint8Array(0), sequence: 0xffffffff }],
      outputs: [{ value: 300_000_000n, script: addressToScript(p.payment.outputs[0].address, MAINNET) }],
      locktime: 0,
    } as never);
    const r = await fetch(app.url + '/relay/pay', {
      method: 'POST',
      body: JSON.stringify({ id: p.id, tx: Buffer.from(tx).toString('hex') }),
    });
    expect(r.status).toBe(503);
    expect(await r.text()).toBe('');
  });
});
