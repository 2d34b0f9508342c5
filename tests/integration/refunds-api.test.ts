// Refunds through the real built app on devnet (docs/api.md#refunds): the routes' scopes (a cashier
// session gets 403, a manager's creates one), the back-office invoice page (Refund button, the
// refund's QR code and status), the wallet SDK paying the refund from its QR through /relay/pay,
// refund.* events in the log, the payment body, the invoice CSV and the sales report.
import { beforeAll, describe, expect, it } from 'vitest';
import { deriveAddress, REGTEST } from '@/lib/doge';
import { testAccount, testXpub } from '../helpers/keys';
import { parseKoinu } from '@/lib/money';
import { buildPaymentTx, fetchPayment, readConnectQr, type WalletUtxo } from '@/lib/wallet';
import { sharedShop, type SharedShop } from '../helpers/shared-app';
import { signInRoles } from '../helpers/sessions';
import { request } from '../helpers/client';
import type { DemoUtxoJson, ErrorJson, EventJson, ListedPaymentJson, SalesReportJson } from '../helpers/json-shapes';

const PASSWORD = 'long enough password';
const XPUB = testXpub(41);
// The customer's address: not the demo wallet's own (its change would count as more refund).
const CUSTOMER = deriveAddress(testAccount(42), 0, REGTEST);

let app: SharedShop;
const REPORT = `/api/v1/reports/sales?from=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString())}&tz=UTC`;
interface Who {
  cookie: string;
  csrf: string;
}
const who: Record<'owner' | 'manager' | 'cashier', Who> = {} as never;

/** A request with the API key, as a signed-in user or as nobody; `T` is how the test reads the JSON answer. */
const as = <T = unknown>(w: Who | 'key' | null, method: string, path: string, body?: unknown) =>
  request<T>(app.url, w === 'key' ? { key: app.key } : w, method, path, body);

/** A payment, or a refund (which is paid from a QR the same way), as the API answers it. */
interface PayableJson {
  id: string;
  status: string;
  amount: string;
  uri: string;
  connect_uri: string;
}

async function wallet(): Promise<{ address: string; wif: string; utxos: WalletUtxo[] }> {
  const w = await (await fetch(app.url + '/demo/api/wallet')).json();
  return {
    ...w,
    utxos: w.utxos.map((u: DemoUtxoJson) => ({ txid: u.txid, vout: u.vout, amount: parseKoinu(u.amount), script: u.script })),
  };
}
/** The wallet SDK pays a QR (dogeconnect:) through the relay. */
async function payQr(connectUri: string, refund?: string) {
  const w = await wallet();
  const verified = await fetchPayment(readConnectQr(connectUri), { allowHttp: true });
  const tx = buildPaymentTx(verified.payment, { network: 'regtest', utxos: w.utxos, keys: [w.wif] });
  const r = await as(null, 'POST', '/relay/pay', { id: verified.payment.id, tx: tx.hex, ...(refund ? { refund } : {}) });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { tx, w };
}
async function mineUntil(id: string, status: string) {
  expect((await fetch(app.url + '/demo/api/mine', { method: 'POST', body: JSON.stringify({ blocks: 1 }) })).status).toBe(200);
  for (let i = 0; i < 150; i++) {
    const st = await as<{ status: string } | null>(null, 'POST', '/relay/status', { id });
    if (st.body?.status === status) return st.body;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${id} never reached ${status}`);
}

beforeAll(async () => {
  app = await sharedShop('refunds.test', { xpub: XPUB, password: PASSWORD });
  Object.assign(who, await signInRoles(app.url, app.domain, PASSWORD, ['manager', 'cashier']));
}, 180_000);

describe('refunds through the app (devnet)', () => {
  it('a paid payment is refunded by a manager, shown on the invoice, paid from its QR by the wallet SDK and tracked to confirmed', async () => {
    const p = await as<PayableJson>('key', 'POST', '/api/v1/payments', {
      items: [{ type: 'item', id: 'SKU', name: 'Mug', count: 1, unit: '12' }],
    });
    expect(p.status).toBe(201);
    const id = p.body.id;
    // Nothing paid yet: nothing to refund.
    expect((await as(who.manager, 'POST', `/api/v1/payments/${id}/refunds`, { amount: '1', address: CUSTOMER })).status).toBe(409);
    await payQr(p.body.connect_uri);
    await mineUntil(id, 'confirmed');
    const before = await as<SalesReportJson>('key', 'GET', REPORT);
    expect(before.status).toBe(200);

    // The owner's page offers the Refund button; a cashier may not refund (403), a manager may.
    const page0 = await as(who.owner, 'GET', `/admin/invoices/${id}`);
    expect(page0.text).toContain('data-testid="refund-open"');
    const c = await as<ErrorJson>(who.cashier, 'POST', `/api/v1/payments/${id}/refunds`, { amount: '2', address: CUSTOMER });
    expect(c.status).toBe(403);
    expect(c.body.error).toBe('forbidden');
    // No refund address in the submission and none given: 400 naming address.
    const noAddr = await as(who.manager, 'POST', `/api/v1/payments/${id}/refunds`, { amount: '2' });
    expect(noAddr.status).toBe(400);
    expect(noAddr.body).toMatchObject({ error: 'invalid_request', message: expect.stringMatching(/^address: /) });
    const r = await as<PayableJson>(who.manager, 'POST', `/api/v1/payments/${id}/refunds`, {
      amount: '2',
      address: CUSTOMER,
      reason: 'chipped',
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      payment_id: id,
      status: 'unpaid',
      amount: '2',
      address: CUSTOMER,
      reason: 'chipped',
      amount_paid: '0',
      txids: [],
    });

    const page = await as(who.owner, 'GET', `/admin/invoices/${id}`);
    expect(page.text).toContain(r.body.id);
    expect(page.text).toContain(`data-uri="${r.body.uri.replace(/&/g, '&amp;')}"`);
    expect(page.text).toContain('data-testid="refund-status"');

    const { tx: refundTx } = await payQr(r.body.connect_uri);
    expect((await as<{ status: string }>(null, 'POST', '/relay/status', { id: r.body.id })).body.status).toBe('accepted');
    await mineUntil(r.body.id, 'confirmed');

    // The refund shows what paid it (docs/security.md "Which transaction pays a refund"), in the
    // API and on the invoice page.
    const body = await as('key', 'GET', `/api/v1/payments/${id}`);
    expect(body.body).toMatchObject({
      amount_refunded: '2',
      refunds: [{ id: r.body.id, status: 'confirmed', amount: '2', amount_paid: '2', txids: [refundTx.txid] }],
    });
    const paidPage = await as(who.owner, 'GET', `/admin/invoices/${id}`);
    expect(paidPage.text).toMatch(new RegExp(`data-testid="refund-txid">${refundTx.txid}<`));
    expect(paidPage.text).toContain('data-testid="refund-amount-paid"');
    const ev = await as<{ events: EventJson[] }>('key', 'GET', '/api/v1/events?limit=500');
    const mine = ev.body.events.filter((e: EventJson) => e.refund?.id === r.body.id);
    expect(mine.map((e: EventJson) => e.type)).toEqual(['refund.created', 'refund.accepted', 'refund.confirmed']);
    expect(mine[2].refund).toMatchObject({ payment_id: id, status: 'confirmed', amount_paid: '2', txids: [refundTx.txid] });
    // Not a sale: not listed; the report's gross is unchanged and its refunds and net move.
    const list = await as<{ payments: ListedPaymentJson[] }>('key', 'GET', '/api/v1/payments?limit=100');
    expect(list.body.payments.some((x: ListedPaymentJson) => x.id.startsWith('rf_'))).toBe(false);
    const after = await as<SalesReportJson>('key', 'GET', REPORT);
    expect(after.body.totals.gross).toBe(before.body.totals.gross);
    expect(after.body.totals.count).toBe(before.body.totals.count);
    expect(parseKoinu(after.body.totals.refunds) - parseKoinu(before.body.totals.refunds)).toBe(2_00000000n);
    expect(parseKoinu(after.body.totals.net)).toBe(parseKoinu(after.body.totals.gross) - parseKoinu(after.body.totals.refunds));
    const csv = await as(who.manager, 'GET', '/api/admin/invoices/export?format=csv');
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0].endsWith(',amount_refunded,refunds,tender,terminal')).toBe(true);
    expect(lines.find((l) => l.startsWith(id))!.endsWith(`,2,${r.body.id} confirmed 2,doge,`)).toBe(true);
    // GET …/refunds lists it; the rest may still be refunded, not more.
    const listed = await as(who.manager, 'GET', `/api/v1/payments/${id}/refunds`);
    expect(listed.body).toMatchObject({ payment_id: id, amount_refunded: '2', refunds: [{ id: r.body.id, status: 'confirmed' }] });
    expect((await as(who.owner, 'POST', `/api/v1/payments/${id}/refunds`, { amount: '10.00000001', address: CUSTOMER })).status).toBe(409);
  });

  it("a refund made by mistake is cancelled by a manager (not a cashier) from the invoice page's Cancel button route, and the full amount refunded again", async () => {
    const p = await as<PayableJson>('key', 'POST', '/api/v1/payments', {
      items: [{ type: 'item', id: 'SKU', name: 'Teapot', count: 1, unit: '7' }],
    });
    const id = p.body.id;
    await payQr(p.body.connect_uri);
    expect((await as<{ status: string }>(null, 'POST', '/relay/status', { id })).body.status).toBe('accepted');
    const wrong = await as<PayableJson>(who.manager, 'POST', `/api/v1/payments/${id}/refunds`, {
      address: CUSTOMER,
      reason: 'wrong invoice',
    });
    expect(wrong.body).toMatchObject({ status: 'unpaid', amount: '7' });
    expect((await as(who.manager, 'POST', `/api/v1/payments/${id}/refunds`, { address: CUSTOMER })).status).toBe(409); // all of it is pending
    const page = await as(who.owner, 'GET', `/admin/invoices/${id}`);
    expect(page.text).toContain('data-testid="refund-cancel"');
    // Same rules as refunding: a cashier gets 403 (before its id is even looked up), a manager cancels.
    expect((await as(who.cashier, 'POST', `/api/v1/payments/${wrong.body.id}/cancel`)).status).toBe(403);
    const c = await as<PayableJson>(who.manager, 'POST', `/api/v1/payments/${wrong.body.id}/cancel`);
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(c.body).toEqual({ ...wrong.body, status: 'declined' });
    expect((await as(who.manager, 'POST', `/api/v1/payments/${wrong.body.id}/cancel`)).body).toMatchObject({ error: 'conflict' });
    expect((await as(who.manager, 'POST', '/api/v1/payments/rf_AAAAAAAAAAAAAAAAAAAAAA/cancel')).status).toBe(404);
    expect((await as<{ status: string }>(null, 'POST', '/relay/status', { id: wrong.body.id })).body.status).toBe('declined');
    expect((await as(who.owner, 'GET', `/admin/invoices/${id}`)).text).not.toContain('data-testid="refund-cancel"');
    // The cancelled refund no longer counts: the whole amount again; once paid, no cancel.
    const right = await as<PayableJson>(who.manager, 'POST', `/api/v1/payments/${id}/refunds`, { address: CUSTOMER });
    expect(right.status).toBe(201);
    expect(right.body.amount).toBe('7');
    await payQr(right.body.connect_uri);
    expect((await as(who.owner, 'POST', `/api/v1/payments/${right.body.id}/cancel`)).status).toBe(409);
    const ev = await as<{ events: EventJson[] }>('key', 'GET', '/api/v1/events?limit=500');
    expect(ev.body.events.filter((e: EventJson) => e.refund?.id === wrong.body.id).map((e: EventJson) => e.type)).toEqual([
      'refund.created',
    ]);
  });
});
