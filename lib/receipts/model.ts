// The receipt model (DESIGN.md §15): one list of lines whose totals, each including its own tax,
// add up exactly to the payment's total. Shared by the printed page and the email, so both show
// the same thing. Pure: amounts are integer koinu (bigint) and leave only through lib/money.
import { formatKoinu } from '../money';

/** A payment line as stored (amounts in koinu; null where the line type has none). */
export interface StoredLine {
  type: string;
  name: string;
  count: number | null;
  unit: bigint | null;
  total: bigint | null;
  tax: bigint | null;
}

export type ReceiptLineKind = 'item' | 'tax' | 'fee' | 'shipping' | 'discount' | 'tip' | 'rounding';

export interface ReceiptLine {
  kind: ReceiptLineKind;
  name: string;
  /** Count × unit, for item lines ("2 × 10.5"); empty for the others. */
  count: number | null;
  unit: string;
  /** The tax included in this line, "" when none. */
  tax: string;
  /** The line's amount including its tax, in DOGE (minimal 8-DP string). */
  total: string;
}

export interface ReceiptModel {
  lines: ReceiptLine[];
  /** Sum of every tax on the receipt: item taxes plus tax lines. */
  taxes: string;
  total: string;
}

const KIND: Record<string, ReceiptLineKind> = {
  item: 'item', tax: 'tax', fee: 'fee', shipping: 'shipping', discount: 'discount', donation: 'tip',
};

/**
 * Builds the receipt lines. An item line shows count × unit and its tax, and its total is
 * count × unit + tax; fee, shipping, discount, tip and tax lines show their own total. `signing`
 * lines carry no amount and are left out. If the stored lines ever disagree with the stored total
 * (they should not: DESIGN.md §3 defines total as exactly this sum), a "Rounding" line shows the
 * difference, so the face of the receipt always adds up.
 */
export function receiptLines(stored: StoredLine[], total: bigint): ReceiptModel {
  const lines: ReceiptLine[] = [];
  let sum = 0n;
  let taxes = 0n;
  for (const l of stored) {
    const kind = KIND[l.type];
    if (!kind) continue;
    const base = l.total ?? (l.count !== null && l.unit !== null ? BigInt(l.count) * l.unit : 0n);
    const tax = kind === 'item' ? (l.tax ?? 0n) : 0n;
    const lineTotal = base + tax;
    if (kind === 'tax') taxes += lineTotal;
    taxes += tax;
    sum += lineTotal;
    lines.push({
      kind, name: l.name,
      count: kind === 'item' ? l.count : null,
      unit: kind === 'item' && l.unit !== null ? formatKoinu(l.unit) : '',
      tax: tax !== 0n ? formatKoinu(tax) : '',
      total: formatKoinu(lineTotal),
    });
  }
  if (sum !== total) lines.push({ kind: 'rounding', name: 'Rounding', count: null, unit: '', tax: '', total: formatKoinu(total - sum) });
  return { lines, taxes: formatKoinu(taxes), total: formatKoinu(total) };
}
