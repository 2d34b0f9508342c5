import { describe, expect, it } from 'vitest';
import { priceRequest } from '@/lib/payments/creation/request';
import { InvalidRequestError } from '@/lib/errors';
import { MAINNET, REGTEST } from '@/lib/doge';

const ADDR = 'DPD7uK4B1kRmbfGmytBhG1DZjaMWNfbpwY';
const item = (o: Record<string, unknown> = {}) => ({
  type: 'item',
  id: 'SKU-1',
  name: 'Coffee',
  count: 2,
  unit: '10.5',
  tax: '1.05',
  ...o,
});

function reject(body: unknown, field: string, msg?: RegExp) {
  try {
    priceRequest(body, MAINNET);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidRequestError);
    expect((e as InvalidRequestError).field).toBe(field);
    if (msg) expect((e as Error).message).toMatch(msg);
    return;
  }
  throw new Error(`expected a rejection naming ${field}`);
}

describe('priceRequest: line arithmetic (docs/api.md)', () => {
  it('computes the example of docs/api.md: 2 × 10.5 + 1.05 tax + 1 fee = 23.05', () => {
    const r = priceRequest({ items: [item(), { type: 'fee', id: 'svc', name: 'Service', count: 1, unit: '1' }] }, MAINNET);
    expect(r.lines[0]).toMatchObject({ count: 2, unit: 1_050_000_000n, total: 2_100_000_000n, tax: 105_000_000n });
    expect(r.total).toBe(2_305_000_000n);
    expect(r.taxes).toBe(105_000_000n);
    expect(r.fees).toBe(100_000_000n);
    expect(r.quantity).toBe(2);
    expect(r.outputs).toEqual([]);
    expect(r.hasOwnP2pkh).toBe(false);
  });

  it('sums tax lines into taxes, counts only item units as quantity, and subtracts discounts', () => {
    const r = priceRequest(
      {
        items: [
          item({ tax: undefined }),
          { type: 'tax', id: 'vat', name: 'VAT', count: 1, unit: '2.1' },
          { type: 'shipping', id: 'ship', name: 'Post', count: 1, unit: '3' },
          { type: 'donation', id: 'tip', name: 'Tip', count: 1, unit: '0.5' },
          { type: 'discount', id: 'promo', name: 'Promo', count: 1, unit: '-4.6' },
          { type: 'signing', id: 'sig', name: 'Sign this' },
        ],
      },
      MAINNET,
    );
    expect(r.total).toBe(21n * 100_000_000n + 210_000_000n + 300_000_000n + 50_000_000n - 460_000_000n);
    expect(r.taxes).toBe(210_000_000n);
    expect(r.fees).toBe(0n);
    expect(r.quantity).toBe(2);
    expect(r.lines[5]).toMatchObject({ type: 'signing', count: null, unit: null, total: null, tax: null });
  });

  it('is exact for 8-decimal amounts far beyond float precision', () => {
    const r = priceRequest({ items: [item({ count: 3, unit: '33333333.33333333', tax: '0.00000001' })] }, MAINNET);
    expect(r.total).toBe(3n * 3_333_333_333_333_333n + 1n);
  });

  it('accepts a line total that agrees and rejects one that does not, naming the field', () => {
    expect(priceRequest({ items: [item({ total: '21' })] }, MAINNET).total).toBe(2_205_000_000n);
    reject({ items: [item({ total: '21.00000001' })] }, 'items[0].total', /count × unit \(21\)/);
  });

  it('keeps data outputs and accepts own p2pkh outputs only when they sum to the total', () => {
    const r = priceRequest(
      {
        items: [item()],
        outputs: [
          { type: 'data', data: '68656C6C6F' },
          { address: ADDR, amount: '22.05' },
        ],
      },
      MAINNET,
    );
    expect(r.outputs).toEqual([
      { type: 'data', address: null, amount: null, data: '68656c6c6f' },
      { type: 'p2pkh', address: ADDR, amount: 2_205_000_000n, data: null },
    ]);
    expect(r.hasOwnP2pkh).toBe(true);
    reject({ items: [item()], outputs: [{ address: ADDR, amount: '22' }] }, 'outputs', /sum to 22 but the total is 22.05/);
  });

  it.each([
    [{ items: [] }, 'items'],
    [{ items: [item({ type: 'discount', unit: '1' })] }, 'items[0].unit'],
    [{ items: [item({ type: 'discount', unit: '0' })] }, 'items[0].unit'],
    [{ items: [item({ unit: '-1' })] }, 'items[0].unit'],
    [{ items: [item({ type: 'fee', unit: '-1', tax: undefined })] }, 'items[0].unit'],
    [{ items: [item({ tax: '-0.1' })] }, 'items[0].tax'],
    [{ items: [item({ unit: '1.123456789' })] }, 'items[0].unit'],
    [{ items: [item({ unit: '1e3' })] }, 'items[0].unit'],
    [{ items: [item({ unit: ' 1' })] }, 'items[0].unit'],
    [{ items: [item({ count: 0 })] }, 'items[0].count'],
    [{ items: [item({ count: 1.5 })] }, 'items[0].count'],
    [{ items: [item({ count: undefined })] }, 'items[0].count'],
    [{ items: [item({ unit: undefined })] }, 'items[0].unit'],
    [{ items: [{ type: 'signing', id: 's', name: 'S', count: 1 }] }, 'items[0].count'],
    [{ items: [{ type: 'signing', id: 's', name: 'S', unit: '1' }] }, 'items[0].unit'],
    [{ items: [{ type: 'signing', id: 's', name: 'S', total: '1' }] }, 'items[0].total'],
    [{ items: [{ type: 'signing', id: 's', name: 'S', tax: '1' }] }, 'items[0].tax'],
    [{ items: [item({ type: 'coupon' })] }, 'items[0].type'],
    [{ items: [item()], outputs: [{ type: 'script', data: 'aa' }] }, 'outputs[0].type'],
    [{ items: [item()], outputs: [{ type: 'data', data: 'abc' }] }, 'outputs[0].data'],
    [{ items: [item()], outputs: [{ type: 'data', data: 'zz' }] }, 'outputs[0].data'],
    [{ items: [item()], outputs: [{ type: 'data', data: 'ab'.repeat(81) }] }, 'outputs[0].data'],
    [{ items: [item()], outputs: [{ type: 'data', data: 'ab', amount: '1' }] }, 'outputs[0].amount'],
    [{ items: [item()], outputs: [{ address: 'DPD7uK4B1kRmbfGmytBhG1DZjaMWNfbpwX', amount: '22.05' }] }, 'outputs[0].address'],
    [{ items: [item()], fiat_total: '5.00' }, 'fiat_currency'],
    [{ items: [item()], fiat_tax: '0.23' }, 'fiat_currency'],
    [{ items: [item()], fiat_total: '5.00', fiat_currency: 'usd' }, 'fiat_currency'],
    [{ items: [item()], meta: { table: '7' } }, 'meta.table'],
    [{ items: [item()], mint_hash: 'xyz' }, 'mint_hash'],
    [{ items: [item()], timeout: 5 }, 'timeout'],
    [{ items: [item()], surprise: 1 }, ''],
    [{ items: [{ type: 'discount', id: 'd', name: 'D', count: 1, unit: '-5' }] }, 'items'],
  ])('rejects %j naming %s', (body, field) => reject(body, field));

  it('an ordinary 8-decimal string is rejected when it exceeds 8 decimals, even though the reference truncates', () => {
    reject({ items: [item({ unit: '0.000000001' })] }, 'items[0].unit', /decimal/);
  });

  it('validates output addresses against the configured network', () => {
    expect(() => priceRequest({ items: [item()], outputs: [{ address: ADDR, amount: '22.05' }] }, REGTEST)).toThrow(InvalidRequestError);
  });

  it('rejects a body that is not an object', () => {
    expect(() => priceRequest('nope', MAINNET)).toThrow(InvalidRequestError);
    expect(() => priceRequest(null, MAINNET)).toThrow(InvalidRequestError);
  });
});

describe('priceRequest: URLs, control characters, dust and overflow', () => {
  const https = { allowHttpUrls: false };
  const rejectWith = (body: unknown, field: string, opts = https) => {
    try {
      priceRequest(body, MAINNET, opts);
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidRequestError);
      expect((e as InvalidRequestError).field).toBe(field);
      return;
    }
    throw new Error(`expected a rejection naming ${field}`);
  };

  it.each([
    [{ items: [item()], vendor_order_url: 'javascript:alert(1)' }, 'vendor_order_url'],
    [{ items: [item()], vendor_order_url: 'JAVASCRIPT:alert(1)' }, 'vendor_order_url'],
    [{ items: [item()], vendor_order_url: 'http://shop.example/o/1' }, 'vendor_order_url'],
    [{ items: [item()], vendor_order_url: 'https://user:pw@shop.example/o/1' }, 'vendor_order_url'],
    [{ items: [item()], vendor_order_url: 'https:///path' }, 'vendor_order_url'],
    [{ items: [item({ icon: 'data:image/png;base64,AAAA' })] }, 'items[0].icon'],
    [{ items: [item(), item({ icon: 'ftp://x/y.png' })] }, 'items[1].icon'],
    [{ items: [item({ desc: 'a\u0000b' })] }, 'items[0].desc'],
    [{ items: [item({ id: 'x\r\n' })] }, 'items[0].id'],
    [{ items: [item()], note: 'line\nbreak' }, 'note'],
    [{ items: [item()], pending_token_balance_id: '\u009b' }, 'pending_token_balance_id'],
    [{ items: [item()], meta: { 'com.example.a': '\u0007' } }, 'meta.com.example.a'],
    [{ items: [item({ count: 1, unit: '0.00000001', tax: undefined })] }, 'items'],
    [{ items: [item({ count: 1, unit: '0.0099', tax: '0.00009999' })] }, 'items'],
    [
      {
        items: [
          item({ count: 10, unit: '10000000000', tax: undefined }),
          { type: 'discount', id: 'd', name: 'D', count: 9, unit: '-10000000000' },
        ],
      },
      'items[0].total',
    ],
    [{ items: [item({ count: 2, unit: '6000000000', tax: undefined })] }, 'items[0].total'],
    [
      {
        items: [
          { type: 'tax', id: 't', name: 'T', count: 1, unit: '10000000000' },
          { type: 'tax', id: 't2', name: 'T2', count: 1, unit: '1' },
          { type: 'discount', id: 'd', name: 'D', count: 1, unit: '-10' },
        ],
      },
      'items',
    ],
    [
      {
        items: [item({ count: 1, unit: '1.005', tax: undefined })],
        outputs: [
          { address: ADDR, amount: '1' },
          { address: ADDR, amount: '0.005' },
        ],
      },
      'outputs[1].amount',
    ],
  ])('rejects %j naming %s', (body, field) => rejectWith(body, field));

  it('takes https URLs always and http URLs only while PUBLIC_URL is http', () => {
    const body = { items: [item({ icon: 'https://shop.example/c.png' })], vendor_order_url: 'https://shop.example/o/1?x=1' };
    expect(priceRequest(body, MAINNET, https).lines[0].icon).toBe('https://shop.example/c.png');
    const http = { items: [item({ icon: 'http://localhost:3000/c.png' })], vendor_order_url: 'http://localhost:3000/o/1' };
    expect(priceRequest(http, MAINNET, { allowHttpUrls: true }).request.vendor_order_url).toBe('http://localhost:3000/o/1');
    rejectWith(http, 'vendor_order_url');
    expect(priceRequest({ items: [item({ count: 1, unit: '0.01', tax: undefined })] }, MAINNET).total).toBe(1_000_000n);
    expect(priceRequest({ items: [item({ count: 1, unit: '10000000000', tax: undefined })] }, MAINNET).total).toBe(10n ** 18n);
  });
});
