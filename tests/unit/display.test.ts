// The customer display's pure parts (docs/counter.md#the-customers-display): pairing codes
// (alphabet, length, typed forms), the cart a till publishes (schema, what the browser sends),
// the payment as a display sees it (nothing but the customer's fields), and the display hub
// (lib/live/display-hub.ts) against an in-memory source that counts its reads.
import { describe, expect, it } from 'vitest';
import { newPairingCode, normalisePairingCode, formatPairingCode, PAIRING_CODE_LENGTH } from '@/lib/display/pairing';
import { DisplayCartSchema, displayPayment, storedCart } from '@/lib/display/view';
import type { DisplayRow } from '@/lib/display/cart';
import { DisplayHub, type DisplayWatcher } from '@/lib/live/display-hub';
import type { ChangeFeed, ChangeSubscriber } from '@/lib/live/payment-changes';
import { displayCartBody } from '@/app/(pos)/pos/use-publish-cart';
import { sleep, until } from '../helpers/wait';

describe('pairing codes', () => {
  it('are 8 characters of Crockford base32, every character in use (40 bits)', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const c = newPairingCode();
      expect(c).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
      for (const ch of c) seen.add(ch);
    }
    expect(seen.size).toBe(32);
    expect(PAIRING_CODE_LENGTH * 5).toBe(40);
  });

  it('read typed forms: case, spaces and dashes ignored, O/I/L as 0/1/1; anything else is no code', () => {
    expect(normalisePairingCode(' 7k2m-q9xd ')).toBe('7K2MQ9XD');
    expect(normalisePairingCode('7K2M Q9XD')).toBe('7K2MQ9XD');
    expect(normalisePairingCode('OIL0-ABCD')).toBe('0110ABCD');
    for (const bad of ['', '7K2M', '7K2MQ9XDX', '7K2M-Q9XU', '7K2M_Q9XD', '7K2MQ9X\u0000'])
      expect(normalisePairingCode(bad), bad).toBeNull();
    expect(formatPairingCode('7K2MQ9XD')).toBe('7K2M-Q9XD');
  });
});

describe('the published cart', () => {
  it('is what the till sends, in minor units, and passes the schema', () => {
    const body = displayCartBody(
      [{ key: 'p', sku: 'TEA', name: ' Tea ', unit: 150_000_000n, count: 2, taxRateBp: 1000 }],
      { fee: 0n, shipping: 5n, discount: 7n, tip: 0n },
      'DOGE',
      null,
    );
    expect(body).toEqual({
      currency: 'DOGE',
      lines: [{ name: 'Tea', count: 2, total: '300000000' }],
      adjustments: [
        { kind: 'tax', amount: '30000000' },
        { kind: 'shipping', amount: '5' },
        { kind: 'discount', amount: '-7' },
      ],
      total: '329999998',
      payment_id: null,
    });
    expect(DisplayCartSchema.safeParse(body).success).toBe(true);
  });

  it("shows a line's options after its name", () => {
    const line = { key: 'p', sku: 'LAT', name: 'Latte', unit: 400n, count: 1, taxRateBp: 0, options: ['Oat', 'Extra shot'] };
    const body = displayCartBody([line], { fee: 0n, shipping: 0n, discount: 0n, tip: 0n }, 'USD', null);
    expect(body.lines).toEqual([{ name: 'Latte · Oat, Extra shot', count: 1, total: '400' }]);
    expect(DisplayCartSchema.safeParse(body).success).toBe(true);
  });

  it('refuses what a display must not be shown or cannot hold', () => {
    const ok = { currency: 'USD', lines: [{ name: 'Tea', count: 1, total: '250' }], adjustments: [], total: '250', payment_id: null };
    expect(storedCart(ok)).toEqual(ok);
    for (const bad of [
      { ...ok, lines: [{ name: 'A\u202eB', count: 1, total: '1' }] },
      { ...ok, lines: [{ name: 'x', count: 1, total: '1', staff: 'Ana' }] },
      { ...ok, total: '1e3' },
      { ...ok, payment_id: '../x' },
      { ...ok, note: 'hi' },
    ])
      expect(storedCart(bad), JSON.stringify(bad)).toBeNull();
  });

  it("keeps only the customer's fields of a payment", () => {
    const p = displayPayment({
      id: 'p1',
      status: 'unpaid',
      total: '2.5',
      uri: 'dogecoin:D?amount=2.5',
      connect_uri: 'dogeconnect:x',
      expires_at: '2026-01-01T00:00:00.000Z',
      fiat_total: '',
      fiat_currency: '',
      expired: false,
      exception: null,
      required: 1,
      confirmed: 0,
      amount_paid: '0',
      amount_due: '2.5',
      terminal: 'Front counter',
      decision: { by: 'Ana', note: 'secret' },
      refund_address: 'Dxyz',
      created_by: 'u1',
      payment: {
        items: [
          { type: 'item', id: 'x', name: 'Scone', count: 1, unit: '2.5', total: '2.5' },
          { type: 'item', id: 'l', name: 'Latte', desc: 'Oat, Extra shot', count: 1, unit: '4', total: '4' },
        ],
        outputs: [{ type: 'data', data: '00' }],
      },
    });
    expect(p.form).toBe('dogeconnect'); // a data output: only a DogeConnect wallet can pay it (the till's rule)
    expect(JSON.stringify(p)).not.toMatch(/Front counter|Ana|secret|Dxyz|u1/);
    expect(p.items).toEqual([
      { name: 'Scone', desc: '', count: 1, total: '2.5' },
      { name: 'Latte', desc: 'Oat, Extra shot', count: 1, total: '4' },
    ]);
  });
});

describe('the display hub', () => {
  function source() {
    const rows = new Map<string, DisplayRow>();
    const reads: string[][] = [];
    return {
      rows,
      reads,
      read: async (ids: readonly string[]) => {
        reads.push([...ids]);
        return new Map([...ids].filter((id) => rows.has(id)).map((id) => [id, rows.get(id)!]));
      },
    };
  }
  function feed() {
    const subs = new Set<ChangeSubscriber>();
    const f: ChangeFeed = { subscribe: (s) => (subs.add(s), () => void subs.delete(s)), live: true };
    return {
      f,
      fire: (...ids: string[]) => {
        for (const s of subs) s.changed(new Set(ids));
      },
    };
  }
  const watcher = () => {
    const seen: string[] = [];
    const w: DisplayWatcher = {
      row: (r) => seen.push(JSON.stringify(r.cart)),
      gone: () => seen.push('gone'),
      failed: () => seen.push('failed'),
    };
    return { seen, w };
  };

  it('serves 20 watchers of a terminal with one read per change, and reads nothing for a terminal nobody watches', async () => {
    const src = source();
    const ch = feed();
    src.rows.set('t1', { terminalId: 't1', revoked: false, displays: ['d'], cart: { n: 1 }, tip: null });
    const hub = new DisplayHub(src.read, ch.f, 60_000);
    const ws = Array.from({ length: 20 }, () => watcher());
    const stops = ws.map((x) => hub.watch('t1', x.w));
    await sleep(20);
    expect(src.reads).toEqual([['t1']]); // watchers arriving together share one read
    src.rows.set('t1', { ...src.rows.get('t1')!, cart: { n: 2 } });
    ch.fire('t1', 'elsewhere');
    await sleep(20);
    expect(src.reads).toEqual([['t1'], ['t1']]);
    for (const x of ws) expect(x.seen).toEqual(['{"n":1}', '{"n":2}']);
    ch.fire('elsewhere');
    ch.fire('t1'); // unchanged: read, but nobody is told again
    await sleep(20);
    expect(src.reads.length).toBe(3);
    for (const x of ws) expect(x.seen.length).toBe(2);
    for (const s of stops) s();
    ch.fire('t1');
    await sleep(20);
    expect(src.reads.length).toBe(3);
    expect(hub.watchers).toBe(0);
  });

  it("after a failed read, retries at the feeds' pace rather than waiting for the safety poll", async () => {
    const src = source();
    src.rows.set('t1', { terminalId: 't1', revoked: false, displays: ['d'], cart: { n: 1 }, tip: null });
    let down = true;
    const read = (ids: readonly string[]) => (down ? Promise.reject(new Error('db down')) : src.read(ids));
    const hub = new DisplayHub(read, undefined, 60_000);
    const x = watcher();
    const stop = hub.watch('t1', x.w);
    await until(
      () => x.seen,
      (s) => s.includes('failed'),
      5_000,
      10,
    );
    down = false;
    // No notification comes: only the hub's own retry can serve it, well before the 60 s poll.
    expect(
      await until(
        () => x.seen,
        (s) => s.includes('{"n":1}'),
        5_000,
        10,
      ),
    ).toEqual(['failed', '{"n":1}']);
    stop();
  });

  it('tells a watcher when its terminal is gone', async () => {
    const src = source();
    const hub = new DisplayHub(src.read, undefined, 60_000);
    const x = watcher();
    const stop = hub.watch('nope', x.w);
    await sleep(20);
    expect(x.seen).toEqual(['gone']);
    stop();
  });
});
