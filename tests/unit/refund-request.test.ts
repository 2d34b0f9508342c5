// The refund request's pure logic (docs/api.md#refunds): validation naming the field, the refundable
// amount, fiat conversion at a rate, the refund's events and its fiat value in reports.
import { describe, expect, it } from 'vitest';
import { REGTEST, MAINNET } from '@/lib/doge';
import { parseDecimal } from '@/lib/money';
import {
  fiatRefundKoinu,
  lockedRate,
  parseRefundRequest,
  refundAddress,
  refundAmount,
  refundable,
  RefundConflictError,
} from '@/lib/refunds/request';
import { InvalidRequestError } from '@/lib/errors';
import { eventTypeFor } from '@/lib/payments';
import { amountRefunded } from '@/lib/payments';
import { koinuToFiatMinor, refundFiat } from '@/lib/reports/refunds';

const REG_ADDR = 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn'; // regtest/testnet p2pkh
const MAIN_ADDR = 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L';

function fieldOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof InvalidRequestError) return e.field;
    throw e;
  }
  throw new Error('did not throw');
}

describe('parseRefundRequest', () => {
  it('neither amount: the whole refundable amount; reason defaults to ""', () => {
    expect(parseRefundRequest({})).toEqual({ ask: { kind: 'all' }, address: null, reason: '', returnToStock: false });
    expect(parseRefundRequest({ amount: null, fiat_amount: null, rate: null, address: null, reason: 'x' }).ask).toEqual({ kind: 'all' });
  });
  it('return_to_stock: a boolean, false by default (docs/catalog.md#stock)', () => {
    expect(parseRefundRequest({ return_to_stock: true }).returnToStock).toBe(true);
    expect(() => parseRefundRequest({ return_to_stock: 'yes' })).toThrow(/return_to_stock/);
    expect(() => parseRefundRequest({ return_to_stock: 1 })).toThrow(/return_to_stock/);
  });
  it('a DOGE amount becomes koinu through lib/money; fiat keeps its text and rate (then by default)', () => {
    expect(parseRefundRequest({ amount: '1.5' }).ask).toEqual({ kind: 'doge', koinu: 150_000_000n });
    expect(parseRefundRequest({ fiat_amount: '2.00' }).ask).toEqual({ kind: 'fiat', text: '2.00', rate: 'then' });
    expect(parseRefundRequest({ fiat_amount: '2', rate: 'now' }).ask).toEqual({ kind: 'fiat', text: '2', rate: 'now' });
  });
  it('refuses bad input naming the field', () => {
    expect(fieldOf(() => parseRefundRequest(undefined))).toBe('body');
    expect(fieldOf(() => parseRefundRequest([]))).toBe('body');
    expect(fieldOf(() => parseRefundRequest({ amount: '1.123456789' }))).toBe('amount');
    expect(fieldOf(() => parseRefundRequest({ amount: '99999999999999999999' }))).toBe('amount');
    expect(fieldOf(() => parseRefundRequest({ amount: '1e3' }))).toBe('amount');
    expect(fieldOf(() => parseRefundRequest({ amount: '-1' }))).toBe('amount');
    expect(fieldOf(() => parseRefundRequest({ amount: '0.001' }))).toBe('amount'); // below dust
    expect(fieldOf(() => parseRefundRequest({ amount: 1 }))).toBe('amount');
    expect(fieldOf(() => parseRefundRequest({ amount: '1', fiat_amount: '1' }))).toBe('fiat_amount');
    expect(fieldOf(() => parseRefundRequest({ amount: '1', rate: 'now' }))).toBe('rate');
    expect(fieldOf(() => parseRefundRequest({ fiat_amount: '1', rate: 'later' }))).toBe('rate');
    expect(fieldOf(() => parseRefundRequest({ reason: 'a\u0000b' }))).toBe('reason');
    expect(fieldOf(() => parseRefundRequest({ address: 'x\u0000' }))).toBe('address');
    expect(fieldOf(() => parseRefundRequest({ reason: 'x'.repeat(501) }))).toBe('reason');
    expect(fieldOf(() => parseRefundRequest({ extra: 1 }))).toBe('');
  });
});

describe('refundAddress', () => {
  it('the asked address, else the customer refund address; p2pkh on the store network only', () => {
    expect(refundAddress(REG_ADDR, '', REGTEST)).toBe(REG_ADDR);
    expect(refundAddress(null, REG_ADDR, REGTEST)).toBe(REG_ADDR);
    expect(fieldOf(() => refundAddress(null, '', REGTEST))).toBe('address');
    expect(fieldOf(() => refundAddress(MAIN_ADDR, '', REGTEST))).toBe('address');
    expect(refundAddress(MAIN_ADDR, '', MAINNET)).toBe(MAIN_ADDR);
    expect(fieldOf(() => refundAddress('not an address', '', REGTEST))).toBe('address');
  });
});

describe('amounts', () => {
  it('refundable = amount_paid less non-failed refunds, never negative', () => {
    expect(refundable(500n, 200n)).toBe(300n);
    expect(refundable(500n, 700n)).toBe(0n);
  });
  it('the whole refundable amount, an amount within it, and 409s', () => {
    expect(refundAmount(null, 2_00000000n, 50000000n)).toBe(1_50000000n);
    expect(refundAmount(1_50000000n, 2_00000000n, 50000000n)).toBe(1_50000000n);
    expect(() => refundAmount(1_50000001n, 2_00000000n, 50000000n)).toThrow(RefundConflictError);
    expect(() => refundAmount(null, 0n, 0n)).toThrow(/nothing has been paid/);
    expect(() => refundAmount(1_00000000n, 0n, 0n)).toThrow(RefundConflictError);
    expect(() => refundAmount(null, 2_00000000n, 2_00000000n)).toThrow(/fully refunded/);
    expect(() => refundAmount(null, 2_00000000n, 1_99999999n)).toThrow(/dust/);
  });
  it('fiat at a rate: half-up to the koinu, canonical fiat text; bad fiat names fiat_amount', () => {
    expect(fiatRefundKoinu('1.5', 'USD', parseDecimal('0.2'))).toEqual({ koinu: 7_50000000n, fiat: '1.50' });
    expect(fiatRefundKoinu('1', 'USD', parseDecimal('3'))).toEqual({ koinu: 33333333n, fiat: '1.00' });
    expect(fiatRefundKoinu('2', 'USD', parseDecimal('3'))).toEqual({ koinu: 66666667n, fiat: '2.00' });
    expect(fieldOf(() => fiatRefundKoinu('1.001', 'USD', parseDecimal('0.2')))).toBe('fiat_amount');
    expect(fieldOf(() => fiatRefundKoinu('0', 'USD', parseDecimal('0.2')))).toBe('fiat_amount');
    expect(fieldOf(() => fiatRefundKoinu('0.01', 'USD', parseDecimal('100')))).toBe('fiat_amount'); // below dust
  });
  it('the locked rate ("then"): 409 without one', () => {
    expect(lockedRate({ rateValue: '0.2', fiatCurrency: 'USD' })).toMatchObject({ currency: 'USD', value: '0.2' });
    expect(() => lockedRate({ rateValue: '', fiatCurrency: 'USD' })).toThrow(RefundConflictError);
    expect(() => lockedRate({ rateValue: '0.2', fiatCurrency: '' })).toThrow(RefundConflictError);
    expect(() => lockedRate({ rateValue: 'abc', fiatCurrency: 'USD' })).toThrow(RefundConflictError);
  });
  it('amount_refunded counts accepted and confirmed refunds only', () => {
    expect(
      amountRefunded([
        { status: 'unpaid', total: 1n },
        { status: 'accepted', total: 10n },
        { status: 'confirmed', total: 100n },
        { status: 'declined', total: 1000n },
      ]),
    ).toBe(110n);
  });
});

describe('refund events and report fiat', () => {
  it('a refund row reports refund.* only; a payment row is unchanged', () => {
    const rf = { refundOf: 'p1' };
    expect(eventTypeFor(rf, 'payment.accepted')).toBe('refund.accepted');
    expect(eventTypeFor(rf, 'payment.paid_late')).toBe('refund.accepted');
    expect(eventTypeFor(rf, 'payment.confirmed')).toBe('refund.confirmed');
    expect(eventTypeFor(rf, 'refund.created')).toBe('refund.created');
    for (const t of ['payment.expired', 'payment.overpaid', 'payment.underpaid', 'payment.unconfirmed', 'payment.declined'] as const)
      expect(eventTypeFor(rf, t)).toBeNull();
    expect(eventTypeFor({ refundOf: null }, 'payment.overpaid')).toBe('payment.overpaid');
  });
  it('koinu at a rate in minor units, half-up; a refund fiat value from its own amount or the locked rate', () => {
    expect(koinuToFiatMinor(5_00000000n, 'USD', '0.2')).toBe(100n);
    expect(koinuToFiatMinor(2_50000000n, 'USD', '0.123')).toBe(31n); // 0.3075 → 0.31
    expect(koinuToFiatMinor(1n, 'USD', 'bad')).toBeNull();
    expect(refundFiat({ total: 1n, fiatTotal: '1.50', fiatCurrency: 'EUR', parentRate: '0.2', parentCurrency: 'USD' })).toEqual({
      currency: 'EUR',
      minor: 150n,
    });
    expect(refundFiat({ total: 5_00000000n, fiatTotal: '', fiatCurrency: '', parentRate: '0.2', parentCurrency: 'USD' })).toEqual({
      currency: 'USD',
      minor: 100n,
    });
    expect(refundFiat({ total: 5_00000000n, fiatTotal: '', fiatCurrency: '', parentRate: '', parentCurrency: '' })).toBeNull();
  });
});
