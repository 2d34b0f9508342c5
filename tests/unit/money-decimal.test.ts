import { describe, expect, it } from 'vitest';
import {
  AmountError,
  MAX_MONEY,
  parseFiatMinor,
  formatFiatMinor,
  compareDecimal,
  currencyMinorDigits,
  fiatToKoinu,
  formatDecimal,
  halveDecimal,
  addDecimal,
  parseDecimal,
} from '@/lib/money';

const d = parseDecimal;

describe('parseDecimal / formatDecimal (exact, never a float)', () => {
  it('reads decimals exactly, beyond what a double holds', () => {
    expect(formatDecimal(d('0.1234567890123456789'))).toBe('0.1234567890123456789');
    expect(formatDecimal(d('0.12340000'))).toBe('0.1234');
    expect(formatDecimal(d('12'))).toBe('12');
    expect(formatDecimal(d('-0.5'))).toBe('-0.5');
    expect(formatDecimal(d('000.0100'))).toBe('0.01');
    expect(formatDecimal(d('0'))).toBe('0');
    expect(formatDecimal(d('.5'))).toBe('0.5');
  });

  it('reads JSON exponents exactly', () => {
    expect(formatDecimal(d('1.234e-5'))).toBe('0.00001234');
    expect(formatDecimal(d('1.5E+3'))).toBe('1500');
    expect(formatDecimal(d('12e0'))).toBe('12');
    expect(d('1e-7')).toEqual({ m: 1n, s: 7 });
  });

  it('refuses NaN, Infinity, hex, whitespace, "+", and magnitudes a float would turn into Infinity', () => {
    for (const bad of ['NaN', 'Infinity', '-Infinity', '0x10', ' 1', '1 ', '+1', '1e400', '1e-400', '1.2.3', '', '-', 'e5', '1e', '١']) {
      expect(() => d(bad), bad).toThrow(AmountError);
    }
    expect(() => d('1'.repeat(41))).toThrow(/too many digits/);
    expect(() => d('1e41')).toThrow(/exponent/);
  });

  it('compares, adds and halves exactly', () => {
    expect(compareDecimal(d('0.1'), d('0.10'))).toBe(0);
    expect(compareDecimal(d('0.1'), d('0.09999999999999999999'))).toBe(1);
    expect(formatDecimal(halveDecimal(addDecimal(d('0.1'), d('0.2'))))).toBe('0.15');
    expect(formatDecimal(halveDecimal(d('0.00000001')))).toBe('0.000000005');
  });
});

describe('fiatToKoinu: fiat minor units / rate, half-up to the koinu', () => {
  it('converts exactly', () => {
    // $1.00 at 0.1234 USD/DOGE = 8.103727714748784440842787682333… DOGE
    expect(fiatToKoinu(100n, 'USD', d('0.1234'))).toBe(810_372_771n);
    // $1.00 at 0.3 = 3.333333333… → down; $2.00 at 0.3 = 6.666666666… → up
    expect(fiatToKoinu(100n, 'USD', d('0.3'))).toBe(333_333_333n);
    expect(fiatToKoinu(200n, 'USD', d('0.3'))).toBe(666_666_667n);
    // $0.01 at 0.16 = exactly 0.0625 DOGE
    expect(fiatToKoinu(1n, 'USD', d('0.16'))).toBe(6_250_000n);
    expect(fiatToKoinu(0n, 'USD', d('0.16'))).toBe(0n);
  });

  it('rounds a half koinu up, and just under a half down', () => {
    // $0.01 at 2,000,000 USD/DOGE is exactly 0.5 koinu
    expect(fiatToKoinu(1n, 'USD', d('2000000'))).toBe(1n);
    expect(fiatToKoinu(3n, 'USD', d('2000000'))).toBe(2n); // 1.5
    expect(fiatToKoinu(5n, 'USD', d('2000000'))).toBe(3n); // 2.5 (not banker's rounding)
    expect(fiatToKoinu(1n, 'USD', d('2000000.000001'))).toBe(0n); // 0.49999999975
    expect(fiatToKoinu(1n, 'USD', d('1999999.999999'))).toBe(1n); // 0.50000000025
    // a half away from zero for negative lines (discounts)
    expect(fiatToKoinu(-1n, 'USD', d('2000000'))).toBe(-1n);
    expect(fiatToKoinu(-100n, 'USD', d('0.3'))).toBe(-333_333_333n);
    expect(fiatToKoinu(-200n, 'USD', d('0.3'))).toBe(-666_666_667n);
  });

  it('uses the currency minor units (JPY 0, KWD 3)', () => {
    expect(currencyMinorDigits('USD')).toBe(2);
    expect(currencyMinorDigits('JPY')).toBe(0);
    expect(currencyMinorDigits('KWD')).toBe(3);
    // ¥100 at 19.03 JPY/DOGE = 5.2548607461902259…
    expect(fiatToKoinu(100n, 'JPY', d('19.03'))).toBe(525_486_075n);
    // 1.000 KWD at 0.04 = 25 DOGE
    expect(fiatToKoinu(1000n, 'KWD', d('0.04'))).toBe(2_500_000_000n);
    expect(() => currencyMinorDigits('usd')).toThrow(AmountError);
  });

  it('handles tiny and huge rates exactly, and refuses an overflow', () => {
    // $1,000,000,000.00 at 0.1 = 10^10 DOGE = MAX_MONEY exactly
    expect(fiatToKoinu(100_000_000_000n, 'USD', d('0.1'))).toBe(MAX_MONEY);
    expect(() => fiatToKoinu(100_000_000_001n, 'USD', d('0.1'))).toThrow(/exceeds/);
    expect(() => fiatToKoinu(1n, 'USD', d('0.000000001'))).not.toThrow(); // $0.01 at 1e-9 = 10^7 DOGE
    expect(fiatToKoinu(1n, 'USD', d('0.000000001'))).toBe(1_000_000_000_000_000n);
    expect(() => fiatToKoinu(100_000n, 'USD', d('0.000000001'))).toThrow(/exceeds/);
    // a rate with many digits: $1 at 0.1234567890123456789
    expect(fiatToKoinu(100n, 'USD', d('0.1234567890123456789'))).toBe(810_000_007n); // 8.10000007371…
  });

  it('refuses a zero or negative rate and a non-bigint amount', () => {
    expect(() => fiatToKoinu(100n, 'USD', d('0'))).toThrow(AmountError);
    expect(() => fiatToKoinu(100n, 'USD', d('-0.1'))).toThrow(AmountError);
    expect(() => fiatToKoinu(1 as unknown as bigint, 'USD', d('0.1'))).toThrow(AmountError);
  });
});

describe('parseFiatMinor / formatFiatMinor', () => {
  it("reads a fiat amount into minor units, within the currency's decimals", () => {
    expect(parseFiatMinor('1.99', 'USD')).toBe(199n);
    expect(parseFiatMinor('2', 'USD')).toBe(200n);
    expect(parseFiatMinor('2.5', 'EUR')).toBe(250n);
    expect(parseFiatMinor('.05', 'USD')).toBe(5n);
    expect(parseFiatMinor('1500', 'JPY')).toBe(1500n);
    expect(parseFiatMinor('1.234', 'KWD')).toBe(1234n);
    expect(parseFiatMinor('-0.50', 'USD', { allowNegative: true })).toBe(-50n);
  });
  it('refuses more decimals than the currency has, exponents, signs, garbage', () => {
    const code = (f: () => unknown) => {
      try {
        f();
        return 'ok';
      } catch (e) {
        return (e as AmountError).code;
      }
    };
    expect(code(() => parseFiatMinor('1.999', 'USD'))).toBe('too_many_decimals');
    expect(code(() => parseFiatMinor('1.5', 'JPY'))).toBe('too_many_decimals');
    expect(code(() => parseFiatMinor('1e2', 'USD'))).toBe('exponent');
    expect(code(() => parseFiatMinor('+1', 'USD'))).toBe('sign');
    expect(code(() => parseFiatMinor('-1', 'USD'))).toBe('sign');
    expect(code(() => parseFiatMinor('1,00', 'USD'))).toBe('malformed');
    expect(code(() => parseFiatMinor('NaN', 'USD'))).toBe('malformed');
    expect(code(() => parseFiatMinor(' 1', 'USD'))).toBe('whitespace');
    expect(code(() => parseFiatMinor('', 'USD'))).toBe('empty');
    expect(code(() => parseFiatMinor('1'.repeat(16), 'USD'))).toBe('too_large');
  });
  it("formats minor units in the currency's fixed form", () => {
    expect(formatFiatMinor(200n, 'USD')).toBe('2.00');
    expect(formatFiatMinor(5n, 'USD')).toBe('0.05');
    expect(formatFiatMinor(-5n, 'USD')).toBe('-0.05');
    expect(formatFiatMinor(0n, 'EUR')).toBe('0.00');
    expect(formatFiatMinor(1500n, 'JPY')).toBe('1500');
    expect(formatFiatMinor(1234n, 'KWD')).toBe('1.234');
  });
});
