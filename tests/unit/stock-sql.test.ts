// The stock a payment's transitions move (docs/catalog.md#stock): which rows of the state table
// take a sale's goods and which give them back, and the /pay acceptance statement carrying the
// same sale CTEs as lib/stock's own statement (one text, checked here, since the one-writer scan
// must be able to parse each statement whole).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRANSITIONS } from '@/lib/payments';
import { TAKE_SALE_SQL, takeSaleCtes } from '@/lib/stock/sale-sql';

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

describe('the /pay acceptance statement', () => {
  it('carries the sale CTEs of TAKE_SALE_SQL, byte for byte (whitespace aside), in both its forms', () => {
    const src = readFileSync(join(__dirname, '../../lib/payments/accept-sql.ts'), 'utf8');
    const ctes = takeSaleCtes(TAKE_SALE_SQL);
    expect(ctes).toMatch(/^st_l AS \(.*INSERT INTO stock_movement.*UPDATE product pr SET stock = .*RETURNING pr\.id\)$/);
    const flat = src.replace(/\s+/g, ' ');
    expect(flat.split(ctes).length - 1).toBe(2);
  });
});
