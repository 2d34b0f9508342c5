// The customer's checkout page through the real built app on devnet (docs/using-counter.md#the-customers-checkout-page-checkoutid),
// from the side of someone holding only a payment id: GET /checkout/<id> answers with
// Cache-Control: no-store and X-Robots-Tag: noindex, shows the order and the payment's own
// status and nothing of the merchant (no note, vendor order id, meta, cashier, other sale); an
// unknown, malformed or refund id is a 404 page with the same headers; the public stream
// /api/checkout/<id>/events sends only the customer's fields and is capped per payment; the
// vendor API's 201 and GET carry checkout_url.
import { beforeAll, describe, expect, it } from 'vitest';
import { deriveAddress, REGTEST } from '@/lib/doge';
import { testAccount, testXpub } from '../helpers/keys';
import { sharedShop, type SharedShop } from '../helpers/shared-app';
import { until } from '../helpers/wait';
import { signIn } from '../helpers/sessions';
import type { ListedPaymentJson } from '../helpers/json-shapes';

const OWNER = { email: 'owner@checkout-secret.test', password: 'long enough password' };
const XPUB = testXpub(61);
const CUSTOMER = deriveAddress(testAccount(62), 0, REGTEST);
const SECRETS = ['NOTE-SECRET-7', 'INV-SECRET-42', 'com.example.secret', 'meta-secret-value', OWNER.email];

let app: SharedShop;
const api = async (
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { Authorization: `Bearer ${app.key}` },
) => {
  const r = await fetch(app.url + path, {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: await r.json().catch(() => null) };
};
const page = (id: string, accept = 'text/html', lang = 'en') =>
  fetch(`${app.url}/checkout/${id}`, { headers: { Accept: accept, 'Accept-Language': lang } });

function expectPrivate(r: Response) {
  expect(r.headers.get('cache-control')).toBe('no-store');
  expect(r.headers.get('x-robots-tag')).toBe('noindex');
  // The URL is the capability: no link on the page (Back to the shop, the store's icon) may pass it on.
  expect(r.headers.get('referrer-policy')).toBe('no-referrer');
  expect(r.headers.get('x-frame-options')).toBe('DENY');
}

/** Reads SSE events from a stream until `n` payment events or an end event. */
async function readEvents(res: Response, n: number): Promise<{ event: string; data: Record<string, unknown> }[]> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  const out: { event: string; data: Record<string, unknown> }[] = [];
  const deadline = Date.now() + 10_000;
  while (out.filter((e) => e.event === 'payment').length < n && !out.some((e) => e.event === 'end') && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let i: number;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const chunk = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const ev = /^event: (.+)$/m.exec(chunk)?.[1];
      const data = /^data: (.+)$/m.exec(chunk)?.[1];
      if (ev && data) out.push({ event: ev, data: JSON.parse(data) });
    }
  }
  await reader.cancel().catch(() => null);
  return out;
}

describe('the checkout page (real app, devnet)', () => {
  let sale: ListedPaymentJson & { uri: string };
  let other: { id: string };

  beforeAll(async () => {
    app = await sharedShop('checkout-secret.test', { xpub: XPUB, password: OWNER.password });
    const made = await api('POST', '/api/v1/payments', {
      items: [
        { type: 'item', id: 'SKU-1', name: 'Flat white', count: 2, unit: '10.5', tax: '1.05' },
        { type: 'fee', id: 'svc', name: 'Service', count: 1, unit: '1' },
        { type: 'discount', id: 'promo', name: 'Loyalty discount', count: 1, unit: '-2' },
      ],
      note: SECRETS[0],
      vendor_order_id: SECRETS[1],
      meta: { [SECRETS[2]]: SECRETS[3] },
      order_reference: 'A073',
      vendor_order_url: 'http://127.0.0.1:9/shop/orders/A073',
      fiat_total: '5.00',
      fiat_currency: 'USD',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    sale = made.body;
    other = (
      await api('POST', '/api/v1/payments', { items: [{ type: 'item', id: 'X', name: 'Other customer sandwich', count: 1, unit: '3' }] })
    ).body;
  }, 240_000);

  it('the vendor API gives checkout_url: $PUBLIC_URL/checkout/<id>, in the 201 and in GET', async () => {
    expect(sale.checkout_url).toBe(`${app.url}/checkout/${sale.id}`);
    const got = await api('GET', `/api/v1/payments/${sale.id}`);
    expect(got.body.checkout_url).toBe(sale.checkout_url);
    const list = await api('GET', '/api/v1/payments?limit=5');
    expect(list.body.payments.find((p: ListedPaymentJson) => p.id === sale.id).checkout_url).toBe(sale.checkout_url);
  });

  it('shows the order, the QR code and the link, with no-store and noindex, and nothing of the merchant', async () => {
    const r = await page(sale.id);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expectPrivate(r);
    const html = await r.text();
    expect(html).toContain(app.name);
    for (const s of ['Flat white', 'Service', 'Loyalty discount', 'Order A073', 'Ð 21.05']) expect(html.includes(s), s).toBe(true);
    expect(html).toContain('data-testid="checkout-qr"');
    // "Open in wallet" is the dogecoin: URI the QR code shows (no data outputs, no signing items).
    const href = /<a[^>]*href="([^"]+)"[^>]*data-testid="open-in-wallet"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
    expect(href).toBe(sale.uri);
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
    for (const s of [...SECRETS, other.id, 'Other customer sandwich', 'Owner']) expect(html.includes(s), s).toBe(false);
    // "Back to the shop" waits for the payment to be paid (or final).
    expect(html).not.toContain('data-testid="back-to-shop"');
  });

  it("is in the customer's language (Accept-Language)", async () => {
    const html = await (await page(sale.id, 'text/html', 'de-CH,de;q=0.9,en;q=0.5')).text();
    expect(html).toContain('<html lang="de"');
    expect(html).toContain('Ihre Bestellung');
    expect(html).toContain('In der Wallet öffnen');
  });

  it('an unknown, malformed or overlong id is a 404 page, with the same headers', async () => {
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'bad%20id', '..%2F..%2Fadmin', 'x'.repeat(65), `${sale.id}%00`]) {
      const r = await page(id);
      expect(r.status, id).toBe(404);
      expectPrivate(r);
      const html = await r.text();
      expect(html, id).toContain('Payment not found');
      expect(html, id).not.toContain('checkout-qr');
    }
  });

  it('the public stream sends only the customer fields of that one payment; unknown ids are 404; capped per payment', async () => {
    const res = await fetch(`${app.url}/api/checkout/${sale.id}/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
    const [first] = await readEvents(res, 1);
    expect(first.event).toBe('payment');
    expect(Object.keys(first.data).sort()).toEqual([
      'amount_due',
      'amount_paid',
      'confirmed',
      'exception',
      'expired',
      'required',
      'status',
    ]);
    expect(first.data).toMatchObject({ status: 'unpaid', amount_paid: '0', amount_due: '21.05', expired: false });
    expect((await fetch(`${app.url}/api/checkout/AAAAAAAAAAAAAAAAAAAAAA/events`)).status).toBe(404);
    expect((await fetch(`${app.url}/api/checkout/bad%20id/events`)).status).toBe(404);

    // Ten streams of one payment at once, then 429 (a leaked id cannot take the process's streams).
    const held: Response[] = [];
    const ctl = new AbortController();
    for (let i = 0; i < 10; i++) {
      const s = await fetch(`${app.url}/api/checkout/${other.id}/events`, { signal: ctl.signal });
      expect(s.status).toBe(200);
      held.push(s);
    }
    const refused = await fetch(`${app.url}/api/checkout/${other.id}/events`);
    expect(refused.status).toBe(429);
    expect((await fetch(`${app.url}/api/checkout/${sale.id}/events`, { signal: ctl.signal })).status).toBe(200);
    ctl.abort();
    await Promise.all(held.map((s) => s.body?.cancel().catch(() => null)));
  });

  it('a cancelled payment shows as cancelled: no QR code, no link to pay, Back to the shop', async () => {
    const p = (
      await api('POST', '/api/v1/payments', {
        items: [{ type: 'item', id: 'C', name: 'Cancelled tea', count: 1, unit: '2' }],
        vendor_order_url: 'http://127.0.0.1:9/shop/cart',
      })
    ).body;
    expect((await api('POST', `/api/v1/payments/${p.id}/cancel`, {})).status).toBe(200);
    const html = await (await page(p.id)).text();
    expect(html).toContain('data-state="cancelled"');
    expect(html).toContain('The shop cancelled this payment.');
    for (const s of ['data-testid="checkout-qr"', 'data-testid="open-in-wallet"', p.uri.replace(/&/g, '&amp;')])
      expect(html.includes(s), s).toBe(false);
    expect(html).toMatch(/href="http:\/\/127\.0\.0\.1:9\/shop\/cart"[^>]*data-testid="back-to-shop"/);
    expect(html).not.toContain('cancelled by vendor'); // the merchant's reason stays the merchant's
  });

  it('a sale made by a signed-in cashier shows no staff name; once paid: receipt and Back to the shop; a refund id is 404', async () => {
    const { cookie, csrf } = await signIn(app.url, OWNER.email, OWNER.password);
    const till = await api(
      'POST',
      '/api/v1/payments',
      { items: [{ type: 'item', id: 'T', name: 'Till scone', count: 1, unit: '4' }], vendor_order_url: 'http://127.0.0.1:9/shop/back' },
      { Cookie: cookie, 'X-CSRF-Token': csrf },
    );
    expect(till.status, JSON.stringify(till.body)).toBe(201);
    const address = /^dogecoin:([^?]+)\?/.exec(till.body.uri)![1];
    const sent = await fetch(`${app.url}/demo/api/send`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ address, amount: '4' }),
    });
    expect(sent.status, await sent.clone().text()).toBe(200);
    await until(
      () => api('GET', `/api/v1/payments/${till.body.id}`),
      (r) => r.body.status === 'accepted',
      20_000,
    );
    expect((await fetch(`${app.url}/demo/api/mine`, { method: 'POST', body: JSON.stringify({ blocks: 1 }) })).status).toBe(200);
    const paid = await until(
      () => api('GET', `/api/v1/payments/${till.body.id}`),
      (r) => r.body.status === 'confirmed',
      20_000,
    );
    expect(paid.body.status).toBe('confirmed');

    const r = await page(till.body.id);
    expectPrivate(r);
    const html = await r.text();
    expect(html).toContain('data-testid="checkout-receipt"');
    expect(html).toContain('data-state="paid"');
    expect(html).toMatch(/href="http:\/\/127\.0\.0\.1:9\/shop\/back"[^>]*data-testid="back-to-shop"/);
    expect(html).not.toContain('data-testid="checkout-qr"'); // nothing more to pay
    for (const s of [OWNER.email, 'Owner', cookie.split('=')[1]]) expect(html, s).not.toContain(s);

    const refund = await api('POST', `/api/v1/payments/${till.body.id}/refunds`, {
      amount: '1',
      address: CUSTOMER,
      reason: 'REFUND-REASON-SECRET',
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    const rr = await page(refund.body.id);
    expect(rr.status).toBe(404);
    expectPrivate(rr);
    expect(await rr.text()).not.toContain('REFUND-REASON-SECRET');
    expect((await fetch(`${app.url}/api/checkout/${refund.body.id}/events`)).status).toBe(404);
    // The paid payment's page shows nothing of its refund.
    expect(await (await page(till.body.id)).text()).not.toContain('REFUND-REASON-SECRET');
  });
});
