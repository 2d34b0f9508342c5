// The receipt model (docs/using-counter.md#reports-and-receipts): one list of lines whose totals, each including its own tax,
// add up exactly to the payment's total. Shared by the printed page and the email, so both show
// the same thing. Pure: amounts are integer koinu (bigint) and leave only through lib/money.
// A fiat-priced sale (docs/api.md#pricing-in-a-fiat-currency) shows its lines as priced, in the fiat currency's minor
// units as stored per line, adding up to fiat_total; the DOGE paid and the rate go below.
import { formatFiatMinor, formatKoinu, parseFiatMinor } from '../money';
import { dogeText, moneyText } from '../i18n';

/** A payment line as stored (amounts in koinu; null where the line type has none). */
export interface StoredLine {
  type: string;
  name: string;
  count: number | null;
  unit: bigint | null;
  total: bigint | null;
  tax: bigint | null;
  /** A fiat-priced line's unit and tax as priced, in minor units of the payment's fiat currency (null otherwise). */
  fiatUnit?: bigint | null;
  fiatTax?: bigint | null;
  /** The line's description: for an item with options, the options chosen (docs/catalog.md#options). */
  description?: string;
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
  /** An item's options (its stored description), when it has any. */
  desc?: string;
  /** The line's amount including its tax, in the receipt's currency: DOGE (minimal 8-DP string) or fiat ("2.00"). */
  total: string;
}

export interface ReceiptModel {
  /** The currency of every amount in the model: 'DOGE', or the fiat currency the sale was priced in. */
  currency: string;
  lines: ReceiptLine[];
  /** Sum of every tax on the receipt: item taxes plus tax lines; '' when none. */
  taxes: string;
  total: string;
}

const KIND: Record<string, ReceiptLineKind> = {
  item: 'item',
  tax: 'tax',
  fee: 'fee',
  shipping: 'shipping',
  discount: 'discount',
  donation: 'tip',
};

/**
 * Builds the receipt lines. An item line shows count × unit and its tax, and its total is
 * count × unit + tax; fee, shipping, discount, tip and tax lines show their own total. `signing`
 * lines carry no amount and are left out. If the stored lines ever disagree with the stored total
 * (they should not: docs/api.md defines total as exactly this sum), a "Rounding" line shows the
 * difference, so the face of the receipt always adds up.
 */
export function receiptLines(stored: StoredLine[], total: bigint): ReceiptModel {
  return build(stored, total, 'DOGE', (l) => ({ unit: l.unit, total: l.total, tax: l.tax }), formatKoinu);
}

/**
 * Whether a payment's lines can be shown as priced in fiat: it has a fiat currency and a locked
 * rate, and every line with an amount kept its fiat unit (payments made before the fiat amounts
 * were stored per line did not: they stay in DOGE, with the fiat total below).
 */
export function hasFiatLines(stored: StoredLine[], fiatCurrency: string, rateValue: string): boolean {
  if (!/^[A-Z]{3}$/.test(fiatCurrency) || fiatCurrency === 'DOGE' || !rateValue) return false;
  const priced = stored.filter((l) => KIND[l.type]);
  return priced.length > 0 && priced.every((l) => l.fiatUnit !== null && l.fiatUnit !== undefined);
}

/**
 * The lines of a fiat-priced sale as priced: count × fiat unit + fiat tax, in `currency`'s minor
 * units, adding up to `fiatTotal` (its fixed form, "7.45"), exactly as priced. A total that
 * disagrees (it cannot: fiat_total is this sum) gets a Rounding line, as in DOGE.
 */
export function fiatReceiptLines(stored: StoredLine[], fiatTotal: string, currency: string): ReceiptModel {
  const total = parseFiatMinor(fiatTotal, currency, { allowNegative: true });
  return build(
    stored,
    total,
    currency,
    (l) => ({
      unit: l.fiatUnit ?? null,
      total: l.fiatUnit != null && l.count !== null ? BigInt(l.count) * l.fiatUnit : null,
      tax: l.fiatTax ?? null,
    }),
    (m) => formatFiatMinor(m, currency),
  );
}

type Amounts = { unit: bigint | null; total: bigint | null; tax: bigint | null };

function build(
  stored: StoredLine[],
  total: bigint,
  currency: string,
  amounts: (l: StoredLine) => Amounts,
  fmt: (v: bigint) => string,
): ReceiptModel {
  const lines: ReceiptLine[] = [];
  let sum = 0n;
  let taxes = 0n;
  for (const l of stored) {
    const kind = KIND[l.type];
    if (!kind) continue;
    const a = amounts(l);
    const base = a.total ?? (l.count !== null && a.unit !== null ? BigInt(l.count) * a.unit : 0n);
    const tax = kind === 'item' ? (a.tax ?? 0n) : 0n;
    const lineTotal = base + tax;
    if (kind === 'tax') taxes += lineTotal;
    taxes += tax;
    sum += lineTotal;
    lines.push({
      kind,
      name: l.name,
      ...(kind === 'item' && l.description ? { desc: l.description } : {}),
      count: kind === 'item' ? l.count : null,
      unit: kind === 'item' && a.unit !== null ? fmt(a.unit) : '',
      tax: tax !== 0n ? fmt(tax) : '',
      total: fmt(lineTotal),
    });
  }
  if (sum !== total) lines.push({ kind: 'rounding', name: 'Rounding', count: null, unit: '', tax: '', total: fmt(total - sum) });
  return { currency, lines, taxes: taxes !== 0n ? fmt(taxes) : '', total: fmt(total) };
}

/**
 * One amount of a receipt for the reader: DOGE as the till writes it ("Ð 22.05", or "22.05 DOGE"
 * with `dogeSuffix`), a fiat amount through Intl.NumberFormat in `locale` ("$7.45"), exactly.
 */
export function receiptAmount(v: string, currency: string, locale?: string, opts: { dogeSuffix?: boolean } = {}): string {
  if (currency === 'DOGE') return opts.dogeSuffix ? `${v} DOGE` : dogeText(v, locale);
  return moneyText(parseFiatMinor(v, currency, { allowNegative: true }), currency, locale);
}
