// The change of a cash sale (docs/counter.md#cash): exact in the pricing currency's minor units,
// for currencies with 2, 0 and 3 decimals; less cash than the total, and malformed amounts, are
// refused naming the field. Pure (lib/cash/change.ts).
import { describe, expect, it } from 'vitest';
import { cashChange, CashAmountError } from '@/lib/cash/client';

describe('cashChange', () => {
  it.each([
    ['USD', 745n, '20', '20.00', '12.55'],
    ['USD', 745n, '7.45', '7.45', '0.00'],
    ['USD', 1n, '0.1', '0.10', '0.09'],
    ['EUR', 999_999_999_999_99n, '1000000000000', '1000000000000.00', '0.01'],
    ['JPY', 1350n, '2000', '2000', '650'],
    ['KWD', 1245n, '5', '5.000', '3.755'],
    ['BHD', 1n, '0.002', '0.002', '0.001'],
  ])('%s: total %s minor, %s received → change %s', (currency, total, received, shown, change) => {
    const c = cashChange(total, received, currency);
    expect(c.received).toBe(shown);
    expect(c.change).toBe(change);
    expect(c.changeMinor).toBe(c.receivedMinor - total);
  });

  it.each([
    ['USD', 745n, '7.44', /less than the total \(7\.45 USD\)/],
    ['USD', 745n, '20.001', /at most 2 decimal/],
    ['JPY', 1350n, '2000.5', /at most 0 decimal/],
    ['KWD', 1245n, '5.0001', /at most 3 decimal/],
    ['USD', 745n, '-20', /negative/],
    ['USD', 745n, '2e1', /exponent/],
    ['USD', 745n, '', /empty/],
    ['USD', 745n, ' 20', /whitespace/],
  ])('%s: %s minor with %j received is refused', (currency, total, received, why) => {
    try {
      cashChange(total, received, currency);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(CashAmountError);
      expect((e as CashAmountError).field).toBe('cash_received');
      expect((e as Error).message).toMatch(why);
    }
  });
});
