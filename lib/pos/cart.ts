// The cashier's cart (app/(pos)/pos) as pure koinu arithmetic: per-item tax from a rate in
// basis points, fee, shipping, discount and tip, fiat at the store's rate, and the exact
// POST /api/v1/payments body of docs/api.md. Runs in the browser and in tests; bigint only.
import { formatKoinu, parseKoinu, parseKoinuInput, parseFiatMinor, formatFiatMinor, currencyMinorDigits, ONE_DOGE } from '../money';
import { dogeText, moneyText, displayDoge } from '../i18n';

// The till's amounts for people are lib/i18n's (a receipt shows them the same way).
export { dogeText, moneyText, displayDoge };

// Fiat pricing (docs/using-counter.md#pricing-in-dollars-euros-fiat-pricing): with a fiat pricing currency every cart amount (unit, extras,
// totals) is in that currency's minor units (cents), the arithmetic is the same, and the body
// carries `currency` so the server converts it to DOGE at the rate in force.

/** The DOGE pricing currency: cart amounts are koinu. */
export const DOGE_CURRENCY = 'DOGE';

/** Digits after the point the keypad takes in `currency`: 8 for DOGE, the minor unit otherwise. */
export function currencyDigits(currency: string): number {
  return currency === DOGE_CURRENCY ? 8 : currencyMinorDigits(currency);
}

/** A cart amount as the vendor API wants it: 8-DP DOGE, or the currency's fixed form ("2.50"). */
export function amountString(minor: bigint, currency: string): string {
  return currency === DOGE_CURRENCY ? formatKoinu(minor) : formatFiatMinor(minor, currency);
}

/** Keypad input in `currency` ("2.5", "2,5") to minor units; null while incomplete or invalid. */
export function keypadAmount(s: string, currency: string): bigint | null {
  if (currency === DOGE_CURRENCY) return keypadKoinu(s);
  if (!s) return null;
  try {
    return parseFiatMinor(s.replace(',', '.').replace(/\.$/, ''), currency);
  } catch {
    return null;
  }
}

/**
 * The key of a product's cart line with these options (the same product with other options is
 * another line). Printable JSON: open tickets store the cart as JSON, where a NUL cannot go.
 */
export function cartLineKey(productId: string, options: readonly string[]): string {
  return options.length ? JSON.stringify([productId, ...options]) : productId;
}

export interface CartLine {
  /** Stable key in the cart: the product id, or `custom-<n>` for keypad amounts. */
  key: string;
  /** The line id sent to the relay (the product SKU). */
  sku: string;
  name: string;
  icon?: string;
  unit: bigint;
  count: number;
  /** Tax rate in basis points (825 = 8.25 %). */
  taxRateBp: number;
  /** The product it sells (the grid's badge); absent for keypad lines. */
  productId?: string;
  /** The options chosen (docs/catalog.md#options), already in `unit`; the server prices them from the catalog. */
  options?: string[];
}

export interface CartExtras {
  fee: bigint;
  shipping: bigint;
  /** Positive amount taken off the sale. */
  discount: bigint;
  /** Tip or donation (only when the store enables tips). */
  tip: bigint;
}

export const NO_EXTRAS: CartExtras = { fee: 0n, shipping: 0n, discount: 0n, tip: 0n };

export interface CartTotals {
  subtotal: bigint;
  tax: bigint;
  fee: bigint;
  shipping: bigint;
  discount: bigint;
  tip: bigint;
  total: bigint;
  count: number;
}

export interface FiatSettings {
  /** Fiat per 1 DOGE as a decimal string ("0.12"); "" when the store has none. */
  rate: string;
  /** ISO 4217 code ("USD"); "" when none. */
  currency: string;
}

/** a / b rounded half away from zero (b > 0). */
function divRound(a: bigint, b: bigint): bigint {
  const neg = a < 0n;
  const abs = neg ? -a : a;
  const q = (abs * 2n + b) / (2n * b);
  return neg ? -q : q;
}

/** The tax on one line: count × unit × rate, rounded to the nearest koinu (half up). */
export function lineTax(line: Pick<CartLine, 'unit' | 'count' | 'taxRateBp'>): bigint {
  if (!Number.isInteger(line.taxRateBp) || line.taxRateBp < 0) throw new RangeError('taxRateBp must be a non-negative integer');
  return divRound(BigInt(line.count) * line.unit * BigInt(line.taxRateBp), 10_000n);
}

export function cartTotals(lines: readonly CartLine[], extras: CartExtras = NO_EXTRAS): CartTotals {
  let subtotal = 0n;
  let tax = 0n;
  let count = 0;
  for (const l of lines) {
    subtotal += BigInt(l.count) * l.unit;
    tax += lineTax(l);
    count += l.count;
  }
  const total = subtotal + tax + extras.fee + extras.shipping - extras.discount + extras.tip;
  return { subtotal, tax, fee: extras.fee, shipping: extras.shipping, discount: extras.discount, tip: extras.tip, total, count };
}

/** Parses the store's fiat rate; null when unset or not a positive decimal. */
export function parseFiatRate(rate: string): bigint | null {
  if (!rate) return null;
  try {
    const r = parseKoinu(rate);
    return r > 0n ? r : null;
  } catch {
    return null;
  }
}

/** Koinu in fiat at `rate` (fiat per DOGE), rounded half up to 2 decimals: "5.00". */
export function fiatOf(koinu: bigint, rate: string): string | null {
  const r = parseFiatRate(rate);
  if (r === null) return null;
  const cents = divRound(koinu * r * 100n, ONE_DOGE * ONE_DOGE);
  const neg = cents < 0n;
  const abs = neg ? -cents : cents;
  return `${neg ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

export interface PaymentBodyItem {
  type: 'item' | 'fee' | 'shipping' | 'discount' | 'donation';
  id: string;
  name: string;
  count: number;
  unit: string;
  tax?: string;
  icon?: string;
  options?: string[];
}

export interface PaymentBody {
  /** The pricing currency when it is fiat: the item amounts are in it (docs/using-counter.md#pricing-in-dollars-euros-fiat-pricing). */
  currency?: string;
  items: PaymentBodyItem[];
  order_reference?: string;
  note?: string;
  fiat_total?: string;
  fiat_tax?: string;
  fiat_currency?: string;
}

/** Icons a wallet can show (spec: a JPG or PNG URL); local SVG glyphs stay on the till. */
export const WALLET_ICON_RE = /^https:\/\/[^\s"]+\.(png|jpe?g)(\?[^\s"]*)?$/i;

export class EmptyCartError extends Error {
  constructor(msg = 'the cart is empty') {
    super(msg);
    this.name = 'EmptyCartError';
  }
}

/**
 * The POST /api/v1/payments body for a cart. Items carry their tax in `tax`; fee, shipping,
 * discount (a negative unit) and tip (a donation line) are one line each when non-zero.
 * Fiat fields are set only when the store has both a rate and a currency.
 */
export function paymentBody(
  lines: readonly CartLine[],
  extras: CartExtras,
  fiat: FiatSettings,
  opts: { orderReference?: string; note?: string; tipLabel?: string; currency?: string } = {},
): PaymentBody {
  const currency = opts.currency ?? DOGE_CURRENCY;
  const fmt = (m: bigint) => amountString(m, currency);
  const t = cartTotals(lines, extras);
  for (const [k, v] of Object.entries(extras)) if (v < 0n) throw new RangeError(`${k} must not be negative`);
  if (t.total <= 0n) throw new EmptyCartError(lines.length ? 'the total must be greater than 0' : 'the cart is empty');
  const items: PaymentBodyItem[] = [];
  for (const l of lines) {
    if (l.count < 1 || !Number.isInteger(l.count)) throw new RangeError(`count of ${l.name} must be a positive integer`);
    const tax = lineTax(l);
    const it: PaymentBodyItem = { type: 'item', id: l.sku, name: l.name, count: l.count, unit: fmt(l.unit) };
    if (tax > 0n) it.tax = fmt(tax);
    if (l.options?.length) it.options = [...l.options];
    if (l.icon && WALLET_ICON_RE.test(l.icon)) it.icon = l.icon; // the spec's item icon is a JPG/PNG URL (https only: docs/api.md)
    items.push(it);
  }
  if (extras.fee > 0n) items.push({ type: 'fee', id: 'fee', name: 'Fee', count: 1, unit: fmt(extras.fee) });
  if (extras.shipping > 0n) items.push({ type: 'shipping', id: 'shipping', name: 'Shipping', count: 1, unit: fmt(extras.shipping) });
  if (extras.discount > 0n) items.push({ type: 'discount', id: 'discount', name: 'Discount', count: 1, unit: fmt(-extras.discount) });
  if (extras.tip > 0n) items.push({ type: 'donation', id: 'tip', name: opts.tipLabel ?? 'Tip', count: 1, unit: fmt(extras.tip) });
  const body: PaymentBody = currency === DOGE_CURRENCY ? { items } : { currency, items };
  if (opts.orderReference) body.order_reference = opts.orderReference;
  if (opts.note) body.note = opts.note;
  if (currency !== DOGE_CURRENCY) return body; // the server prices it: fiat_* exactly as priced
  const fiatTotal = fiat.currency ? fiatOf(t.total, fiat.rate) : null;
  if (fiatTotal !== null && /^[A-Z]{3}$/.test(fiat.currency)) {
    body.fiat_total = fiatTotal;
    body.fiat_tax = fiatOf(t.tax, fiat.rate)!;
    body.fiat_currency = fiat.currency;
  }
  return body;
}

/** Keypad input ("12.5", or "12,5" with a locale's decimal comma) to koinu; null while incomplete or invalid. */
export function keypadKoinu(s: string): bigint | null {
  if (!s) return null;
  try {
    return parseKoinuInput(s);
  } catch {
    return null;
  }
}

/** Appends a keypad key (digit, ".", "00" or "⌫") keeping at most `maxDecimals` decimals (8: DOGE; 2: USD; 0: JPY has no point). */
export function keypadPress(current: string, key: string, maxDecimals = 8): string {
  if (key === '⌫' || key === 'back') return current.slice(0, -1);
  if (key === 'C') return '';
  if (key === '.' || key === ',') {
    // A second separator after exactly three digits shows the first was a thousands separator
    // ("1,234.50" in English, "1.234,50" in German): it is dropped, never read as a decimal.
    const m = /^(\d{1,3})\.(\d{3})$/.exec(current);
    if (m) return `${m[1]}${m[2]}.`;
    return current.includes('.') || maxDecimals === 0 ? current : (current || '0') + '.';
  }
  if (!/^\d+$/.test(key)) return current;
  let next = current === '0' ? key.replace(/^0+/, '') || '0' : current + key;
  const dot = next.indexOf('.');
  if (dot >= 0 && next.length - dot - 1 > maxDecimals) return current;
  if ((dot >= 0 ? dot : next.length) > 11) return current;
  if (next !== '0') next = next.replace(/^0+(?=\d)/, '');
  return next;
}

/**
 * A physical key (KeyboardEvent.key) as a keypad key: digits, "." and "," (decimal comma),
 * Backspace; "enter" to add the entry; null for anything else.
 */
export function keyboardKeypadKey(key: string): string | null {
  if (/^[0-9]$/.test(key)) return key;
  if (key === '.' || key === ',' || key === 'Decimal') return '.';
  if (key === 'Backspace') return '⌫';
  if (key === 'Enter') return 'enter';
  return null;
}

/** A tax rate typed as a percent ("8.25", "8,25", "" = none) in basis points; null when invalid (0–100 %, at most 2 decimals). */
export function taxPercentBp(s: string): number | null {
  const t = s.trim().replace(',', '.');
  if (t === '') return 0;
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(t);
  if (!m) return null;
  const bp = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return bp <= 10_000 ? bp : null;
}
