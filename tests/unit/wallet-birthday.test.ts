// WALLET_BIRTHDAY (docs/configuration.md, docs/node.md#the-wallets-history-birthday-and-rescan): strict parsing of a height or a UTC date, the startup error
// naming the variable, and the mapping of a date to the first block at or after it minus 2 h.
import { describe, expect, it } from 'vitest';
import { birthdayHeight, DATE_MARGIN_SEC, parseBirthday } from '@/lib/chain/birthday';
import { loadConfig } from '@/lib/config';

const NOW = new Date('2026-11-24T12:00:00Z');
const env = (e: Record<string, string>) => e as unknown as NodeJS.ProcessEnv;

describe('parseBirthday', () => {
  it('reads heights and UTC dates into a canonical form', () => {
    expect(parseBirthday('5000000', NOW)).toEqual({ kind: 'height', height: 5_000_000, text: '5000000' });
    expect(parseBirthday(0, NOW)).toEqual({ kind: 'height', height: 0, text: '0' });
    expect(parseBirthday(' 2024-01-31 ', NOW)).toEqual({ kind: 'date', time: Date.UTC(2024, 0, 31) / 1000, text: '2024-01-31' });
    expect(parseBirthday('2024-01-31T08:30Z', NOW)).toMatchObject({ kind: 'date', time: Date.UTC(2024, 0, 31, 8, 30) / 1000 });
    expect(parseBirthday('2024-02-29T23:59:59Z', NOW)).toMatchObject({ kind: 'date', time: Date.UTC(2024, 1, 29, 23, 59, 59) / 1000 });
  });

  it.each([
    ['', /neither a block height/],
    ['abc', /neither a block height/],
    ['-5', /neither a block height/],
    ['5e6', /neither a block height/],
    ['1.5', /neither a block height/],
    ['2024-1-31', /neither a block height/],
    ['31/01/2024', /neither a block height/],
    ['2024-01-31T08:00', /neither a block height/],
    ['2024-01-31 08:00', /neither a block height/],
    ['2023-02-29', /not a real date/],
    ['2024-13-01', /not a real date/],
    ['2024-01-31T24:00Z', /not a real date/],
    ['2008-12-31', /before any Dogecoin block/],
    ['2027-01-01', /in the future/],
    ['1000000000', /neither a block height/],
  ])('refuses %j', (input, message) => {
    expect(() => parseBirthday(input, NOW)).toThrow(message);
  });

  it('refuses heights that are not whole numbers in range', () => {
    for (const h of [-1, 1.5, Number.NaN, 100_000_001]) expect(() => parseBirthday(h, NOW)).toThrow(/whole number/);
  });

  it('WALLET_BIRTHDAY: unset is null, a good value is parsed, nonsense stops start-up naming the variable', () => {
    expect(loadConfig(env({})).walletBirthday).toBeNull();
    expect(loadConfig(env({ WALLET_BIRTHDAY: '  ' })).walletBirthday).toBeNull();
    expect(loadConfig(env({ WALLET_BIRTHDAY: '5000000' })).walletBirthday).toMatchObject({ kind: 'height', height: 5_000_000 });
    expect(loadConfig(env({ WALLET_BIRTHDAY: '2024-01-31' })).walletBirthday).toMatchObject({ kind: 'date', text: '2024-01-31' });
    expect(() => loadConfig(env({ WALLET_BIRTHDAY: 'last tuesday' }))).toThrow(
      /^WALLET_BIRTHDAY: "last tuesday" is neither a block height/,
    );
    expect(() => loadConfig(env({ WALLET_BIRTHDAY: '2024-02-30' }))).toThrow(/^WALLET_BIRTHDAY: .*not a real date/);
  });
});

describe('birthdayHeight', () => {
  // Blocks every 10 minutes from t0 at height `low`.
  const t0 = Date.UTC(2024, 0, 1) / 1000;
  const chain = (low: number, high: number, times?: (h: number) => number) => {
    const calls: number[] = [];
    return {
      calls,
      range: {
        low,
        high,
        timeAt: async (h: number) => {
          calls.push(h);
          expect(h).toBeGreaterThanOrEqual(low);
          expect(h).toBeLessThanOrEqual(high);
          return times ? times(h) : t0 + (h - low) * 600;
        },
      },
    };
  };

  it('a height is itself; below the first stored block it says so', async () => {
    expect(await birthdayHeight(parseBirthday(42, NOW), chain(0, 100).range)).toEqual({ height: 42, beforeLow: false });
    expect(await birthdayHeight(parseBirthday(42, NOW), chain(50, 100).range)).toEqual({ height: 42, beforeLow: true });
  });

  it('a date maps to the first block whose time is at or after it minus 2 hours', async () => {
    const c = chain(0, 10_000);
    // 2024-01-02T00:00Z minus 2 h is t0 + 22 h = 132 blocks of 10 minutes.
    expect(DATE_MARGIN_SEC).toBe(7200);
    expect(await birthdayHeight(parseBirthday('2024-01-02', NOW), c.range)).toEqual({ height: 132, beforeLow: false });
    expect(c.calls.length).toBeLessThanOrEqual(15); // a binary search, not a walk
    // One second later moves to the next block.
    expect((await birthdayHeight(parseBirthday('2024-01-02T00:00:01Z', NOW), chain(0, 10_000).range)).height).toBe(133);
  });

  it('a date after every block is tip + 1; before the first stored block is flagged (genesis is not)', async () => {
    expect(await birthdayHeight(parseBirthday('2025-01-01', NOW), chain(0, 100).range)).toEqual({ height: 101, beforeLow: false });
    expect(await birthdayHeight(parseBirthday('2023-06-01', NOW), chain(500, 600).range)).toEqual({ height: 500, beforeLow: true });
    expect(await birthdayHeight(parseBirthday('2023-06-01', NOW), chain(0, 100).range)).toEqual({ height: 0, beforeLow: false });
  });
});
