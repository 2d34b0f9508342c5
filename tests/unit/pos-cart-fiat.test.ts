// The till priced in a fiat currency (docs/api.md#pricing-in-a-fiat-currency): cart amounts in minor units, the keypad's
// decimals, display through Intl, and a body that carries `currency` for the server to convert.
import { describe, expect, it } from 'vitest';
import { paymentBody, keypadPress, keypadAmount, moneyText, amountString, currencyDigits, NO_EXTRAS, type CartLine } from '@/lib/pos/cart';

const muffin: CartLine = { key: 'm', sku: 'MUF', name: 'Muffin', unit: 199n, count: 3, taxRateBp: 825 };

describe('the cart in USD', () => {
  it('sends "currency": "USD" with cents amounts, tax per line in cents (half up), and no hand-made fiat_* fields', () => {
    const b = paymentBody(
      [muffin],
      { ...NO_EXTRAS, discount: 50n, tip: 100n },
      { rate: '0.2', currency: 'USD' },
      { currency: 'USD', orderReference: 'R1' },
    );
    // 3 × 1.99 = 5.97; 8.25 % = 0.492525 → 0.49
    expect(b).toEqual({
      currency: 'USD',
      order_reference: 'R1',
      items: [
        { type: 'item', id: 'MUF', name: 'Muffin', count: 3, unit: '1.99', tax: '0.49' },
        { type: 'discount', id: 'discount', name: 'Discount', count: 1, unit: '-0.50' },
        { type: 'donation', id: 'tip', name: 'Tip', count: 1, unit: '1.00' },
      ],
    });
  });

  it('DOGE stays the default: no currency field, 8-DP amounts, the display fiat from the store rate', () => {
    const b = paymentBody([{ ...muffin, unit: 199_000_000n }], NO_EXTRAS, { rate: '0.2', currency: 'USD' });
    expect(b.currency).toBeUndefined();
    expect(b.items[0]).toMatchObject({ unit: '1.99', tax: '0.492525' });
    expect(b.fiat_currency).toBe('USD');
  });

  it("keypad: at most the currency's decimals (USD 2, JPY none, DOGE 8)", () => {
    let e = '';
    for (const k of ['1', '2', '.', '3', '4', '5']) e = keypadPress(e, k, currencyDigits('USD'));
    expect(e).toBe('12.34');
    expect(keypadAmount(e, 'USD')).toBe(1234n);
    expect(keypadAmount('12.', 'USD')).toBe(1200n);
    expect(keypadAmount('12,5', 'USD')).toBe(1250n);
    let y = '';
    for (const k of ['1', '.', '5']) y = keypadPress(y, k, currencyDigits('JPY'));
    expect(y).toBe('15');
    expect(keypadAmount('15', 'JPY')).toBe(15n);
    expect(keypadAmount('1.5', 'DOGE')).toBe(150_000_000n);
  });

  it("shows amounts through Intl, exactly, and writes them in the currency's fixed form", () => {
    expect(moneyText(123456789012345n, 'USD', 'en-US')).toBe('$1,234,567,890,123.45');
    expect(moneyText(1500n, 'JPY', 'en-US')).toBe('¥1,500');
    expect(moneyText(150_000_000n, 'DOGE')).toBe('Ð 1.50');
    expect(amountString(5n, 'USD')).toBe('0.05');
    expect(amountString(150_000_000n, 'DOGE')).toBe('1.5');
  });
});
