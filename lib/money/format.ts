import { DECIMALS, ONE_DOGE } from './constants';

function split(k: bigint): { sign: string; whole: string; frac: string } {
  if (typeof k !== 'bigint') throw new TypeError('koinu amount must be a bigint');
  const abs = k < 0n ? -k : k;
  return {
    sign: k < 0n ? '-' : '',
    whole: (abs / ONE_DOGE).toString(),
    frac: (abs % ONE_DOGE).toString().padStart(DECIMALS, '0'),
  };
}

/**
 * Canonical minimal 8-DP string as used in Connect objects and URIs:
 * no trailing zeros, no trailing dot: "22.05", "1", "0", "0.00000001", "-12.25".
 * Any bigint is formatted exactly (not limited to MAX_MONEY).
 */
export function formatKoinu(k: bigint): string {
  const { sign, whole, frac } = split(k);
  const trimmed = frac.replace(/0+$/, '');
  return trimmed === '' ? `${sign}${whole}` : `${sign}${whole}.${trimmed}`;
}

/** Fixed 8-decimal form of the node text API: "22.05000000", "0.00000000", "0.00005000". */
export function formatKoinuFixed(k: bigint): string {
  const { sign, whole, frac } = split(k);
  return `${sign}${whole}.${frac}`;
}

/**
 * DOGE as a JavaScript number, ONLY for JSON fields that the spec defines as numbers
 * (the invoice listing's `price`). Computed as Number(formatKoinu(k)), i.e. the nearest double
 * to the exact decimal; never use the result for arithmetic.
 */
export function koinuToDogeNumber(k: bigint): number {
  return Number(formatKoinu(k));
}
