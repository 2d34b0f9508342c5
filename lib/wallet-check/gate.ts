// Where the wallet check runs (docs/wallet-check.md#where-it-runs): testnet, regtest and devnet
// always; mainnet only with WALLET_CHECK=on, since its pay cases take real coins.
import type { NetworkName } from '../doge';

export function walletCheckEnabled(network: NetworkName, setting: 'on' | 'off' | null): boolean {
  if (setting === 'off') return false;
  return network !== 'mainnet' || setting === 'on';
}
