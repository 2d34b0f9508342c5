/** Number of decimal places of an 8-DP amount string (1 koinu = 0.00000001 DOGE). */
export const DECIMALS = 8;

/** 1 DOGE in koinu. */
export const ONE_DOGE = 100_000_000n;

/**
 * Largest absolute amount accepted when parsing: 10,000,000,000 DOGE = 10^18 koinu
 * (the DogeConnect reference's MaxMoney). Formatting is not limited by it.
 */
export const MAX_MONEY = 1_000_000_000_000_000_000n;
