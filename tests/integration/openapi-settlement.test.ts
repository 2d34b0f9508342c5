// docs/openapi.yaml against the real server: what becomes of a payment on the devnet app once it
// is made. One is cancelled, and the relay then refuses it; one is paid with the wallet SDK through
// the relay (after its refusals) and confirmed by a mined block; one is marked settled. Then the
// event log and the paid payment's stream (a user's 11th stream is refused), its receipt mailed
// through a real SMTP server, the buyer's invoices, a refund of part of it, and the day's sales
// report. Every answer is checked against the document (tests/helpers/openapi.ts); the document is
// shared out between the openapi-*.test.ts files (tests/helpers/openapi-calls.ts), and once all
// of this file's tests have run, every answer of its share must have been seen.
import type { SMTPServerOptions } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPaymentTx, fetchPayment, readConnectQr, type WalletUtxo } from '@/lib/wallet';
import type { AppServer } from '../helpers/app-server';
import { OpenApiChecker, loadOpenApi } from '../helpers/openapi';
import {
  FULL_PAYMENT,
  OPENAPI_KEY as KEY,
  TOO_BIG,
  UNKNOWN_ID,
  coffee,
  expectShareExercised,
  expectStatus,
  openApiCalls,
  startOpenApiDevnet,
  type DemoWallet,
  type MadeJson,
} from '../helpers/openapi-calls';
import { startSmtp, type Mail, type TestSmtp } from '../helpers/smtp';
import type { RelayStatusJson } from '../helpers/vendor-client';
import type { ErrorJson, EventJson, EventPageJson, InvoiceJson, SalesReportJson } from '../helpers/json-shapes';

const checker = new OpenApiChecker(loadOpenApi());
afterAll(expectShareExercised(checker, 'settlement'));

describe('openapi: the devnet app', () => {
  let app: AppServer;
  const { call, create, stream } = openApiCalls(checker, () => app.url);
  let till = ''; // payments:read + payments:write
  let nodeOnly = ''; // node:read only
  let wallet: DemoWallet;
  let demoWallet: () => Promise<DemoWallet>;
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

  beforeAll(async () => {
    smtp = await startSmtp(inbox, refuseOne);
    const devnet = await startOpenApiDevnet({ RECEIPT_EMAILS_PER_PAYMENT: '3' });
    ({ app, owner, demoWallet } = devnet);
    till = await devnet.apiKey(['payments:read', 'payments:write']);
    nodeOnly = await devnet.apiKey(['node:read']);
    wallet = await demoWallet();
    // The payment the wallet pays below: openapi-payments.test.ts makes and reads the same one.
    made.full = await create(FULL_PAYMENT);
  }, 180_000);
  afterAll(async () => {
    await app?.stop();
    await smtp.close();
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
});
