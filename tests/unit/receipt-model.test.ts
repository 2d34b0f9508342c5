import { describe, expect, it } from 'vitest';
import { receiptLines, type StoredLine } from '@/lib/receipts/model';
import { parseKoinu, formatKoinu } from '@/lib/money';

const k = (s: string) => parseKoinu(s, { allowNegative: true });
const line = (type: string, name: string, count: number | null, unit: string | null, tax: string | null = null): StoredLine => {
  const u = unit === null ? null : k(unit);
  return { type, name, count, unit: u, total: u === null || count === null ? null : BigInt(count) * u, tax: tax === null ? null : k(tax) };
};
const sum = (xs: string[]) => formatKoinu(xs.reduce((a, x) => a + k(x), 0n));

describe('receipt model: the lines include their tax and add up to the total', () => {
  it('items with taxes, a fee, a discount, a tip and a tax line', () => {
    const stored = [
      line('item', 'Coffee', 2, '10.5', '1.05'),
      line('item', 'Bagel', 3, '0.33333333', '0.01666667'),
      line('fee', 'Service', 1, '1'),
      line('shipping', 'Shipping', 1, '2.5'),
      line('discount', 'Discount', 1, '-3'),
      line('donation', 'Tip', 1, '0.5'),
      line('tax', 'City tax', 1, '0.2'),
      { type: 'signing', name: 'sig', count: null, unit: null, total: null, tax: null },
    ];
    // DESIGN.md §3: total = sum of line totals + item taxes
    const total = k('21') + k('1.05') + k('0.99999999') + k('0.01666667') + k('1') + k('2.5') - k('3') + k('0.5') + k('0.2');
    const r = receiptLines(stored, total);
    expect(r.lines.map((l) => [l.kind, l.name, l.count, l.unit, l.tax, l.total])).toEqual([
      ['item', 'Coffee', 2, '10.5', '1.05', '22.05'],
      ['item', 'Bagel', 3, '0.33333333', '0.01666667', '1.01666666'],
      ['fee', 'Service', null, '', '', '1'],
      ['shipping', 'Shipping', null, '', '', '2.5'],
      ['discount', 'Discount', null, '', '', '-3'],
      ['tip', 'Tip', null, '', '', '0.5'],
      ['tax', 'City tax', null, '', '', '0.2'],
    ]);
    expect(sum(r.lines.map((l) => l.total))).toBe(r.total);
    expect(r.total).toBe(formatKoinu(total));
    expect(r.taxes).toBe('1.26666667'); // 1.05 + 0.01666667 + 0.2
  });

  it('a stored total that disagrees with the lines gets a Rounding line, so the face still adds up', () => {
    const r = receiptLines([line('item', 'A', 1, '1', '0.1')], k('1.10000001'));
    expect(r.lines.at(-1)).toMatchObject({ kind: 'rounding', total: '0.00000001' });
    expect(sum(r.lines.map((l) => l.total))).toBe('1.10000001');
  });

  it('many lines of 1 koinu tax never drift (integer koinu, no floats)', () => {
    const stored = Array.from({ length: 30 }, (_, i) => line('item', `L${i}`, 1, '0.1', '0.00000001'));
    const total = 30n * (k('0.1') + 1n);
    const r = receiptLines(stored, total);
    expect(r.lines).toHaveLength(30);
    expect(r.lines[0].total).toBe('0.10000001');
    expect(sum(r.lines.map((l) => l.total))).toBe(formatKoinu(total));
  });
});
