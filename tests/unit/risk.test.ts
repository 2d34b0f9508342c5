import { describe, expect, it } from 'vitest';
import { requiredConfirmations, requiredForTx } from '@/lib/payments/risk';

const DOGE = 100_000_000n;
const defaults = { zeroConfLimit: 0n, oneConfLimit: 10_000n * DOGE, oneConfRequired: 1, highConfRequired: 6 };

describe('risk policy (docs/relay.md)', () => {
  it('0-conf is off by default: small payments still need 1 confirmation', () => {
    expect(requiredConfirmations(1n, defaults)).toBe(1);
  });
  it('needs 1 confirmation up to and including 10,000 DOGE, 6 above', () => {
    expect(requiredConfirmations(10_000n * DOGE, defaults)).toBe(1);
    expect(requiredConfirmations(10_000n * DOGE + 1n, defaults)).toBe(6);
  });
  it('grants 0-conf at or below the configured limit only', () => {
    const s = { ...defaults, zeroConfLimit: 50n * DOGE };
    expect(requiredConfirmations(50n * DOGE, s)).toBe(0);
    expect(requiredConfirmations(50n * DOGE + 1n, s)).toBe(1);
  });
  it('lets a payment carry its own required_confirmations', () => {
    expect(requiredConfirmations(20_000n * DOGE, defaults, 2)).toBe(2);
    expect(requiredConfirmations(1n, defaults, 0)).toBe(0);
  });
  it('never gives 0-conf to a transaction that signals replace-by-fee', () => {
    expect(requiredForTx(0, true)).toBe(1);
    expect(requiredForTx(0, false)).toBe(0);
    expect(requiredForTx(6, true)).toBe(6);
  });
});
