// The change for a cash sale (docs/counter.md#cash), in the pricing currency's minor units: cash
// received − total, exactly, through lib/money (USD cents, JPY yen, KWD fils). Pure.
import { AmountError, formatFiatMinor, parseFiatMinor } from '../money';

export class CashAmountError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'CashAmountError';
  }
}

export interface CashChange {
  currency: string;
  totalMinor: bigint;
  receivedMinor: bigint;
  changeMinor: bigint;
  /** The fixed forms ("20.00"), as the payment body shows them. */
  total: string;
  received: string;
  change: string;
}

/** Parses an amount of `currency` typed by the cashier, or throws CashAmountError naming `field`. */
export function parseCash(field: string, text: string, currency: string): bigint {
  try {
    return parseFiatMinor(text, currency);
  } catch (e) {
    throw new CashAmountError(field, e instanceof AmountError ? e.message : 'invalid amount');
  }
}

/**
 * The change owed for `received` (text, "20" or "20.00") against a total of `totalMinor` minor
 * units. Less cash than the total is refused: a cash sale is paid in full at the counter.
 */
export function cashChange(totalMinor: bigint, received: string, currency: string, field = 'cash_received'): CashChange {
  const receivedMinor = parseCash(field, received, currency);
  if (receivedMinor < totalMinor) {
    throw new CashAmountError(field, `is less than the total (${formatFiatMinor(totalMinor, currency)} ${currency})`);
  }
  const changeMinor = receivedMinor - totalMinor;
  return {
    currency,
    totalMinor,
    receivedMinor,
    changeMinor,
    total: formatFiatMinor(totalMinor, currency),
    received: formatFiatMinor(receivedMinor, currency),
    change: formatFiatMinor(changeMinor, currency),
  };
}
