// Item lines sold with options (docs/catalog.md#options): a line of POST /api/v1/payments that
// carries `"options": ["Oat", "Extra shot"]` is priced from the catalog, not by the caller: the
// product whose SKU is the line's `id`, plus its options' prices, taxed at the product's rate;
// the options go in the line's `desc`. This runs before any other pricing, in the request's own
// currency, and hands on an ordinary line (unit, tax, desc) and the options chosen, per line.
import type { Db } from '../../db';
import { InvalidRequestError } from '../../errors';
import { AmountError, fiatToKoinu, formatFiatMinor, formatKoinu, parseFiatMinor, parseKoinu, type Decimal } from '../../money';
import { checkChoice, readOptionGroups, type ChosenOption } from '../../catalog';
import { DOGE } from './fiat-request';
import { inStore } from '../../stores';

const MAX_CHOSEN = 50;

/** What a line with options was sold with, as stored on payment_line.options: the option and its DOGE per unit. */
export interface SoldOption {
  name: string;
  unit: string;
}

export interface ResolvedOptions {
  /** The request with every `options` line priced from the catalog (and `options` taken out). */
  body: unknown;
  /** The options of each item line, by index (null for a line without). */
  chosen: (ChosenOption[] | null)[];
}

type Line = Record<string, unknown>;

const text = (minor: bigint, currency: string) => (currency === DOGE ? formatKoinu(minor) : formatFiatMinor(minor, currency));

function parseAmount(field: string, s: string, currency: string): bigint {
  try {
    return currency === DOGE ? parseKoinu(s) : parseFiatMinor(s, currency);
  } catch (e) {
    throw new InvalidRequestError(field, e instanceof AmountError ? e.message : 'is not a valid amount');
  }
}

/** The option names a line asks for, checked for shape: an array of short strings. */
function askedOptions(line: Line, i: number): string[] {
  const f = `items[${i}].options`;
  const o = line.options;
  if (line.type !== 'item') throw new InvalidRequestError(f, 'only item lines take options');
  if (!Array.isArray(o) || o.length > MAX_CHOSEN || !o.every((x) => typeof x === 'string' && x.length >= 1 && x.length <= 64)) {
    throw new InvalidRequestError(f, `must be an array of at most ${MAX_CHOSEN} option names`);
  }
  return o as string[];
}

/** count × unit × rate, rounded half up to the minor unit: the till's own tax rule (lib/pos/cart.ts lineTax). */
function lineTax(count: bigint, unit: bigint, bp: number): bigint {
  return (count * unit * BigInt(bp) * 2n + 10_000n) / 20_000n;
}

interface Product {
  sku: string;
  price: bigint;
  priceCurrency: string;
  taxRateBp: number;
  optionGroups: unknown;
}

/** One line priced from its product and the options chosen. */
function priceOptionLine(line: Line, i: number, product: Product | undefined, currency: string): { line: Line; chosen: ChosenOption[] } {
  const f = (k: string) => `items[${i}].${k}`;
  const names = askedOptions(line, i);
  if (!product)
    throw new InvalidRequestError(f('id'), `no product of the catalog has the SKU ${JSON.stringify(String(line.id ?? '')).slice(0, 80)}`);
  if (product.priceCurrency !== currency) {
    throw new InvalidRequestError(f('options'), `the product is priced in ${product.priceCurrency}, the sale in ${currency}`);
  }
  let chosen: ChosenOption[];
  try {
    chosen = checkChoice(readOptionGroups(product.optionGroups), names);
  } catch (e) {
    throw new InvalidRequestError(f('options'), (e as Error).message);
  }
  const unit = chosen.reduce((s, o) => s + o.price, product.price);
  if (typeof line.unit === 'string' && line.unit !== '' && parseAmount(f('unit'), line.unit, currency) !== unit) {
    throw new InvalidRequestError(f('unit'), `must be ${text(unit, currency)} (the catalog's price with these options) or be left out`);
  }
  const count = typeof line.count === 'number' && Number.isSafeInteger(line.count) && line.count > 0 ? BigInt(line.count) : 1n;
  const { options: _o, ...rest } = line;
  return {
    line: {
      ...rest,
      unit: text(unit, currency),
      tax: text(lineTax(count, unit, product.taxRateBp), currency),
      desc: chosen.map((o) => o.name).join(', '),
    },
    chosen,
  };
}

/** Prices the request's option lines from the catalog; a request without any is handed on untouched. */
export async function resolveOptionLines(db: Db, storeId: number, body: unknown, currency: string): Promise<ResolvedOptions> {
  const items = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).items : undefined;
  if (!Array.isArray(items) || !items.some((l) => l && typeof l === 'object' && 'options' in l)) return { body, chosen: [] };
  const skus = items.flatMap((l) =>
    l && typeof l === 'object' && 'options' in l && typeof (l as Line).id === 'string' ? [(l as Line).id as string] : [],
  );
  const products = await db.prisma.product.findMany({
    where: { ...inStore(storeId), sku: { in: skus }, archived: false },
    select: { sku: true, price: true, priceCurrency: true, taxRateBp: true, optionGroups: true },
  });
  const bySku = new Map(products.map((p) => [p.sku, p]));
  const chosen: (ChosenOption[] | null)[] = [];
  const priced = items.map((l, i) => {
    if (!l || typeof l !== 'object' || !('options' in l)) {
      chosen.push(null);
      return l;
    }
    const r = priceOptionLine(l as Line, i, bySku.get(String((l as Line).id)), currency);
    chosen.push(r.chosen);
    return r.line;
  });
  return { body: { ...(body as Record<string, unknown>), items: priced }, chosen };
}

/** The options of each line in DOGE per unit, for payment_line.options: koinu as they are, fiat at the sale's rate. */
export function soldOptions(chosen: (ChosenOption[] | null)[], currency: string, rate: Decimal | null): (SoldOption[] | null)[] {
  return chosen.map(
    (c) =>
      c &&
      c.map((o) => ({
        name: o.name,
        unit: (currency === DOGE || rate === null ? o.price : fiatToKoinu(o.price, currency, rate)).toString(),
      })),
  );
}
