import { describe, expect, it } from 'vitest';
import { fiatReceiptLines, hasFiatLines, receiptAmount, receiptLines, type StoredLine } from '@/lib/receipts/model';
import { parseKoinu, formatKoinu } from '@/lib/money';

const k = (s: string) => parseKoinu(s, { allowNegative: true });
const line = (type: string, name: string, count: number | null, unit: string | null, tax: string | null = null): StoredLine => {
  const u = unit === null ? null : k(unit);
  return { type, name, count, unit: u, total: u === null || count === null ? null : BigInt(count) * u, tax: tax === null ? null : k(tax) };
};
const sum = (xs: string[]) => formatKoinu(xs.reduce((a, x) => a + k(x), 0n));

describe('receipt model: the lines include their tax and add up to the total', () => {
  it("an item's options (its stored description) go with it; other lines carry none", () => {
    const latte = { ...line('item', 'Latte', 1, '4'), description: 'Oat, Extra shot' };
    const tip = { ...line('donation', 'Tip', 1, '1'), description: 'ignored' };
    const r = receiptLines([latte, line('item', 'Scone', 1, '2'), tip], k('7'));
    expect(r.lines.map((l) => l.desc)).toEqual(['Oat, Extra shot', undefined, undefined]);
  });

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
    // docs/api.md: total = sum of line totals + item taxes
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

describe('receipt model of a fiat-priced sale (docs/api.md#pricing-in-a-fiat-currency, docs/using-counter.md#reports-and-receipts)', () => {
  // The stored lines exactly as POST /api/v1/payments stores them: converted by convertFiatRequest
  // at one rate and priced by priceRequest, with each line's fiat unit and tax kept beside it.
  async function stored(body: unknown, rate: string): Promise<{ lines: StoredLine[]; total: bigint; fiatTotal: string; fiatTax: string }> {
    const { convertFiatRequest } = await import('@/lib/payments/creation/fiat-request');
    const { priceRequest } = await import('@/lib/payments/creation/request');
    const { MAINNET } = await import('@/lib/doge');
    const { parseDecimal } = await import('@/lib/money');
    const c = convertFiatRequest(body, 'USD', parseDecimal(rate));
    const p = priceRequest(c.body, MAINNET);
    const lines = p.lines.map((l, i) => ({
      type: l.type,
      name: l.name,
      count: l.count,
      unit: l.unit,
      total: l.total,
      tax: l.tax,
      fiatUnit: c.lines[i]?.unit ?? null,
      fiatTax: c.lines[i]?.tax ?? null,
    }));
    return { lines, total: p.total, fiatTotal: c.fiat.total, fiatTax: c.fiat.tax };
  }
  const usd = (items: unknown[]) => ({ currency: 'USD', items });
  const cents = (s: string) => {
    const [w, f = ''] = s.replace('-', '').split('.');
    return (s.startsWith('-') ? -1n : 1n) * (BigInt(w) * 100n + BigInt(f.padEnd(2, '0')));
  };

  it('shows each line as priced, in USD with its tax, adding up to fiat_total on the face', async () => {
    const s = await stored(
      usd([
        { type: 'item', id: 'MUF', name: 'Muffin', count: 3, unit: '1.99', tax: '0.48' },
        { type: 'item', id: 'TEA', name: 'Tea', count: 1, unit: '2.35', tax: '0.19' },
        { type: 'fee', id: 'svc', name: 'Service', count: 1, unit: '0.30' },
        { type: 'discount', id: 'disc', name: 'Discount', count: 1, unit: '-0.50' },
        { type: 'donation', id: 'tip', name: 'Tip', count: 1, unit: '1.00' },
        { type: 'signing', id: 'sig', name: 'sig' },
      ]),
      '0.07',
    );
    expect(s.fiatTotal).toBe('9.79');
    expect(hasFiatLines(s.lines, 'USD', '0.07')).toBe(true);
    const r = fiatReceiptLines(s.lines, s.fiatTotal, 'USD');
    expect(r.currency).toBe('USD');
    expect(r.lines.map((l) => [l.kind, l.name, l.count, l.unit, l.tax, l.total])).toEqual([
      ['item', 'Muffin', 3, '1.99', '0.48', '6.45'],
      ['item', 'Tea', 1, '2.35', '0.19', '2.54'],
      ['fee', 'Service', null, '', '', '0.30'],
      ['discount', 'Discount', null, '', '', '-0.50'],
      ['tip', 'Tip', null, '', '', '1.00'],
    ]);
    // no Rounding line: the lines sum exactly to fiat_total, and the taxes to fiat_tax
    expect(r.lines.reduce((a, l) => a + cents(l.total), 0n)).toBe(cents(s.fiatTotal));
    expect(r.total).toBe('9.79');
    expect(r.taxes).toBe(s.fiatTax);
    expect(r.taxes).toBe('0.67');
    // Intl, exactly, in the reader's language
    expect(receiptAmount(r.total, 'USD', 'en-US')).toBe('$9.79');
    expect(receiptAmount('-0.50', 'USD', 'en-US')).toBe('-$0.50');
    expect(receiptAmount('1234.5', 'DOGE', undefined, { dogeSuffix: true })).toBe('1234.5 DOGE');
    // The DOGE lines (what was paid) still sum to the payment's DOGE total: the DOGE model is unchanged.
    expect(receiptLines(s.lines, s.total).total).toBe(formatKoinu(s.total));
  });

  it('DOGE amounts are the fiat amounts ÷ rate rounded half-up to the koinu (1562.5 koinu → 1563)', async () => {
    // 0.01 USD at 640 USD/DOGE = 0.000015625 DOGE: exactly half a koinu over 1562
    const s = await stored(
      usd([
        { type: 'item', id: 'A', name: 'A', count: 1, unit: '0.01', tax: '0.01' },
        { type: 'item', id: 'B', name: 'B', count: 1, unit: '1.99' },
        { type: 'item', id: 'C', name: 'C', count: 2, unit: '64.00' },
      ]),
      '640',
    );
    expect(s.lines[0].unit).toBe(1563n);
    expect(s.lines[0].tax).toBe(1563n);
    // 1.99 / 640 = 0.003109375 DOGE = 310937.5 koinu → 310938
    expect(s.lines[1].unit).toBe(310938n);
    expect(s.lines[2].unit).toBe(10_000_000n);
    expect(s.total).toBe(1563n + 1563n + 310938n + 20_000_000n);
    const r = fiatReceiptLines(s.lines, s.fiatTotal, 'USD');
    expect(r.lines.map((l) => l.total)).toEqual(['0.02', '1.99', '128.00']);
    expect(r.total).toBe('130.01');
  });

  it('a DOGE-priced sale, or one stored before fiat lines were kept, stays in DOGE', () => {
    const doge = [line('item', 'A', 1, '1', '0.1')];
    expect(hasFiatLines(doge, '', '')).toBe(false);
    expect(hasFiatLines(doge, 'USD', '')).toBe(false); // fiat_total given by the vendor, no rate: informational
    expect(hasFiatLines(doge, 'USD', '0.07')).toBe(false); // an old fiat-priced row: no fiat unit per line
    expect(receiptLines(doge, k('1.1')).currency).toBe('DOGE');
  });
});
