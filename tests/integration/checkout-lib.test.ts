// lib/checkout/load.ts against a real (in-memory) PGlite database with the project's migrations:
// what the customer's checkout page (docs/using-counter.md#the-customers-checkout-page-checkoutid) is given for a payment, and which ids it
// refuses. Fast (no app server), so the guards around "an attacker with the id" are cheap to run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { MAINNET } from '@/lib/doge';
import { createPayment } from '@/lib/payments/creation/create-payment';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { checkoutExists, loadCheckout } from '@/lib/checkout/load';
import { DGUB } from '../helpers/keys';

const URL_BASE = 'http://127.0.0.1:1';
let db: Db;

async function pay(body: Record<string, unknown>) {
  const r = await createPayment(
    { storeId: 1, db, network: MAINNET, publicUrl: URL_BASE, apiKeyId: null, userId: null, idempotencyKey: null },
    JSON.stringify(body),
  );
  expect(r.status).toBe(201);
  return r.body as { id: string; total: string; uri: string; connect_uri: string; checkout_url: string };
}

beforeAll(async () => {
  db = await openTestDb();
  await db.prisma.store.upsert({
    where: { id: 1 },
    update: { storeXpub: DGUB, name: 'Kiosk', icon: 'https://shop.example/icon.png' },
    create: { id: 1, storeXpub: DGUB, name: 'Kiosk', icon: 'https://shop.example/icon.png' },
  });
  await activeRelayKey(db, 1);
}, 60_000);
afterAll(async () => db?.close());

describe('loadCheckout', () => {
  it("gives the order, the store's name and icon, both URIs, the QR form and the live fields", async () => {
    const p = await pay({
      items: [
        { type: 'item', id: 'A', name: 'Pie', count: 2, unit: '3', tax: '0.3' },
        { type: 'discount', id: 'D', name: 'Promo', count: 1, unit: '-1' },
      ],
      vendor_order_url: 'https://shop.example/orders/9',
      note: 'secret note',
      order_reference: 'R9',
    });
    expect(p.checkout_url).toBe(`${URL_BASE}/checkout/${p.id}`);
    const c = (await loadCheckout(db, p.id, URL_BASE))!;
    expect(c).toMatchObject({
      id: p.id,
      store: { name: 'Kiosk', icon: 'https://shop.example/icon.png' },
      orderReference: 'R9',
      total: '5.3',
      uri: p.uri,
      connectUri: p.connect_uri,
      form: 'dogecoin',
      vendorOrderUrl: 'https://shop.example/orders/9',
      live: { status: 'unpaid', exception: null, expired: false, amount_paid: '0', amount_due: '5.3' },
    });
    expect(c.order.lines.map((l) => [l.kind, l.name, l.total])).toEqual([
      ['item', 'Pie', '6.3'],
      ['discount', 'Promo', '-1'],
    ]);
    expect(JSON.stringify(c)).not.toContain('secret note');
    expect(await checkoutExists(db, p.id)).toBe(true);
  });

  it('a payment with a data output opens on dogeconnect:', async () => {
    const p = await pay({
      items: [{ type: 'item', id: 'A', name: 'Pie', count: 1, unit: '3' }],
      outputs: [{ type: 'data', data: '6869' }],
    });
    expect((await loadCheckout(db, p.id, URL_BASE))!.form).toBe('dogeconnect');
  });

  it('unknown, malformed, refund and address-less (cash) ids are not found', async () => {
    const a = await pay({ items: [{ type: 'item', id: 'A', name: 'Pie', count: 1, unit: '3' }] });
    const b = await pay({ items: [{ type: 'item', id: 'B', name: 'Tart', count: 1, unit: '4' }] });
    const c = await pay({ items: [{ type: 'item', id: 'C', name: 'Cake', count: 1, unit: '5' }] });
    // b stands for a refund row of a (docs/api.md#refunds), c for a sale with nothing to pay to (a cash sale).
    await db.prisma.payment.update({ where: { id: b.id }, data: { refundOf: a.id, seq: -987_654n } }); // refund rows have a negative seq
    await db.prisma.payment.update({ where: { id: c.id }, data: { address: '' } });
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', '', 'a b', '../x', 'x'.repeat(65), `${a.id}\u0000`, b.id, c.id]) {
      expect(await loadCheckout(db, id, URL_BASE), JSON.stringify(id)).toBeNull();
      expect(await checkoutExists(db, id), JSON.stringify(id)).toBe(false);
    }
    expect(await loadCheckout(db, a.id, URL_BASE)).not.toBeNull();
  });
});
