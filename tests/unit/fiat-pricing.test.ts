// Fiat-priced vendor requests (docs/api.md#pricing-in-a-fiat-currency): the currency a request may use, and the
// conversion of every line at one rate, half-up to the koinu, with total = sum of the lines.
import { describe, expect, it } from 'vitest';
import { convertFiatRequest, requestCurrency } from '@/lib/payments/creation/fiat-request';
import { priceRequest } from '@/lib/payments/creation/request';
import { InvalidRequestError } from '@/lib/errors';
import { currencyMinorDigits, parseDecimal } from '@/lib/money';
import { MAINNET } from '@/lib/doge';

const rate = (s: string) => parseDecimal(s);
const price = (body: unknown, currency: string, r: string) => priceRequest(convertFiatRequest(body, currency, rate(r)).body, MAINNET);

function field(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidRequestError);
    return (e as InvalidRequestError).field;
  }
  throw new Error('expected an InvalidRequestError');
}

describe('requestCurrency', () => {
  it('absent or DOGE is DOGE; the pricing currency is itself; anything else is 400 naming currency', () => {
    expect(requestCurrency({ items: [] }, 'USD')).toBe('DOGE');
    expect(requestCurrency({ currency: 'DOGE' }, 'USD')).toBe('DOGE');
    expect(requestCurrency({ currency: 'USD' }, 'USD')).toBe('USD');
    expect(field(() => requestCurrency({ currency: 'EUR' }, 'USD'))).toBe('currency');
    expect(field(() => requestCurrency({ currency: 'USD' }, 'DOGE'))).toBe('currency');
    expect(field(() => requestCurrency({ currency: 'usd' }, 'USD'))).toBe('currency');
    expect(field(() => requestCurrency({ currency: 5 }, 'USD'))).toBe('currency');
  });
});

describe('convertFiatRequest: half-up at the koinu, per line', () => {
  it('$2.00 at 0.1 USD/DOGE is exactly 20 DOGE, with the fiat sums as priced', () => {
    const c = convertFiatRequest(
      { currency: 'USD', items: [{ type: 'item', id: 'A', name: 'Coffee', count: 1, unit: '2.00' }] },
      'USD',
      rate('0.1'),
    );
    expect(c.body.currency).toBeUndefined();
    expect(c.fiat).toMatchObject({ total: '2.00', tax: '0.00', totalMinor: 200n });
    const p = priceRequest(c.body, MAINNET);
    expect(p.total).toBe(2_000_000_000n);
    expect(p.request).toMatchObject({ fiat_total: '2.00', fiat_tax: '0.00', fiat_currency: 'USD' });
  });

  it('rounds to the nearest koinu: $0.05 at 0.3 goes up, $0.01 at 0.3 goes down', () => {
    // 0.01 / 0.3 = 0.0333333… DOGE → 3333333.33 koinu → 3333333 (down)
    // 0.05 / 0.3 = 0.1666666… DOGE → 16666666.67 koinu → 16666667 (up)
    const c = convertFiatRequest(
      {
        items: [
          { type: 'item', id: 'A', name: 'a', count: 1, unit: '0.05' },
          { type: 'item', id: 'B', name: 'b', count: 1, unit: '0.01' },
        ],
      },
      'USD',
      rate('0.3'),
    );
    expect(c.body.items).toMatchObject([{ unit: '0.16666667' }, { unit: '0.03333333' }]);
  });

  it('an exact half koinu goes up; less than half goes down', () => {
    // 1 cent / 2000000 USD per DOGE = 0.000000005 DOGE = 0.5 koinu → 1 (half up)
    const c = convertFiatRequest({ items: [{ type: 'item', id: 'A', name: 'a', count: 1, unit: '0.01' }] }, 'USD', rate('2000000'));
    expect(c.body.items).toMatchObject([{ unit: '0.00000001' }]);
    const c2 = convertFiatRequest({ items: [{ type: 'item', id: 'A', name: 'a', count: 1, unit: '0.01' }] }, 'USD', rate('6000000'));
    expect(c2.body.items).toMatchObject([{ unit: '0' }]); // 0.1666 koinu → 0
  });

  it('tax is converted per line; the line total is count × the converted unit; total = sum of the lines', () => {
    // 3 × $1.99 + $0.48 tax, plus $0.75 fee, at 0.07 USD/DOGE
    const body = {
      currency: 'USD',
      items: [
        { type: 'item', id: 'A', name: 'Muffin', count: 3, unit: '1.99', tax: '0.48' },
        { type: 'fee', id: 'fee', name: 'Fee', count: 1, unit: '0.75' },
      ],
    };
    const c = convertFiatRequest(body, 'USD', rate('0.07'));
    // 1.99 / 0.07 = 28.428571428571… → 28.42857143; 0.48 / 0.07 = 6.857142857… → 6.85714286; 0.75 / 0.07 = 10.714285714… → 10.71428571
    expect(c.body.items).toMatchObject([{ unit: '28.42857143', tax: '6.85714286' }, { unit: '10.71428571' }]);
    const p = priceRequest(c.body, MAINNET);
    expect(p.lines[0]).toMatchObject({ unit: 2_842_857_143n, total: 8_528_571_429n, tax: 685_714_286n });
    expect(p.total).toBe(8_528_571_429n + 685_714_286n + 1_071_428_571n);
    expect(p.taxes).toBe(685_714_286n);
    expect(p.fees).toBe(1_071_428_571n);
    expect(c.fiat).toMatchObject({ total: '7.20', tax: '0.48' });
  });

  it('discounts, tips (donation), shipping and tax lines convert the same way; a discount rounds like its positive twin', () => {
    const c = convertFiatRequest(
      {
        items: [
          { type: 'item', id: 'A', name: 'a', count: 1, unit: '10.00' },
          { type: 'shipping', id: 's', name: 'Ship', count: 1, unit: '1.00' },
          { type: 'tax', id: 't', name: 'City tax', count: 1, unit: '0.50' },
          { type: 'discount', id: 'd', name: 'Discount', count: 1, unit: '-0.05' },
          { type: 'donation', id: 'tip', name: 'Tip', count: 1, unit: '0.05' },
        ],
      },
      'USD',
      rate('0.3'),
    );
    const units = (c.body.items as { unit: string }[]).map((i) => i.unit);
    expect(units).toEqual(['33.33333333', '3.33333333', '1.66666667', '-0.16666667', '0.16666667']);
    expect(c.fiat).toMatchObject({ total: '11.50', tax: '0.50' });
    const p = priceRequest(c.body, MAINNET);
    expect(p.taxes).toBe(166_666_667n);
    expect(p.total).toBe(3_333_333_333n + 333_333_333n + 166_666_667n - 16_666_667n + 16_666_667n);
  });

  it('0-decimal currencies (JPY, as Intl says): "150" yen, and "150.5" is refused', () => {
    expect(currencyMinorDigits('JPY')).toBe(
      new Intl.NumberFormat('en', { style: 'currency', currency: 'JPY' }).resolvedOptions().maximumFractionDigits,
    );
    expect(currencyMinorDigits('USD')).toBe(
      new Intl.NumberFormat('en', { style: 'currency', currency: 'USD' }).resolvedOptions().maximumFractionDigits,
    );
    const p = price({ items: [{ type: 'item', id: 'A', name: 'a', count: 2, unit: '150' }] }, 'JPY', '19.03');
    // 150 / 19.03 = 7.88229111928533… → 7.88229112 DOGE each
    expect(p.lines[0]).toMatchObject({ unit: 788_229_112n, total: 1_576_458_224n });
    expect(p.request.fiat_total).toBe('300');
    expect(
      field(() => convertFiatRequest({ items: [{ type: 'item', id: 'A', name: 'a', count: 1, unit: '150.5' }] }, 'JPY', rate('19'))),
    ).toBe('items[0].unit');
  });

  it('refuses more decimals than the currency has, a wrong line total, disagreeing fiat fields and p2pkh outputs', () => {
    const it1 = { type: 'item', id: 'A', name: 'a', count: 2, unit: '1.50' };
    expect(field(() => convertFiatRequest({ items: [{ ...it1, unit: '1.505' }] }, 'USD', rate('0.1')))).toBe('items[0].unit');
    expect(field(() => convertFiatRequest({ items: [{ ...it1, total: '3.01' }] }, 'USD', rate('0.1')))).toBe('items[0].total');
    expect(field(() => convertFiatRequest({ items: [it1], fiat_total: '3.01' }, 'USD', rate('0.1')))).toBe('fiat_total');
    expect(field(() => convertFiatRequest({ items: [it1], fiat_currency: 'EUR' }, 'USD', rate('0.1')))).toBe('fiat_currency');
    expect(
      field(() =>
        convertFiatRequest(
          { items: [it1], outputs: [{ address: 'DPD7uK4B1kRmbfGmytBhG1DZjaMWNfbpwY', amount: '30' }] },
          'USD',
          rate('0.1'),
        ),
      ),
    ).toBe('outputs[0]');
    // agreeing fiat fields and a right line total are fine; the total is re-expressed in DOGE
    const ok = convertFiatRequest({ items: [{ ...it1, total: '3.00' }], fiat_total: '3.00', fiat_currency: 'USD' }, 'USD', rate('0.1'));
    expect(ok.body.items).toMatchObject([{ unit: '15', total: '30' }]);
  });

  it('the converted request still meets the DOGE rules: under the dust limit is refused', () => {
    expect(field(() => price({ items: [{ type: 'item', id: 'A', name: 'a', count: 1, unit: '0.01' }] }, 'USD', '10'))).toBe('items');
  });
});
