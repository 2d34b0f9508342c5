// An open ticket's cart as JSON (lib/pos/ticket-cart.ts): it round-trips exactly (bigint amounts
// as integer strings, options, icons) with printable line keys, refuses another currency, and a cart that does not parse
// is unreadable as a whole, never half restored.
import { describe, expect, it } from 'vitest';
import { cartLineKey, cartTotals, type CartLine } from '@/lib/pos/cart';
import { cartOfTicket, ticketCartJson } from '@/lib/pos/ticket-cart';

const LINES: CartLine[] = [
  {
    key: cartLineKey('p1', ['Oat']),
    sku: 'LATTE',
    name: 'Latte',
    icon: '☕',
    unit: 450n,
    count: 2,
    taxRateBp: 825,
    productId: 'p1',
    options: ['Oat'],
  },
  { key: 'custom-3', sku: 'CUSTOM-3', name: 'Custom amount 3', unit: 99999999999999999n, count: 1, taxRateBp: 0 },
];
const EXTRAS = { fee: 0n, shipping: 5n, discount: 10n, tip: 100n };

describe('ticket cart', () => {
  it('round-trips lines, options and extras exactly, through JSON text', () => {
    const json = JSON.parse(JSON.stringify(ticketCartJson({ currency: 'USD', lines: LINES, extras: EXTRAS })));
    const back = cartOfTicket(json, 'USD');
    expect(back).toEqual({ currency: 'USD', lines: LINES, extras: EXTRAS });
    expect(cartTotals(back!.lines, back!.extras)).toEqual(cartTotals(LINES, EXTRAS));
  });

  it("a line's key with options is printable, so PostgreSQL's jsonb stores the cart (it refuses \\u0000)", () => {
    const keys = [
      cartLineKey('p1', []),
      cartLineKey('p1', ['Oat']),
      cartLineKey('p1', ['Oat', 'Extra shot']),
      cartLineKey('p1', ['Oat,Extra shot']),
    ];
    expect(new Set(keys).size).toBe(keys.length); // the same product with other options is another line
    expect(cartLineKey('p1', ['Oat', 'Extra shot'])).toBe(cartLineKey('p1', ['Oat', 'Extra shot']));
    for (const k of keys) expect(k).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(JSON.stringify(ticketCartJson({ currency: 'USD', lines: LINES, extras: EXTRAS }))).not.toContain('\\u0000');
  });

  it('refuses a cart saved in another currency', () => {
    expect(cartOfTicket(ticketCartJson({ currency: 'USD', lines: LINES, extras: EXTRAS }), 'DOGE')).toBeNull();
  });

  it('a cart with one bad field is unreadable as a whole', () => {
    const good = ticketCartJson({ currency: 'DOGE', lines: LINES, extras: EXTRAS }) as { lines: Record<string, unknown>[] };
    for (const bad of [{ unit: '1.5' }, { unit: -1 }, { count: 0 }, { count: 1.5 }, { taxRateBp: -1 }, { name: 7 }]) {
      const json = { ...good, lines: [good.lines[0], { ...good.lines[1], ...bad }] };
      expect(cartOfTicket(json, 'DOGE')).toBeNull();
    }
    expect(cartOfTicket(null, 'DOGE')).toBeNull();
    expect(cartOfTicket({ lines: [] }, 'DOGE')).toBeNull();
    expect(cartOfTicket([], 'DOGE')).toBeNull();
  });
});
