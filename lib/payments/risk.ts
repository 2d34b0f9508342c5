// Risk policy (docs/relay.md): how many confirmations a payment needs.
import type { StoreSettings } from './store-settings';
import { requiredDepth } from './transition';

/**
 * Required confirmations for a payment of `total` koinu. 0 means "confirmed at network
 * acceptance" (0-conf), which only the zero-conf tier (or an explicit override) grants.
 */
export function requiredConfirmations(
  total: bigint,
  s: Pick<StoreSettings, 'zeroConfLimit' | 'oneConfLimit' | 'oneConfRequired' | 'highConfRequired'>,
  override?: number,
): number {
  if (override !== undefined) return override;
  if (s.zeroConfLimit > 0n && total <= s.zeroConfLimit) return 0;
  if (total <= s.oneConfLimit) return s.oneConfRequired;
  return s.highConfRequired;
}

/** A 0-conf payment whose tx signals replace-by-fee must wait for one confirmation (the table's rule). */
export function requiredForTx(required: number, signalsRbf: boolean): number {
  return requiredDepth({ required, rbf: signalsRbf })!;
}
