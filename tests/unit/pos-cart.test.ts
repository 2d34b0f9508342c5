import { describe, expect, it } from 'vitest';
import {
  cartTotals,
  fiatOf,
  keypadKoinu,
  keypadPress,
  lineTax,
  paymentBody,
  NO_EXTRAS,
  EmptyCartError,
  type CartLine,
} from '@/lib/pos/cart';
import { priceRequest } from '@/lib/payments/creation/request';
import { REGTEST } from '@/lib/doge';
import { parseKoinu } from '@/lib/money';

const coffee: CartLine = { key: 'p1', sku: 'COF', name: 'Coffee', unit: parseKoinu('10.5'), count: 2, taxRateBp: 1000 };
const bun: CartLine = { key: 'p2', sku: 'BUN', name: 'Bun', unit: parseKoinu('3.33333333'), count: 3, taxRateBp: 825 };

describe('pos cart arithmetic', () => {
  it('computes per-line tax in basis points, rounded half up to the koinu', () => {
    expect(lineTax(coffee)).toBe(parseKoinu('2.1'));
    // 9.99999999 × 8.25 % = 0.8249999991750 → 0.82500000
    expect(lineTax(bun)).toBe(parseKoinu('0.825'));
    expect(lineTax({ unit: 1n, count: 1, taxRateBp: 5000 })).toBe(1n); // 0.5 koinu rounds up
    expect(lineTax({ unit: 1n, count: 1, taxRateBp: 4999 })).toBe(0n);
    expect(() => lineTax({ unit: 1n, count: 1, taxRateBp: -1 })).toThrow(RangeError);
  });

  it('totals items, tax, fee, shipping, discount and tip', () => {
    const t = cartTotals([coffee, bun], {
      fee: parseKoinu('1'),
      shipping: parseKoinu('2.5'),
      discount: parseKoinu('5'),
      tip: parseKoinu('0.75'),
    });
    expect(t.subtotal).toBe(parseKoinu('30.99999999'));
    expect(t.tax).toBe(parseKoinu('2.925'));
    expect(t.total).toBe(parseKoinu('33.17499999'));
    expect(t.count).toBe(5);
  });

  it('converts to fiat at the store rate with half-up cents', () => {
    expect(fiatOf(parseKoinu('100'), '0.1234')).toBe('12.34');
    expect(fiatOf(parseKoinu('1'), '0.125')).toBe('0.13');
    expect(fiatOf(parseKoinu('1'), '0.124')).toBe('0.12');
    expect(fiatOf(0n, '0.5')).toBe('0.00');
    expect(fiatOf(parseKoinu('1'), '')).toBeNull();
    expect(fiatOf(parseKoinu('1'), 'abc')).toBeNull();
    expect(fiatOf(parseKoinu('1'), '0')).toBeNull();
  });

  it('builds the exact docs/api.md body, which the relay prices to the same total', () => {
    const extras = { fee: parseKoinu('1'), shipping: parseKoinu('2.5'), discount: parseKoinu('5'), tip: parseKoinu('0.75') };
    const body = paymentBody([coffee, bun], extras, { rate: '0.2', currency: 'USD' }, { orderReference: 'A073' });
    expect(body).toEqual({
      items: [
        { type: 'item', id: 'COF', name: 'Coffee', count: 2, unit: '10.5', tax: '2.1' },
        { type: 'item', id: 'BUN', name: 'Bun', count: 3, unit: '3.33333333', tax: '0.825' },
        { type: 'fee', id: 'fee', name: 'Fee', count: 1, unit: '1' },
        { type: 'shipping', id: 'shipping', name: 'Shipping', count: 1, unit: '2.5' },
        { type: 'discount', id: 'discount', name: 'Discount', count: 1, unit: '-5' },
        { type: 'donation', id: 'tip', name: 'Tip', count: 1, unit: '0.75' },
      ],
      order_reference: 'A073',
      fiat_total: '6.63', // 33.17499999 × 0.2 = 6.634999998
      fiat_tax: '0.59', // 2.925 × 0.2 = 0.585
      fiat_currency: 'USD',
    });
    const priced = priceRequest(JSON.parse(JSON.stringify(body)), REGTEST);
    expect(priced.total).toBe(cartTotals([coffee, bun], extras).total);
    expect(priced.taxes).toBe(parseKoinu('2.925'));
    expect(priced.fees).toBe(parseKoinu('1'));
    expect(priced.quantity).toBe(5);
  });

  it('omits zero extras, zero tax and fiat without a currency or rate', () => {
    const plain = { ...coffee, taxRateBp: 0 };
    expect(paymentBody([plain], NO_EXTRAS, { rate: '0.2', currency: '' })).toEqual({
      items: [{ type: 'item', id: 'COF', name: 'Coffee', count: 2, unit: '10.5' }],
    });
    expect(paymentBody([plain], NO_EXTRAS, { rate: '', currency: 'USD' })).not.toHaveProperty('fiat_total');
    // Only JPG/PNG URLs reach the wallet as item icons.
    expect(paymentBody([{ ...plain, icon: '/pos-icons/coffee.svg' }], NO_EXTRAS, { rate: '', currency: '' }).items[0]).not.toHaveProperty(
      'icon',
    );
    expect(paymentBody([{ ...plain, icon: 'https://shop.example/c.png' }], NO_EXTRAS, { rate: '', currency: '' }).items[0].icon).toBe(
      'https://shop.example/c.png',
    );
  });

  it('refuses an empty cart, a non-positive total and negative extras', () => {
    expect(() => paymentBody([], NO_EXTRAS, { rate: '', currency: '' })).toThrow(EmptyCartError);
    expect(() => paymentBody([coffee], { ...NO_EXTRAS, discount: parseKoinu('100') }, { rate: '', currency: '' })).toThrow(
      /greater than 0/,
    );
    expect(() => paymentBody([coffee], { ...NO_EXTRAS, fee: -1n }, { rate: '', currency: '' })).toThrow(RangeError);
    expect(() => paymentBody([{ ...coffee, count: 0 }], { ...NO_EXTRAS, fee: 1n }, { rate: '', currency: '' })).toThrow(RangeError);
  });

  it('keypad entry keeps a valid 8-DP amount', () => {
    let s = '';
    for (const k of ['0', '0', '1', '2', '.', '5']) s = keypadPress(s, k);
    expect(s).toBe('12.5');
    expect(keypadKoinu(s)).toBe(parseKoinu('12.5'));
    expect(keypadPress('1.12345678', '9')).toBe('1.12345678');
    expect(keypadPress('1.5', '.')).toBe('1.5');
    expect(keypadPress('', '.')).toBe('0.');
    expect(keypadPress('12', '⌫')).toBe('1');
    expect(keypadPress('12', 'C')).toBe('');
    expect(keypadPress('99999999999', '9')).toBe('99999999999');
    expect(keypadKoinu('')).toBeNull();
    expect(keypadKoinu('0.')).toBe(0n);
  });
});
