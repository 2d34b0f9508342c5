// The customer's display (docs/counter.md#the-customers-display) on the real built app: what it
// shows. The live stream carries the till's cart, never another till's cart, and the payment's
// customer-facing state with no staff name; the published cart is validated, bounded in size and
// rate-limited per till. How a display pairs and unpairs is customer-display-pairing.test.ts's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cart, displayCounter, eventually, lastDisplay, openStream, type DisplayJson, type SaleJson } from '../helpers/customer-display';

describe('the customer display', () => {
  const { url, start, stop, manager, tillA, tillB, req, register, publish, pair } = displayCounter();
  beforeAll(start, 180_000);
  afterAll(stop);

  // How fast the cart arrives is the live bench's to measure (docs/performance.md), not a test's.
  // One display of till A streams through these three, in order.
  describe("streams its till's cart, never another till's, and the payment without any staff name", () => {
    let display: string;
    let s: Awaited<ReturnType<typeof openStream>>;
    afterAll(() => s?.close());
    /** The display's last state once `ok` holds of it (the test fails if it never does). */
    const shows = (ok: (d: DisplayJson | undefined) => boolean) => eventually(() => lastDisplay(s), ok, 5_000, 10);
    const showsCart = (name: string) => shows((x) => x?.cart?.lines?.[0]?.name === name);

    it("its own till's cart, never another till's", async () => {
      display = await pair(tillA);
      s = await openStream(url(), display);
      expect(s.status).toBe(200);
      expect(await shows((d) => d !== undefined)).toBeDefined();
      expect((await publish(tillA, cart('Green tea', 2))).status).toBe(204);
      const d = await showsCart('Green tea');
      expect(d!.cart).toEqual({
        currency: 'DOGE',
        lines: [{ name: 'Green tea', count: 2, total: '300000000' }],
        adjustments: [{ kind: 'tax', amount: '1000' }],
        total: '300001000',
      });
      expect((await publish(tillB, cart('Secret patio order'))).status).toBe(204);
      expect((await publish(tillA, cart('Scone'))).status).toBe(204);
      await showsCart('Scone');
      expect(s.raw).not.toContain('Secret patio order');
    });

    it('a sale of this till (session + terminal cookie): its customer-facing state, no staff name', async () => {
      const p = await req<SaleJson>(
        manager,
        'POST',
        '/api/v1/payments',
        { items: [{ type: 'item', id: 'SCONE', name: 'Scone', count: 1, unit: '2.5' }] },
        { cookie: tillA.cookie },
      );
      expect(p.status, p.text).toBe(201);
      expect(p.body.terminal).toBe('Front counter');
      expect((await publish(tillA, cart('Scone', 1, p.body.id))).status).toBe(204);
      const withPay = await shows((x) => x?.payment?.id === p.body.id);
      expect(withPay!.payment).toMatchObject({
        total: p.body.total,
        uri: p.body.uri,
        connect_uri: p.body.connect_uri,
        form: 'dogecoin',
        expires_at: p.body.expires_at,
      });
      expect(withPay!.payment!.live).toMatchObject({ status: 'unpaid', expired: false });
      expect(withPay!.payment!.items).toEqual([{ name: 'Scone', desc: '', count: 1, total: '2.5' }]);
      expect(Object.keys(withPay!.payment!).sort()).toEqual([
        'connect_uri',
        'expires_at',
        'fiat_currency',
        'fiat_total',
        'form',
        'id',
        'items',
        'live',
        'total',
        'uri',
      ]);
      const cancel = await req(manager, 'POST', `/api/v1/payments/${p.body.id}/cancel`, {}, { cookie: tillA.cookie });
      expect(cancel.status, cancel.text).toBe(200);
      await shows((x) => x?.payment?.live?.status === 'declined');
      for (const secret of ['Staff manager', 'manager@display.test', 'Front counter', 'Patio', manager.id])
        expect(s.raw).not.toContain(secret);
    });

    it("another till's sale cannot be put on this till's display", async () => {
      const other = await req<SaleJson>(
        manager,
        'POST',
        '/api/v1/payments',
        { items: [{ type: 'item', id: 'X', name: 'Patio lunch', count: 1, unit: '9' }] },
        { cookie: tillB.cookie },
      );
      expect(other.status).toBe(201);
      const refused = await publish(tillA, cart('Scone', 1, other.body.id));
      expect(refused.status).toBe(400);
      expect(refused.body?.message).toMatch(/^payment_id:/);
      // What the display shows now, read afresh: a new stream starts from the stored row, so it
      // holds whatever the refusal had stored: still this till's Scone cart, without the patio's sale.
      s.close();
      s = await openStream(url(), display);
      const now = await shows((x) => x !== undefined);
      expect(now!.cart?.lines?.[0]?.name).toBe('Scone');
      expect(now!.payment?.id).not.toBe(other.body.id);
      expect(s.raw).not.toContain('Patio lunch');
    });
  });

  it('refuses a bad or oversized cart with 400 or 413, and rate-limits a till that publishes too fast', async () => {
    const till = await register('Busy till');
    const bad: unknown[] = [
      {},
      { ...cart('x'), extra: 1 },
      cart('bad\u0000name'),
      cart('tab\there'),
      cart(''),
      { ...cart('x'), total: '1.5' },
      { ...cart('x'), total: 5 },
      { ...cart('x'), currency: 'doge' },
      { ...cart('x'), lines: [{ name: 'x', count: 0, total: '1' }] },
      { ...cart('x'), lines: [{ name: 'x', count: 1.5, total: '1' }] },
      { ...cart('x'), adjustments: [{ kind: 'bribe', amount: '1' }] },
      { ...cart('x'), payment_id: 'no such payment' },
      { ...cart('x'), total: '1'.repeat(21) },
      { ...cart('x'), lines: Array.from({ length: 201 }, () => ({ name: 'x', count: 1, total: '1' })) },
    ];
    for (const b of bad) {
      const r = await publish(till, b);
      expect(r.status, JSON.stringify(b).slice(0, 80)).toBe(400);
      expect(r.body?.error).toBe('invalid_request');
    }
    expect((await publish(till, cart('x'.repeat(201)))).status).toBe(400);
    expect((await req(manager, 'PUT', '/api/pos/display/cart', undefined, { cookie: till.cookie, raw: '{' })).status).toBe(400);
    expect(
      (
        await req(manager, 'PUT', '/api/pos/display/cart', undefined, {
          cookie: till.cookie,
          raw: JSON.stringify(cart('x'.repeat(100))).padEnd(70 * 1024),
        })
      ).status,
    ).toBe(413);
    expect((await publish({ cookie: '' }, cart('x'))).status).toBe(403);
    expect((await req(null, 'PUT', '/api/pos/display/cart', cart('x'), { cookie: till.cookie })).status).toBe(401);
    // 10 a second with bursts of 30, per till: of 200 updates sent at once, the burst goes
    // through and the rest get 429 with Retry-After, except those the bucket refilled for while
    // the server answered. The bound follows from the bucket, so it holds however slowly a
    // loaded machine serves them: at most 30 + 10 per elapsed second pass.
    const busy = await register('Busier till');
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => publish(busy, cart('x', i + 1))));
    const allowed = 30 + Math.ceil((10 * (performance.now() - started)) / 1000);
    const ok = answers.filter((r) => r.status === 204).length;
    expect(ok).toBeGreaterThanOrEqual(30);
    expect(ok).toBeLessThanOrEqual(allowed);
    expect(answers.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(Math.max(0, 200 - allowed));
    for (const r of answers.filter((x) => x.status === 429)) expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(ok + answers.filter((r) => r.status === 429).length).toBe(200);
  });
});
