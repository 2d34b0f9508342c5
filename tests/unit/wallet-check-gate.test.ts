// Where the wallet check runs (docs/wallet-check.md#where-it-runs): everywhere but mainnet unless
// WALLET_CHECK says otherwise, and WALLET_CHECK takes only on or off.
import { describe, expect, it } from 'vitest';
import { walletCheckEnabled } from '@/lib/wallet-check';
import { loadConfig } from '@/lib/config';

describe('wallet check gate', () => {
  it('runs on testnet, regtest and devnet, and on mainnet only with WALLET_CHECK=on', () => {
    expect(walletCheckEnabled('mainnet', null)).toBe(false);
    expect(walletCheckEnabled('mainnet', 'on')).toBe(true);
    expect(walletCheckEnabled('mainnet', 'off')).toBe(false);
    expect(walletCheckEnabled('testnet', null)).toBe(true);
    expect(walletCheckEnabled('regtest', null)).toBe(true);
    expect(walletCheckEnabled('regtest', 'off')).toBe(false);
  });
  it('reads WALLET_CHECK', () => {
    expect(loadConfig({ WALLET_CHECK: 'on' } as unknown as NodeJS.ProcessEnv).walletCheck).toBe('on');
    expect(loadConfig({} as unknown as NodeJS.ProcessEnv).walletCheck).toBe(null);
    expect(() => loadConfig({ WALLET_CHECK: 'yes' } as unknown as NodeJS.ProcessEnv)).toThrow(/WALLET_CHECK/);
  });
});
