// The stock a payment's transitions move (docs/catalog.md#stock): which rows of the state table
// take a sale's goods and which give them back. The /pay acceptance takes them in its own
// statement through lib/stock's TAKE_SALE_CTES (tests/unit/one-writer.test.ts sees it write).
import { describe, expect, it } from 'vitest';
import { TRANSITIONS } from '@/lib/payments';

describe('the state table and stock', () => {
  it('takes stock exactly on the rows that make an unpaid payment paid', () => {
    const take = TRANSITIONS.filter((t) => t.stock === 'take')
      .map((t) => t.name)
      .sort();
    expect(take).toEqual([
      'cash.received',
      'chain.enough',
      'chain.enough_late',
      'merchant.settle_unpaid',
      'pay.accept',
      'pay.accept_zero_conf',
    ]);
  });

  it('gives stock back on every row into declined, and never elsewhere', () => {
    const back = TRANSITIONS.filter((t) => t.stock === 'return')
      .map((t) => t.name)
      .sort();
    expect(back).toEqual([
      'chain.double_spent_accepted',
      'chain.double_spent_confirmed',
      'merchant.invalid_accepted',
      'merchant.invalid_unpaid',
      'vendor.cancel',
    ]);
    // Short again (accepted → unpaid), confirmations and reorgs move no stock: goods left once.
    for (const n of ['chain.short_again', 'chain.confirm', 'chain.unconfirm', 'merchant.settle_accepted', 'timer.expired']) {
      expect(TRANSITIONS.find((t) => t.name === n)!.stock, n).toBeUndefined();
    }
  });
});
