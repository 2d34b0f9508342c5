// docs/openapi.yaml against the real server: every documented operation is called
// with valid and invalid requests, every answer (status, content type, required headers, body)
// is checked against the document with a JSON Schema 2020-12 validator, and at the end every
// (method, path, status) the document names must have been exercised. Response schemas are
// closed and list every field the server always sends, so an undocumented or missing field fails.
//
// Two servers: the devnet app (a real payment paid with the wallet SDK, confirmed by a mined
// block), then an app on PostgreSQL with a tiny rate limit and MAX_OPEN_PAYMENTS=1, whose
// database is stopped for the 503 answers and whose budget is spent for the 429 answers.
import { randomBytes } from 'node:crypto';
import type { SMTPServerOptions } from 'smtp-server';
import { startSmtp, type Mail, type TestSmtp } from '../helpers/smtp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveAddress, REGTEST } from '@/lib/doge';
import { testAccount, testXpub, DGUB } from '../helpers/keys';
import { parseKoinu } from '@/lib/money';
import { buildPaymentTx, fetchPayment, readConnectQr, type WalletUtxo } from '@/lib/wallet';
import { MAX_BODY_BYTES } from '@/lib/api/body';
import { startApp, type AppServer } from '../helpers/app-server';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';
import { OpenApiChecker, loadOpenApi, documentedResponses, unresolvedRefs } from '../helpers/openapi';
import { signIn } from '../helpers/sessions';
import type { CreatedPaymentJson } from '../helpers/vendor-client';
import { ticketRoutes, tipWithDisplay, tipWithoutDisplay } from './openapi-cafe-calls';
import type { DemoUtxoJson, ErrorJson, EventJson, Health, InvoiceJson, ListedPaymentJson, SalesReportJson } from '../helpers/json-shapes';

/** A parameter of the document (inline, or a `$ref` to components.parameters). */
/** A payment as POST /api/v1/payments made it (and made.paid with the tx that paid it). */
type MadeJson = CreatedPaymentJson & { txid?: string };
/** A page of GET /api/v1/payments. */
interface PaymentPageJson {
  payments: ListedPaymentJson[];
  next_cursor: string | null;
}
/** A page of GET /api/v1/events. */
interface EventPageJson {
  events: EventJson[];
  next_cursor: string | null;
}
/** POST /relay/status (and /relay/pay): where a payment stands for the wallet. */
interface RelayStatusJson {
  status: string;
  confirmed_at?: string;
}
type ParamJson = { in?: string; name?: string; $ref?: string };
type OperationJson = { parameters?: ParamJson[] };
/** A path item: its shared parameters and one operation per method. */
type PathItemJson = { parameters?: ParamJson[]; [method: string]: unknown };
const doc = loadOpenApi();
const checker = new OpenApiChecker(doc);

const KEY = 'openapi-key-' + randomBytes(12).toString('hex');
const PASSWORD = 'long enough password';
const xpub = testXpub(17);
// An address of someone else (not the store, not the demo wallet). Not the demo wallet's own
// address: a payment to it would share the address that the wallet's change goes to, and one tx
// paying two payments' addresses wedges this branch's chain worker.
const FOREIGN = deriveAddress(testAccount(99), 0, REGTEST);
const UNKNOWN_ID = 'AAAAAAAAAAAAAAAAAAAAAA';
const TOO_BIG = 'x'.repeat(MAX_BODY_BYTES + 1);
let base = '';

interface Call {
  key?: string | null; // default: the bootstrap key; null: no Authorization header
  body?: unknown; // objects are sent as JSON, strings as they are
  query?: string;
  headers?: Record<string, string>;
}

/** One request to a documented operation, checked against the document; the parsed body, read as `T`. */
async function call<T = unknown>(method: string, template: string, params: Record<string, string> = {}, c: Call = {}) {
  const path = template.replace(/\{(\w+)\}/g, (_, k) => encodeURIComponent(params[k]));
  const headers: Record<string, string> = { ...(c.headers ?? {}) };
  const key = c.key === undefined ? KEY : c.key;
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (c.body !== undefined) {
    body = typeof c.body === 'string' ? c.body : JSON.stringify(c.body);
    headers['Content-Type'] = 'application/json';
  }
  const r = await fetch(base + path + (c.query ? `?${c.query}` : ''), { method, headers, body });
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: checker.check<T>(method, template, { status: r.status, headers: r.headers, text }) };
}

const expectStatus = (r: { status: number; body: unknown }, status: number) => expect(r.status, JSON.stringify(r.body)).toBe(status);

/** Opens the SSE stream; returns the checked answer and, for a 200, the events read until `end` or `untilEvents`. */
async function stream(id: string, key: string, untilEvents = Infinity) {
  const ac = new AbortController();
  const r = await fetch(`${base}/api/v1/payments/${id}/events`, { headers: { Authorization: `Bearer ${key}` }, signal: ac.signal });
  if (r.status !== 200) {
    const text = await r.text();
    return {
      status: r.status,
      body: checker.check('GET', '/api/v1/payments/{id}/events', { status: r.status, headers: r.headers, text }),
      events: [],
      abort: () => ac.abort(),
    };
  }
  const events: { event: string; data: Record<string, unknown> }[] = [];
  let text = '';
  if (untilEvents > 0) {
    const reader = r.body!.getReader();
    const dec = new TextDecoder();
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && events.length < untilEvents && !events.some((e) => e.event === 'end')) {
      const { done, value } = await reader.read();
      if (done) break;
      text += dec.decode(value, { stream: true });
      const blocks = text.split('\n\n');
      text = blocks.pop()!;
      for (const b of blocks) {
        const ev = /^event: (.+)$/m.exec(b)?.[1];
        const data = /^data: (.+)$/m.exec(b)?.[1];
        if (ev && data) events.push({ event: ev, data: JSON.parse(data) });
      }
    }
    ac.abort();
  }
  checker.check('GET', '/api/v1/payments/{id}/events', { status: 200, headers: r.headers, text: '' });
  return { status: 200, body: null, events, abort: () => ac.abort() };
}

describe('openapi: the document', () => {
  it('is OpenAPI 3.1.0 whose refs resolve and whose schemas compile as strict JSON Schema 2020-12', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(unresolvedRefs(doc)).toEqual([]);
    expect(checker.compileAll()).toEqual(
      expect.arrayContaining(['Payment', 'PaymentStatus', 'ConnectEnvelope', 'ConnectPayment', 'Error', 'Event', 'Invoice', 'Health']),
    );
    for (const [path, item] of Object.entries<PathItemJson>(doc.paths)) {
      for (const name of path.match(/\{\w+\}/g) ?? []) {
        const declared = [
          ...(item.parameters ?? []),
          ...Object.values(item).flatMap((op) => (op as OperationJson | undefined)?.parameters ?? []),
        ]
          .map((p: ParamJson): ParamJson => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!] : p))
          .some((p: ParamJson) => p.in === 'path' && `{${p.name}}` === name);
        expect(declared, `${path} declares ${name}`).toBe(true);
      }
    }
  });
});

describe('openapi: the devnet app', () => {
  let app: AppServer;
  let till = ''; // payments:read + payments:write
  let nodeOnly = ''; // node:read only
  let wallet: { address: string; wif: string; utxos: WalletUtxo[] };
  const made: Record<string, MadeJson> = {};
  let owner: Record<string, string> = {}; // the signed-in owner's cookie and CSRF headers
  // A real SMTP server for the receipts: it takes mail for anyone but refuse@example.com (550).
  const inbox: Mail[] = [];
  let smtp: TestSmtp;
  const refuseOne: Partial<SMTPServerOptions> = {
    onRcptTo(a, _s, cb) {
      if (a.address === 'refuse@example.com') return cb(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      cb();
    },
  };
  const settings = (body: Record<string, unknown>) =>
    fetch(`${app.url}/api/admin/settings`, { method: 'PATCH', headers: owner, body: JSON.stringify(body) });

  async function demoWallet() {
    const w = await (await fetch(app.url + '/demo/api/wallet')).json();
    return {
      ...w,
      utxos: w.utxos.map((u: DemoUtxoJson) => ({ txid: u.txid, vout: u.vout, amount: parseKoinu(u.amount), script: u.script })),
    };
  }
  const create = async (body: Record<string, unknown>, key = KEY) => {
    const r = await call<MadeJson>('POST', '/api/v1/payments', {}, { key, body });
    expectStatus(r, 201);
    return r.body;
  };
  const coffee = (unit = '10.5') => ({ items: [{ type: 'item', id: 'SKU-1', name: 'Coffee', count: 2, unit, tax: '1.05' }] });

  beforeAll(async () => {
    smtp = await startSmtp(inbox, refuseOne);
    app = await startApp({
      DOGE_NETWORK: 'regtest',
      CHAIN_BACKEND: 'devnet',
      DEVNET_BLOCK_SECONDS: '0',
      STORE_XPUB: xpub,
      BOOTSTRAP_API_KEY: KEY,
      ADMIN_EMAIL: 'owner@shop.test',
      ADMIN_PASSWORD: PASSWORD,
      RECEIPT_EMAILS_PER_PAYMENT: '3',
    });
    base = app.url;
    const session = await signIn(app.url, 'owner@shop.test', PASSWORD);
    owner = { Cookie: session.cookie, 'X-CSRF-Token': session.csrf, 'Content-Type': 'application/json' };
    const key = async (scopes: string[]) => {
      const r = await fetch(`${app.url}/api/admin/api-keys`, {
        method: 'POST',
        headers: owner,
        body: JSON.stringify({ name: scopes.join(' '), scopes }),
      });
      expect(r.status).toBe(201);
      return (await r.json()).secret as string;
    };
    till = await key(['payments:read', 'payments:write']);
    nodeOnly = await key(['node:read']);
    wallet = await demoWallet();
  }, 180_000);
  afterAll(async () => {
    await app?.stop();
    await smtp.close();
  });

  it('GET /api/health', async () => {
    const r = await call<Health>('GET', '/api/health', {}, { key: null });
    expectStatus(r, 200);
    expect(r.body).toMatchObject({ ok: true, network: 'regtest', backend: 'devnet', db: 'pglite' });
    expect(typeof r.body.ready).toBe('boolean');
    expect(r.body.ready).toBe(r.body.problems.length === 0);
  });

  it('POST /api/v1/payments: 201, idempotent replay, 400, 401, 403, 409, 413', async () => {
    made.full = await create({
      items: [
        { type: 'item', id: 'SKU-1', name: 'Coffee', count: 2, unit: '10.5', tax: '1.05' },
        { type: 'fee', id: 'svc', name: 'Service', count: 1, unit: '1' },
        { type: 'signing', id: 'stamp', name: 'Loyalty stamp' },
      ],
      outputs: [{ type: 'data', data: '68656c6c6f' }],
      vendor_order_id: 'INV-42',
      order_reference: 'A073',
      note: 'Thanks!',
      fiat_total: '5.00',
      fiat_tax: '0.23',
      fiat_currency: 'USD',
      timeout: 900,
      meta: { 'com.example.table': '7' },
    });
    expect(made.full).toMatchObject({ status: 'unpaid', total: '23.05' });
    // The customer's own page (docs/using-counter.md#the-customers-checkout-page-checkoutid), on this server.
    expect(made.full.checkout_url).toBe(`${app.url}/checkout/${made.full.id}`);

    const idem = { 'Idempotency-Key': 'order-' + randomBytes(4).toString('hex') };
    const first = await call('POST', '/api/v1/payments', {}, { body: coffee(), headers: idem });
    const again = await call('POST', '/api/v1/payments', {}, { body: coffee(), headers: idem });
    expectStatus(again, 201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expectStatus(await call('POST', '/api/v1/payments', {}, { body: coffee('11'), headers: idem }), 409);

    for (const body of [{ items: [{ type: 'coupon', id: 'x', name: 'x', count: 1, unit: '1' }] }, 'not json', { items: [] }]) {
      const r = await call('POST', '/api/v1/payments', {}, { body });
      expectStatus(r, 400);
    }
    expectStatus(
      await call('POST', '/api/v1/payments', {}, { body: coffee(), headers: { 'Idempotency-Key': 'bad key with spaces' } }),
      400,
    );
    expectStatus(await call('POST', '/api/v1/payments', {}, { key: null, body: coffee() }), 401);
    expectStatus(await call('POST', '/api/v1/payments', {}, { key: 'not-a-key', body: coffee() }), 401);
    expectStatus(await call('POST', '/api/v1/payments', {}, { key: nodeOnly, body: coffee() }), 403);
    expectStatus(await call('POST', '/api/v1/payments', {}, { body: TOO_BIG }), 413);
  });

  it('POST /api/v1/payments: p2pkh outputs to another address need payments:outputs', async () => {
    const r = await call<ErrorJson>(
      'POST',
      '/api/v1/payments',
      {},
      { key: till, body: { ...coffee(), outputs: [{ type: 'p2pkh', address: FOREIGN, amount: '22.05' }] } },
    );
    expectStatus(r, 403);
    expect(r.body.message).toMatch(/outputs/);
  });

  it('POST /api/v1/payments: required_confirmations below the policy needs payments:policy', async () => {
    const r = await call<ErrorJson>('POST', '/api/v1/payments', {}, { key: till, body: { ...coffee(), required_confirmations: 0 } });
    expectStatus(r, 403);
    expect(r.body.message).toMatch(/required_confirmations/);
  });

  it('GET /api/v1/payments: pages with cursors; 400, 401, 403', async () => {
    const p1 = await call<PaymentPageJson>('GET', '/api/v1/payments', {}, { query: 'limit=1' });
    expectStatus(p1, 200);
    expect(p1.body.payments).toHaveLength(1);
    expect(p1.body.next_cursor).toEqual(expect.any(String));
    const p2 = await call<PaymentPageJson>(
      'GET',
      '/api/v1/payments',
      {},
      { query: `limit=100&status=unpaid&cursor=${encodeURIComponent(p1.body.next_cursor ?? '')}` },
    );
    expectStatus(p2, 200);
    expect(p2.body.payments.map((p: ListedPaymentJson) => p.id)).not.toContain(p1.body.payments[0].id);
    expect(p2.body.next_cursor).toBeNull();
    expectStatus(await call('GET', '/api/v1/payments', {}, { query: 'limit=0' }), 400);
    expectStatus(await call('GET', '/api/v1/payments', {}, { query: 'cursor=bogus' }), 400);
    expectStatus(await call('GET', '/api/v1/payments', {}, { key: null }), 401);
    expectStatus(await call('GET', '/api/v1/payments', {}, { key: nodeOnly }), 403);
  });

  it('GET /api/v1/payments/{id}: 200, 401, 403, 404', async () => {
    const r = await call<MadeJson>('GET', '/api/v1/payments/{id}', { id: made.full.id });
    expectStatus(r, 200);
    expect(r.body.payment).toEqual(made.full.payment);
    expect(r.body.checkout_url).toBe(made.full.checkout_url);
    expectStatus(await call('GET', '/api/v1/payments/{id}', { id: made.full.id }, { key: null }), 401);
    expectStatus(await call('GET', '/api/v1/payments/{id}', { id: made.full.id }, { key: nodeOnly }), 403);
    expectStatus(await call('GET', '/api/v1/payments/{id}', { id: UNKNOWN_ID }), 404);
    expect(r.body).toMatchObject({ amount_paid: '0', amount_due: '23.05', txids: [], decision: null });
    expect(r.body).toMatchObject({ amount_refunded: '0', refunds: [], rate: null, fiat_total: '5.00', fiat_currency: 'USD' });
  });

  it('GET /dc/{id}: the signed envelope; 404', async () => {
    const r = await call<{ payload: string }>('GET', '/dc/{id}', { id: made.full.id }, { key: null });
    expectStatus(r, 200);
    expect(JSON.parse(Buffer.from(r.body.payload, 'base64').toString('utf8'))).toEqual(made.full.payment);
    expectStatus(await call('GET', '/dc/{id}', { id: UNKNOWN_ID }, { key: null }), 404);
    expectStatus(await call('GET', '/dc/{id}', { id: 'not an id!' }, { key: null }), 404);
  });

  it('POST /api/v1/payments/{id}/cancel: 200, 409, 401, 403, 404, 413; then /relay/pay answers 403', async () => {
    made.cancelled = await create(coffee('3'));
    expectStatus(await call('POST', '/api/v1/payments/{id}/cancel', { id: made.cancelled.id }, { key: null }), 401);
    expectStatus(await call('POST', '/api/v1/payments/{id}/cancel', { id: made.cancelled.id }, { key: nodeOnly }), 403);
    expectStatus(await call('POST', '/api/v1/payments/{id}/cancel', { id: made.cancelled.id }, { body: TOO_BIG }), 413);
    const r = await call('POST', '/api/v1/payments/{id}/cancel', { id: made.cancelled.id });
    expectStatus(r, 200);
    expect(r.body).toMatchObject({ status: 'declined', reason: 'cancelled by vendor', exception: 'cancelled' });
    expectStatus(await call('POST', '/api/v1/payments/{id}/cancel', { id: made.cancelled.id }), 409);
    expectStatus(await call('POST', '/api/v1/payments/{id}/cancel', { id: UNKNOWN_ID }), 404);

    const pay = await call('POST', '/relay/pay', {}, { key: null, body: { id: made.cancelled.id, tx: '00' } });
    expectStatus(pay, 403);
    expect(pay.body).toEqual({ id: made.cancelled.id, status: 'declined', reason: 'cancelled by vendor' });
  });

  it('POST /relay/status: 200 unpaid; 404; 413', async () => {
    const r = await call('POST', '/relay/status', {}, { key: null, body: { id: made.full.id } });
    expectStatus(r, 200);
    expect(r.body).toEqual({ id: made.full.id, status: 'unpaid' });
    expectStatus(await call('POST', '/relay/status', {}, { key: null, body: { id: UNKNOWN_ID } }), 404);
    expectStatus(await call('POST', '/relay/status', {}, { key: null, body: {} }), 404);
    expectStatus(await call('POST', '/relay/status', {}, { key: null, body: TOO_BIG }), 413);
  });

  it('POST /relay/pay: refusals (400, 404, 413), a real payment from the wallet SDK (200), idempotent repeat, confirmed after a block', async () => {
    const p = made.full;
    const verified = await fetchPayment(readConnectQr(p.connect_uri), { allowHttp: true });
    const tx = buildPaymentTx(verified.payment, { network: 'regtest', utxos: wallet.utxos, keys: [wallet.wif] });
    const sub = { id: p.id, tx: tx.hex, refund: wallet.address };
    const refusals: [unknown, number, string][] = [
      ['not json', 400, 'invalid_tx'],
      [{ ...sub, relay_token: 'wrong', tx: 'zz' }, 400, 'invalid_tx'], // a relay_token is ignored
      [{ ...sub, tx: 'zz' }, 400, 'invalid_tx'],
      [{ ...sub, id: undefined }, 404, 'not_found'],
      [{ ...sub, id: UNKNOWN_ID }, 404, 'not_found'],
      [TOO_BIG, 413, 'invalid_tx'],
    ];
    for (const [body, status, code] of refusals) {
      const r = await call<ErrorJson>('POST', '/relay/pay', {}, { key: null, body });
      expectStatus(r, status);
      expect(r.body.error).toBe(code);
    }
    // the tx of this payment offered to another one misses that one's output
    const other = await create(coffee('4'));
    const wrong = await call<ErrorJson>('POST', '/relay/pay', {}, { key: null, body: { ...sub, id: other.id } });
    expectStatus(wrong, 400);
    expect(wrong.body.error).toBe('invalid_outputs');

    const ok = await call('POST', '/relay/pay', {}, { key: null, body: sub });
    expectStatus(ok, 200);
    expect(ok.body).toEqual({ id: p.id, status: 'accepted', txid: tx.txid, required: 1, confirmed: 0, due_sec: 60 });
    const repeat = await call('POST', '/relay/pay', {}, { key: null, body: sub });
    expectStatus(repeat, 200);
    expect(repeat.body).toEqual(ok.body);

    expect((await fetch(app.url + '/demo/api/mine', { method: 'POST', body: JSON.stringify({ blocks: 1 }) })).status).toBe(200);
    let st!: Awaited<ReturnType<typeof call<RelayStatusJson>>>;
    for (let i = 0; i < 150; i++) {
      st = await call<RelayStatusJson>('POST', '/relay/status', {}, { key: null, body: { id: p.id } });
      if (st.body.status === 'confirmed') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(st.body).toMatchObject({ id: p.id, status: 'confirmed', txid: tx.txid, due_sec: 0 });
    const vendor = await call('GET', '/api/v1/payments/{id}', { id: p.id });
    expect(vendor.body).toMatchObject({
      status: 'confirmed',
      txid: tx.txid,
      refund_address: wallet.address,
      confirmed_at: st.body.confirmed_at,
    });
    made.paid = { ...p, txid: tx.txid };
  });

  it('POST /api/v1/payments/{id}/mark: 200 settled with the decision kept; 400, 401, 403, 404, 409, 413', async () => {
    const p = await create(coffee('7'));
    const path = '/api/v1/payments/{id}/mark';
    expectStatus(await call('POST', path, { id: p.id }, { key: null, body: { as: 'settled' } }), 401);
    expectStatus(await call('POST', path, { id: p.id }, { key: nodeOnly, body: { as: 'settled' } }), 403);
    expectStatus(await call('POST', path, { id: p.id }, { body: TOO_BIG }), 413);
    for (const body of [{ as: 'maybe' }, { as: 'settled', note: 'a\u0000b' }, { as: 'settled', extra: 1 }, 'not json']) {
      const r = await call<ErrorJson>('POST', path, { id: p.id }, { body });
      expectStatus(r, 400);
      expect(r.body.error).toBe('invalid_request');
    }
    expectStatus(await call('POST', path, { id: UNKNOWN_ID }, { body: { as: 'settled' } }), 404);
    const r = await call<{ decision: unknown }>(
      'POST',
      path,
      { id: p.id },
      { body: { as: 'settled', note: 'paid in cash at the counter' } },
    );
    expectStatus(r, 200);
    expect(r.body).toMatchObject({ id: p.id, status: 'confirmed', exception: 'marked_settled' });
    expect(JSON.stringify(r.body.decision)).toContain('paid in cash at the counter');
    expectStatus(await call('POST', path, { id: p.id }, { body: { as: 'invalid' } }), 409);
  });

  it('GET /api/v1/reports/sales: JSON and CSV; 400, 401, 403', async () => {
    const reporter = await (async () => {
      const r = await fetch(`${app.url}/api/admin/api-keys`, {
        method: 'POST',
        headers: owner,
        body: JSON.stringify({ name: 'reports', scopes: ['reports:read'] }),
      });
      expect(r.status).toBe(201);
      return (await r.json()).secret as string;
    })();
    const day = new Date().toISOString().slice(0, 10);
    const next = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const r = await call<SalesReportJson>('GET', '/api/v1/reports/sales', {}, { key: reporter, query: `from=${day}&to=${next}&tz=UTC` });
    expectStatus(r, 200);
    expect(r.body).toMatchObject({ tz: 'UTC', scope: 'store' });
    expect(r.body.totals.count).toBeGreaterThanOrEqual(2); // the paid coffee and the settled one
    const csv = await call<string>(
      'GET',
      '/api/v1/reports/sales',
      {},
      { key: reporter, query: `from=${day}&to=${next}&tz=UTC&format=csv` },
    );
    expectStatus(csv, 200);
    expect(csv.body.split('\r\n')[0]).toMatch(/^payment_id,/);
    expectStatus(await call('GET', '/api/v1/reports/sales', {}, { key: reporter, query: 'format=xml' }), 400);
    expectStatus(await call('GET', '/api/v1/reports/sales', {}, { key: reporter, query: 'from=2026-02-30&to=2026-03-02' }), 400);
    expectStatus(await call('GET', '/api/v1/reports/sales', {}, { key: null }), 401);
    expectStatus(await call('GET', '/api/v1/reports/sales', {}, { key: till }), 403);
  });

  it('GET /api/v1/rates: 503 rate_unavailable with no source; 401, 403', async () => {
    // this app has no RATE_SOURCES: nothing is fresh
    const none = await call<ErrorJson>('GET', '/api/v1/rates');
    expectStatus(none, 503);
    expect(none.body.error).toBe('rate_unavailable');
    expectStatus(await call('GET', '/api/v1/rates', {}, { key: null }), 401);
    expectStatus(await call('GET', '/api/v1/rates', {}, { key: nodeOnly }), 403);
  });

  it('POST /api/v1/payments/{id}/receipt: 202 through a real SMTP server; 502 refused; 503 without SMTP; 400, 401, 403, 404, 409, 413, 429', async () => {
    const path = '/api/v1/payments/{id}/receipt';
    const id = made.paid.id;
    const unpaid = await create(coffee('8'));
    expectStatus(await call('POST', path, { id }, { body: { email: 'ann@example.com' } }), 503); // no SMTP yet
    const set = await settings({
      smtp_url: smtp.url,
      smtp_from: 'Shop <receipts@shop.example>',
    });
    expect(set.status, await set.text()).toBe(200);
    const sent = await call('POST', path, { id }, { body: { email: 'ann@example.com' } });
    expectStatus(sent, 202);
    expect(sent.body).toMatchObject({ sent: true, to: 'ann@example.com' });
    const refused = await call<ErrorJson>('POST', path, { id }, { body: { email: 'refuse@example.com' } });
    expectStatus(refused, 502);
    expect(refused.body.message).toMatch(/Mailbox unavailable/);
    expectStatus(await call('POST', path, { id }, { key: null, body: { email: 'ann@example.com' } }), 401);
    expectStatus(await call('POST', path, { id }, { key: nodeOnly, body: { email: 'ann@example.com' } }), 403);
    expectStatus(await call('POST', path, { id }, { body: 'x'.repeat(5000) }), 413);
    expectStatus(await call('POST', path, { id }, { body: { email: 'not an address' } }), 400);
    expectStatus(await call('POST', path, { id: UNKNOWN_ID }, { body: { email: 'ann@example.com' } }), 404);
    expectStatus(await call('POST', path, { id: unpaid.id }, { body: { email: 'ann@example.com' } }), 409);
    const third = await call('POST', path, { id }, { body: { email: 'ann@example.com' } }); // RECEIPT_EMAILS_PER_PAYMENT=3
    expectStatus(third, 202);
    const limited = await call('POST', path, { id }, { body: { email: 'ann@example.com' } });
    expectStatus(limited, 429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('POST /relay/pay: a tx whose inputs do not exist is 400 invalid_tx and the payment stays payable', async () => {
    const p = await create(coffee('5'));
    const fake: WalletUtxo = { txid: 'ab'.repeat(32), vout: 0, amount: 1_000_000_000_000n, script: (await demoWallet()).utxos[0].script };
    const tx = buildPaymentTx(p.payment, { network: 'regtest', utxos: [fake], keys: [wallet.wif] });
    const r = await call<ErrorJson>('POST', '/relay/pay', {}, { key: null, body: { id: p.id, tx: tx.hex } });
    const after = await call('POST', '/relay/status', {}, { key: null, body: { id: p.id } });
    expect(r.body.error).toBe('invalid_tx');
    expect(after.body).toEqual({ id: p.id, status: 'unpaid' });
  });

  it('GET /api/v1/events: the log, after a cursor; 400, 401, 403', async () => {
    const all = await call<EventPageJson>('GET', '/api/v1/events');
    expectStatus(all, 200);
    const types = all.body.events.map((e: EventJson) => `${e.type} ${e.payment.id}`);
    expect(types).toEqual(
      expect.arrayContaining([
        `payment.declined ${made.cancelled.id}`,
        `payment.accepted ${made.paid.id}`,
        `payment.confirmed ${made.paid.id}`,
      ]),
    );
    const first = all.body.events[0].cursor;
    const rest = await call<EventPageJson>('GET', '/api/v1/events', {}, { query: `after=${first}&limit=500` });
    expectStatus(rest, 200);
    expect(rest.body.events.map((e: EventJson) => e.cursor)).toEqual(all.body.events.slice(1).map((e: EventJson) => e.cursor));
    expect(rest.body.next_cursor).toBe(all.body.next_cursor);
    expectStatus(await call('GET', '/api/v1/events', {}, { query: 'after=abc' }), 400);
    expectStatus(await call('GET', '/api/v1/events', {}, { query: 'limit=501' }), 400);
    expectStatus(await call('GET', '/api/v1/events', {}, { key: null }), 401);
    expectStatus(await call('GET', '/api/v1/events', {}, { key: nodeOnly }), 403);
  });

  it('GET /api/v1/payments/{id}/events: the stream of a confirmed payment ends; 401, 403, 404', async () => {
    const s = await stream(made.paid.id, KEY);
    expect(s.events.map((e) => e.event)).toEqual(['payment', 'end']);
    checker.validateSchema('Payment', s.events[0].data, 'the `payment` event');
    expect(s.events[0].data).toMatchObject({ id: made.paid.id, status: 'confirmed' });
    expect(s.events[1].data).toEqual({ reason: 'final' });
    expect((await stream(made.paid.id, 'not-a-key')).status).toBe(401);
    expect((await stream(made.paid.id, nodeOnly)).status).toBe(403);
    expect((await stream(UNKNOWN_ID, KEY)).status).toBe(404);
  });

  it("GET /api/v1/payments/{id}/events: a user's 11th stream gets 429", async () => {
    const p = await create(coffee('6'), till);
    const held: { abort(): void }[] = [];
    try {
      const first = await stream(p.id, till, 1); // reads the first `payment` event, then closes
      expect(first.status).toBe(200);
      checker.validateSchema('Payment', first.events[0].data, 'the `payment` event');
      for (let i = 0; i < 10; i++) {
        const s = await stream(p.id, till, 0); // held open
        held.push(s);
        expect(s.status).toBe(200);
      }
      const eleventh = await stream(p.id, till, 0);
      held.push(eleventh);
      expect(eleventh.status).toBe(429);
    } finally {
      for (const s of held) s.abort();
    }
  });

  it("GET /invoices/{address}: the buyer's paid invoice; 400, 401, 403", async () => {
    const r = await call<{ total: number; invoices: InvoiceJson[] }>(
      'GET',
      '/invoices/{address}',
      { address: wallet.address },
      { query: 'limit=10&page=0' },
    );
    expectStatus(r, 200);
    expect(r.body).toMatchObject({ limit: 10, page: 0 });
    expect(r.body.invoices.find((i: InvoiceJson) => i.id === made.paid.id)).toMatchObject({
      id: made.paid.id,
      buyer_address: wallet.address,
      transaction_hash: made.paid.txid,
      price: 23.05,
      quantity: 2,
      paid_at: { valid: true },
    });
    const past = await call('GET', '/invoices/{address}', { address: wallet.address }, { query: 'page=5' });
    expect(past.body).toMatchObject({ invoices: [], total: r.body.total, page: 5, limit: 100 });
    expectStatus(await call('GET', '/invoices/{address}', { address: 'not-an-address' }), 400);
    expectStatus(await call('GET', '/invoices/{address}', { address: wallet.address }, { query: 'limit=101' }), 400);
    expectStatus(await call('GET', '/invoices/{address}', { address: wallet.address }, { key: null }), 401);
    expectStatus(await call('GET', '/invoices/{address}', { address: wallet.address }, { key: till }), 403);
  });

  it("POST and GET /api/v1/payments/{id}/refunds: 201 to the submission's refund address, 400, 401, 403, 404, 409, 413; 200; the refund answers /relay/status and /dc", async () => {
    const id = made.paid.id;
    const path = '/api/v1/payments/{id}/refunds';
    const r = await call<{ id: string }>('POST', path, { id }, { body: { amount: '1.5', reason: 'one coffee was cold' } });
    expectStatus(r, 201);
    expect(r.body).toMatchObject({
      payment_id: id,
      status: 'unpaid',
      amount: '1.5',
      address: wallet.address,
      reason: 'one coffee was cold',
    });
    for (const body of [
      { amount: '1.123456789' },
      { amount: '1', fiat_amount: '1' },
      { reason: 'a\u0000b' },
      { address: 'not-an-address' },
      'not json',
    ]) {
      const bad = await call('POST', path, { id }, { body });
      expectStatus(bad, 400);
    }
    expectStatus(await call('POST', path, { id }, { key: null, body: {} }), 401);
    expectStatus(await call('POST', path, { id }, { key: till, body: {} }), 403);
    expectStatus(await call('POST', path, { id: UNKNOWN_ID }, { body: {} }), 404);
    expectStatus(await call('POST', path, { id }, { body: { amount: '100' } }), 409);
    expectStatus(await call('POST', path, { id }, { body: TOO_BIG }), 413);
    const list = await call('GET', path, { id });
    expectStatus(list, 200);
    expect(list.body).toEqual({ payment_id: id, amount_refunded: '0', refunds: [r.body] });
    expectStatus(await call('GET', path, { id }, { key: null }), 401);
    expectStatus(await call('GET', path, { id }, { key: nodeOnly }), 403);
    expectStatus(await call('GET', path, { id: UNKNOWN_ID }), 404);
    expect((await call('GET', '/api/v1/payments/{id}', { id })).body).toMatchObject({ amount_refunded: '0', refunds: [r.body] });
    const st = await call('POST', '/relay/status', {}, { key: null, body: { id: r.body.id } });
    expect(st.body).toEqual({ id: r.body.id, status: 'unpaid' });
    expectStatus(await call('GET', '/dc/{id}', { id: r.body.id }, { key: null }), 200);
    // A refund made by mistake is cancelled through the cancel route, with scope payments:refund.
    expectStatus(await call('POST', '/api/v1/payments/{id}/cancel', { id: r.body.id }, { key: till }), 403);
    const cancelled = await call('POST', '/api/v1/payments/{id}/cancel', { id: r.body.id });
    expectStatus(cancelled, 200);
    expect(cancelled.body).toEqual({ ...r.body, status: 'declined' });
    expectStatus(await call('POST', '/api/v1/payments/{id}/cancel', { id: r.body.id }), 409);
  });
  it('open tickets: 200, 201, 204, 400, 401, 403, 404, 409', async () => {
    await ticketRoutes(call, owner);
  });
  it('the customer display: pairing code, published cart, pairing, status and stream; 200, 201, 204, 400, 401, 403, 413, 429', async () => {
    const reg = await fetch(`${app.url}/api/admin/terminals`, {
      method: 'POST',
      headers: owner,
      body: JSON.stringify({ name: 'OpenAPI till' }),
    });
    expect(reg.status).toBe(201);
    const terminal = reg.headers
      .getSetCookie()
      .find((c) => c.startsWith('counter_terminal='))!
      .split(';')[0];
    const tillHeaders = { Cookie: `${owner.Cookie}; ${terminal}`, 'X-CSRF-Token': owner['X-CSRF-Token'] };
    const anon = { key: null };

    const pairing = '/api/pos/display/pairing';
    const code = await call<{ code: string }>('POST', pairing, {}, { key: null, headers: tillHeaders, body: {} });
    expectStatus(code, 201);
    expectStatus(await call('POST', pairing, {}, { key: null, headers: { Cookie: terminal }, body: {} }), 401);
    expectStatus(
      await call('POST', pairing, {}, { key: null, headers: { Cookie: owner.Cookie, 'X-CSRF-Token': owner['X-CSRF-Token'] }, body: {} }),
      403,
    );

    const cartPath = '/api/pos/display/cart';
    const cartBody = {
      currency: 'DOGE',
      lines: [{ name: 'Coffee', count: 2, total: '2100000000' }],
      adjustments: [],
      total: '2100000000',
      payment_id: null,
    };
    expectStatus(await call('PUT', cartPath, {}, { key: null, headers: tillHeaders, body: cartBody }), 204);
    expectStatus(await call('PUT', cartPath, {}, { key: null, headers: tillHeaders, body: {} }), 400);
    expectStatus(
      await call('PUT', cartPath, {}, { key: null, headers: tillHeaders, body: JSON.stringify(cartBody).padEnd(65 * 1024) }),
      413,
    );
    expectStatus(await call('PUT', cartPath, {}, { key: null, headers: { Cookie: terminal }, body: cartBody }), 401);
    expectStatus(
      await call(
        'PUT',
        cartPath,
        {},
        { key: null, headers: { Cookie: owner.Cookie, 'X-CSRF-Token': owner['X-CSRF-Token'] }, body: cartBody },
      ),
      403,
    );

    await tipWithoutDisplay(call, tillHeaders);
    const pair = '/api/display/pair';
    const paired = await call('POST', pair, {}, { ...anon, body: { code: code.body.code } });
    expectStatus(paired, 200);
    const display = paired.headers
      .getSetCookie()
      .find((c) => c.startsWith('counter_display='))!
      .split(';')[0];
    expectStatus(await call('POST', pair, {}, { ...anon, body: {} }), 400);
    expectStatus(await call('POST', pair, {}, { ...anon, headers: { Origin: 'http://evil.test' }, body: { code: 'AAAA-AAAA' } }), 403);

    expectStatus(await call('GET', '/api/display', {}, { key: null, headers: { Cookie: display } }), 200);
    expectStatus(await call('GET', '/api/display', {}, { key: null }), 401);
    expectStatus(await call('GET', '/api/display/events', {}, { key: null }), 401);
    const ac = new AbortController();
    const live = await fetch(`${base}/api/display/events`, { headers: { Cookie: display }, signal: ac.signal });
    expect(live.status).toBe(200);
    const reader = live.body!.getReader();
    let text = '';
    while (!/\n\n$/.test(text) || !text.includes('event: display')) {
      const { done, value } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    ac.abort();
    checker.check('GET', '/api/display/events', { status: 200, headers: live.headers, text: '' });
    const state = JSON.parse(/^event: display\ndata: (.*)$/m.exec(text)![1]);
    checker.validateSchema('DisplayState', state, 'the `display` event');
    expect(state.cart.lines).toEqual(cartBody.lines);
    const sessionOnly = { Cookie: owner.Cookie, 'X-CSRF-Token': owner['X-CSRF-Token'] };
    await tipWithDisplay(call, tillHeaders, { Cookie: terminal }, sessionOnly, display);

    // Wrong codes from one client: 401, then from the 5th failure 429 with Retry-After.
    for (let i = 0; i < 5; i++) expectStatus(await call('POST', pair, {}, { ...anon, body: { code: `AAAA-AAA${i}` } }), 401);
    expectStatus(await call('POST', pair, {}, { ...anon, body: { code: 'AAAA-AAAA' } }), 429);
    // A till over its publishing budget (10 a second, bursts of 30): waves of 100 at once until one
    // is refused (a loaded machine may serve a wave slower than the budget refills).
    const statuses: number[] = [];
    for (let wave = 0; wave < 10 && !statuses.includes(429); wave++) {
      const burst = await Promise.all(
        Array.from({ length: 100 }, () => call('PUT', cartPath, {}, { key: null, headers: tillHeaders, body: cartBody })),
      );
      statuses.push(...burst.map((r) => r.status));
    }
    expect(statuses).toContain(429);
  });

  it('GET and POST /api/admin/products/{productId}/stock: 200; 400, 401, 403, 404, 409 (docs/catalog.md#stock)', async () => {
    const made = await fetch(`${app.url}/api/admin/products`, {
      method: 'POST',
      headers: owner,
      body: JSON.stringify({ sku: 'OA-STOCK', name: 'Beans', price: '1', stock: 4 }),
    });
    expect(made.status).toBe(201);
    const productId = (await made.json()).id as string;
    const untracked = (
      await (
        await fetch(`${app.url}/api/admin/products`, {
          method: 'POST',
          headers: owner,
          body: JSON.stringify({ sku: 'OA-UNT', name: 'Bag', price: '1' }),
        })
      ).json()
    ).id as string;
    const u = await fetch(`${app.url}/api/admin/users`, {
      method: 'POST',
      headers: owner,
      body: JSON.stringify({ email: 'cashier-oa@shop.test', password: PASSWORD, role: 'cashier' }),
    });
    expect(u.status).toBe(201);
    const c = await signIn(app.url, 'cashier-oa@shop.test', PASSWORD);
    const cashier = { Cookie: c.cookie, 'X-CSRF-Token': c.csrf };
    const path = '/api/admin/products/{productId}/stock';
    const got = await call('GET', path, { productId }, { key: null, headers: owner });
    expectStatus(got, 200);
    expect(got.body).toMatchObject({
      stock: 4,
      low_stock: 0,
      movements: [{ delta: 4, reason: 'count', user: 'owner@shop.test', payment_id: null }],
    });
    const adj = await call<{ stock: number }>(
      'POST',
      path,
      { productId },
      { key: null, headers: owner, body: { delta: 6, reason: 'received', note: 'delivery' } },
    );
    expectStatus(adj, 200);
    expect(adj.body.stock).toBe(10);
    expectStatus(
      await call('POST', path, { productId }, { key: null, headers: owner, body: { delta: 1, count: 1, reason: 'count' } }),
      400,
    );
    expectStatus(await call('GET', path, { productId }, { key: null }), 401);
    expectStatus(await call('POST', path, { productId }, { key: null, body: { delta: 1, reason: 'other' } }), 401);
    expectStatus(await call('GET', path, { productId }, { key: null, headers: cashier }), 403);
    expectStatus(await call('POST', path, { productId }, { key: null, headers: cashier, body: { delta: 1, reason: 'other' } }), 403);
    expectStatus(await call('GET', path, { productId: 'nope' }, { key: null, headers: owner }), 404);
    expectStatus(await call('POST', path, { productId: 'nope' }, { key: null, headers: owner, body: { delta: 1, reason: 'other' } }), 404);
    expectStatus(
      await call('POST', path, { productId: untracked }, { key: null, headers: owner, body: { delta: 1, reason: 'received' } }),
      409,
    );
  });
});

describe('openapi: an app on PostgreSQL, rate-limited, with MAX_OPEN_PAYMENTS=1', () => {
  const BUYER = 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L'; // a valid mainnet address
  let pg: PgServer;
  let app: AppServer;
  let paymentId = '';

  beforeAll(async () => {
    pg = await startPostgres();
    const url = await createDatabase(pg, 'openapi');
    app = await startApp({
      STORE_XPUB: DGUB,
      BOOTSTRAP_API_KEY: KEY,
      DATABASE_URL: url,
      RATE_LIMIT_RPS: '0.001',
      RATE_LIMIT_BURST: '20',
      MAX_OPEN_PAYMENTS: '1',
      RATE_SOURCES: 'fixed:0.125',
      RATE_REFRESH_SEC: '1',
    });
    base = app.url;
  }, 180_000);
  afterAll(async () => {
    await app?.stop();
    await pg?.stop();
  });

  it('POST /api/v1/payments beyond MAX_OPEN_PAYMENTS gets 429', async () => {
    const body = { items: [{ type: 'item', id: 'T', name: 'Tea', count: 1, unit: '3' }] };
    const first = await call<{ id: string }>('POST', '/api/v1/payments', {}, { body });
    expectStatus(first, 201);
    paymentId = first.body.id;
    const second = await call<ErrorJson>('POST', '/api/v1/payments', {}, { body });
    expectStatus(second, 429);
    expect(second.body.error).not.toBe('rate_limited');
  });

  it('GET /api/v1/rates: 200, the fixed rate in force', async () => {
    let r = await call('GET', '/api/v1/rates');
    for (let i = 0; i < 3 && r.status === 503; i++) {
      await new Promise((res) => setTimeout(res, 1500)); // the first refresh
      r = await call('GET', '/api/v1/rates');
    }
    expectStatus(r, 200);
    expect(r.body).toMatchObject({ value: '0.125', sources: [{ name: 'fixed:0.125', value: '0.125', ok: true, error: '' }] });
  });

  it('answers 503 everywhere while the database is down (health with ok: false, the rest without a body)', async () => {
    pg.pause();
    const health = await call('GET', '/api/health', {}, { key: null });
    expectStatus(health, 503);
    expect(health.body).toMatchObject({ ok: false, db: 'postgresql' });
    const id = { id: paymentId };
    const calls: [string, string, Record<string, string>, Call][] = [
      ['POST', '/api/v1/payments', {}, { body: { items: [{ type: 'item', id: 'T', name: 'Tea', count: 1, unit: '3' }] } }],
      ['GET', '/api/v1/payments', {}, {}],
      ['GET', '/api/v1/payments/{id}', id, {}],
      ['POST', '/api/v1/payments/{id}/cancel', id, {}],
      ['POST', '/api/v1/payments/{id}/refunds', id, { body: {} }],
      ['GET', '/api/v1/payments/{id}/refunds', id, {}],
      ['GET', '/api/v1/payments/{id}/events', id, {}],
      ['GET', '/api/v1/events', {}, {}],
      ['POST', '/api/v1/payments/{id}/mark', id, { body: { as: 'settled' } }],
      ['POST', '/api/v1/payments/{id}/receipt', id, { body: { email: 'ann@example.com' } }],
      ['GET', '/api/v1/reports/sales', {}, {}],
      ['GET', '/api/v1/rates', {}, {}],
      ['GET', '/dc/{id}', { id: UNKNOWN_ID }, { key: null }],
      ['POST', '/relay/pay', {}, { key: null, body: { id: paymentId, tx: '00' } }],
      ['POST', '/relay/status', {}, { key: null, body: id }],
      ['GET', '/invoices/{address}', { address: BUYER }, {}],
    ];
    for (const [method, template, params, c] of calls) {
      const r = await call(method, template, params, c);
      expect(r.status, `${method} ${template}`).toBe(503);
    }
  });

  it("answers 429 on every rate-limited route once the client's budget is spent", async () => {
    const groups: [string, string, Record<string, string>, Call][][] = [
      [
        ['GET', '/api/v1/payments', {}, {}],
        ['POST', '/api/v1/payments', {}, { body: {} }],
        ['GET', '/api/v1/payments/{id}', { id: paymentId }, {}],
        ['POST', '/api/v1/payments/{id}/cancel', { id: paymentId }, {}],
        ['POST', '/api/v1/payments/{id}/refunds', { id: paymentId }, { body: {} }],
        ['GET', '/api/v1/payments/{id}/refunds', { id: paymentId }, {}],
        ['GET', '/api/v1/payments/{id}/events', { id: paymentId }, {}],
        ['GET', '/api/v1/events', {}, {}],
        ['POST', '/api/v1/payments/{id}/mark', { id: paymentId }, { body: { as: 'settled' } }],
        ['POST', '/api/v1/payments/{id}/receipt', { id: paymentId }, { body: { email: 'ann@example.com' } }],
        ['GET', '/api/v1/reports/sales', {}, {}],
        ['GET', '/api/v1/rates', {}, {}],
      ],
      [
        ['POST', '/relay/status', {}, { key: null, body: { id: paymentId } }],
        ['POST', '/relay/pay', {}, { key: null, body: { id: paymentId, tx: '00' } }],
      ],
      [['GET', '/invoices/{address}', { address: BUYER }, {}]],
    ];
    for (const group of groups) {
      // spend the group's budget (the database is still down: those answers are 503s)
      let spent = false;
      for (let i = 0; i < 20 && !spent; i++) spent = (await call(...group[0])).status === 429;
      expect(spent, `${group[0][1]} ran out of budget`).toBe(true);
      for (const c of group) {
        const r = await call<ErrorJson>(...c);
        expect(r.status, `${c[0]} ${c[1]}`).toBe(429);
        expect(r.body.error).toBe('rate_limited');
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
  });
});

it('exercised every (method, path, status) the document names', () => {
  // The `stores` operations have their own app and checker (tests/integration/openapi-stores.test.ts).
  const missing = documentedResponses(doc, (tags) => !tags.includes('stores')).filter((t) => !checker.seen.has(t));
  expect(missing).toEqual([]);
});
