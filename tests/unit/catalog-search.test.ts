// The till's search, scanner lookup and category order (docs/catalog.md): pure functions.
import { describe, expect, it } from 'vitest';
import { ALL, filterProducts, findByCode } from '@/lib/pos/catalog-search';
import { orderCategories } from '@/lib/catalog/categories';
import { csvCell } from '@/lib/backoffice/catalog-csv';

const P = [
  { sku: 'COF', name: 'Coffee', barcode: '4006381333931', category: 'Drinks' },
  { sku: 'TEA', name: 'Green tea', barcode: '', category: 'Drinks' },
  { sku: 'ICED-TEA', name: 'Iced tea', barcode: 'TEA', category: 'Cold' },
  { sku: 'CRE', name: 'Crème brûlée', barcode: '', category: 'Food' },
];
const skus = (ps: { sku: string }[]) => ps.map((p) => p.sku);

describe('filterProducts', () => {
  it('filters by category, and by name, SKU and barcode, exact codes first, then name prefixes', () => {
    expect(skus(filterProducts(P, ALL, ''))).toEqual(['COF', 'TEA', 'ICED-TEA', 'CRE']);
    expect(skus(filterProducts(P, 'Drinks', ''))).toEqual(['COF', 'TEA']);
    expect(skus(filterProducts(P, ALL, 'tea'))).toEqual(['TEA', 'ICED-TEA']); // both exact (SKU, barcode)
    expect(skus(filterProducts(P, ALL, 'ice'))).toEqual(['ICED-TEA']);
    expect(skus(filterProducts(P, ALL, '333931'))).toEqual(['COF']);
    expect(skus(filterProducts(P, ALL, 'creme'))).toEqual(['CRE']); // accents folded
    expect(skus(filterProducts(P, 'Food', 'tea'))).toEqual([]);
    expect(skus(filterProducts(P, ALL, 'c'))).toEqual(['COF', 'CRE', 'ICED-TEA']);
  });
});

describe('findByCode', () => {
  it('takes the barcode before the SKU, then the SKU in any case, and nothing for an unknown code', () => {
    expect(findByCode(P, 'TEA')?.sku).toBe('ICED-TEA'); // the barcode TEA wins over the SKU TEA
    expect(findByCode(P, '4006381333931')?.sku).toBe('COF');
    expect(findByCode(P, 'cof')?.sku).toBe('COF');
    expect(findByCode(P, '999')).toBeNull();
    expect(findByCode(P, '')).toBeNull();
  });
});

describe('orderCategories', () => {
  it('keeps the listed order, drops unused ones, and puts the rest after, alphabetically', () => {
    expect(orderCategories(['Food', 'Drinks', 'Unused'], ['Drinks', 'Zebra', '', 'Apples', 'Food', 'Drinks'])).toEqual([
      'Food',
      'Drinks',
      'Apples',
      'Zebra',
    ]);
  });
});

describe('csvCell', () => {
  it('defuses formula cells with a leading quote and quotes per RFC 4180', () => {
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+x')).toBe("'+x");
    expect(csvCell(-3)).toBe("'-3");
    expect(csvCell('@a, b')).toBe(`"'@a, b"`);
    expect(csvCell('say "hi"')).toBe(`"say ""hi"""`);
    expect(csvCell(null)).toBe('');
    expect(csvCell(false)).toBe('false');
  });
});
