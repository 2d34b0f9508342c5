// The product catalog (docs/using-counter.md#the-back-office-admin-and-the-invoice-listing): create, edit and archive products with an icon (an emoji
// or a small uploaded image as a data URL). Tax rates are basis points.
// Prices (docs/using-counter.md#pricing-in-dollars-euros-fiat-pricing) are entered in the store's pricing currency and stored in its minor
// units with that currency (`price_currency`: koinu for DOGE, cents for USD). Changing the
// store's pricing currency never reinterprets a stored price: a product priced in another
// currency keeps its price and currency, is flagged here, and is left off the till until its
// price is entered again (which re-prices it in the pricing currency).
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db';
import { formatKoinu, parseKoinuInput, parseFiatMinor, formatFiatMinor, AmountError } from '../money';
import { BackofficeError, invalid, parseWith } from './errors';
import { validateIcon } from './settings';
import {
  orderCategories,
  storedCategories,
  OptionGroupError,
  OptionGroupsInput,
  optionGroupsView,
  storedOptionGroups,
  type OptionGroupView,
} from '../catalog';
import { isPrintable, UNPRINTABLE_MESSAGE } from '../text';
import { setStockCount, untrackStock } from '../stock';
import { findStore, inStore } from '../stores';

/** A product image as a data URL: at most 48 KiB of image bytes. */
export const MAX_PRODUCT_ICON_CHARS = 64 * 1024;

export interface ProductView {
  id: string;
  sku: string;
  name: string;
  description: string;
  icon: string;
  /** In `currency`: 8-DP DOGE, or the currency's fixed form ("2.50"). */
  price: string;
  /** The currency of `price`: DOGE or an ISO 4217 code. */
  currency: string;
  tax_rate: string; // percent, e.g. "7.5"
  /** A category name, or "" for none (docs/catalog.md). */
  category: string;
  /** "" when the product has none. */
  barcode: string;
  /** null when the product's stock is not tracked. */
  stock: number | null;
  low_stock: number;
  /** Its options (docs/catalog.md#options), prices in `currency`. */
  option_groups: OptionGroupView[];
  sort: number;
  archived: boolean;
}

type ProductRow = {
  id: string;
  sku: string;
  name: string;
  description: string;
  icon: string;
  price: bigint;
  priceCurrency: string;
  taxRateBp: number;
  category: string;
  barcode: string | null;
  stock: number | null;
  lowStock: number;
  sort: number;
  archived: boolean;
  optionGroups?: unknown;
};

/** A stored price in its currency's text form: 8-DP DOGE or the fiat fixed form. */
export function formatPrice(minor: bigint, currency: string): string {
  return currency === 'DOGE' ? formatKoinu(minor) : formatFiatMinor(minor, currency);
}

export function bpToPercent(bp: number): string {
  const whole = Math.trunc(bp / 100);
  const frac = String(bp % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

export function percentToBp(field: string, raw: string): number {
  const s = raw.trim().replace(/^(\d{1,3}),(\d{1,2})$/, '$1.$2'); // a locale's decimal comma: "8,25"
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(s)) throw invalid(field, 'must be a percentage with at most 2 decimals, like 7.5');
  const [w, f = ''] = s.split('.');
  const bp = Number(w) * 100 + Number(f.padEnd(2, '0'));
  if (bp > 10_000) throw invalid(field, 'must be at most 100');
  return bp;
}

export function productView(r: ProductRow): ProductView {
  return {
    id: r.id,
    sku: r.sku,
    name: r.name,
    description: r.description,
    icon: r.icon,
    price: formatPrice(r.price, r.priceCurrency),
    currency: r.priceCurrency,
    tax_rate: bpToPercent(r.taxRateBp),
    category: r.category,
    barcode: r.barcode ?? '',
    stock: r.stock,
    low_stock: r.lowStock,
    option_groups: optionGroupsView(r.optionGroups ?? [], r.priceCurrency),
    sort: r.sort,
    archived: r.archived,
  };
}

// A name, a category or a code follows the one printable-text rule (lib/text/printable.ts,
// docs/security.md): names reach the envelope, the receipt and the customer's display.
const noControl = (s: string) => isPrintable(s);
/** A stock count or threshold: an integer well inside the column's 32-bit range. */
export const STOCK_LIMIT = 1_000_000_000;
const stockInt = z
  .number()
  .int('must be a whole number')
  .min(-STOCK_LIMIT, `must be at least -${STOCK_LIMIT}`)
  .max(STOCK_LIMIT, `must be at most ${STOCK_LIMIT}`);

export const Fields = {
  sku: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1–64 letters, digits, dots, dashes or underscores'),
  name: z
    .string()
    .refine(noControl, UNPRINTABLE_MESSAGE)
    .pipe(z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters')),
  description: z
    .string()
    .refine((s) => isPrintable(s, { lineFeed: true }), UNPRINTABLE_MESSAGE)
    .pipe(z.string().trim().max(500, 'must be at most 500 characters')),
  category: z.string().refine(noControl, UNPRINTABLE_MESSAGE).pipe(z.string().trim().max(64, 'must be at most 64 characters')),
  // A scanner's code: printable ASCII (what keyboard-wedge scanners type), "" for none.
  barcode: z
    .string()
    .refine(noControl, UNPRINTABLE_MESSAGE)
    .pipe(
      z
        .string()
        .trim()
        .regex(/^[\x20-\x7e]{0,64}$/, 'must be at most 64 printable characters'),
    ),
  stock: stockInt.nullable(),
  low_stock: stockInt,
  icon: z.string().max(MAX_PRODUCT_ICON_CHARS, 'image is too large (at most 48 KiB)'),
  price: z.string().max(30),
  tax_rate: z.string().max(10),
  sort: z.number().int().min(-100_000).max(100_000),
  archived: z.boolean(),
  option_groups: OptionGroupsInput,
};
const CreateProduct = z
  .object({
    ...Fields,
    description: Fields.description.optional(),
    icon: Fields.icon.optional(),
    tax_rate: Fields.tax_rate.optional(),
    category: Fields.category.optional(),
    barcode: Fields.barcode.optional(),
    stock: Fields.stock.optional(),
    low_stock: Fields.low_stock.optional(),
    sort: Fields.sort.optional(),
    archived: z.undefined().optional(),
    option_groups: Fields.option_groups.optional(),
  })
  .strict();
const UpdateProduct = z
  .object({
    sku: Fields.sku.optional(),
    name: Fields.name.optional(),
    description: Fields.description.optional(),
    icon: Fields.icon.optional(),
    price: Fields.price.optional(),
    tax_rate: Fields.tax_rate.optional(),
    category: Fields.category.optional(),
    barcode: Fields.barcode.optional(),
    stock: Fields.stock.optional(),
    low_stock: Fields.low_stock.optional(),
    sort: Fields.sort.optional(),
    archived: Fields.archived.optional(),
    option_groups: Fields.option_groups.optional(),
  })
  .strict();

/** Option groups in their stored form, priced in `currency`; a refusal names its field. */
function optionGroupsFor(groups: z.infer<typeof OptionGroupsInput>, currency: string) {
  try {
    return storedOptionGroups(groups, currency);
  } catch (e) {
    if (e instanceof OptionGroupError) throw invalid(e.field, e.message);
    throw e;
  }
}

/** The store's pricing currency: what new prices are entered in. */
export async function pricingCurrency(db: Db, storeId: number): Promise<string> {
  const s = await findStore(db, storeId);
  return s?.pricingCurrency || 'DOGE';
}

/** A typed price in `currency` ("10.5" DOGE, "2.50" or "2,50" USD) to its minor units. */
export function parsePrice(s: string, currency: string): bigint {
  let v: bigint;
  try {
    v = currency === 'DOGE' ? parseKoinuInput(s) : parseFiatMinor(s.trim().replace(/^(\d+),(\d+)$/, '$1.$2'), currency);
  } catch (e) {
    if (e instanceof AmountError) throw invalid('price', e.message);
    throw e;
  }
  if (v <= 0n) throw invalid('price', 'must be greater than 0');
  return v;
}

/** Store `storeId`'s products. */
export async function listProducts(db: Db, storeId: number, opts: { includeArchived?: boolean } = {}): Promise<ProductView[]> {
  const rows = await db.prisma.product.findMany({
    where: { ...inStore(storeId), ...(opts.includeArchived ? {} : { archived: false }) },
    orderBy: [{ archived: 'asc' }, { sort: 'asc' }, { name: 'asc' }],
    take: 1000,
  });
  return rows.map(productView);
}

async function skuTaken(db: Db, storeId: number, sku: string, exceptId?: string): Promise<boolean> {
  const row = await db.prisma.product.findFirst({ where: { ...inStore(storeId), sku } });
  return !!row && row.id !== exceptId;
}

async function barcodeTaken(db: Db, storeId: number, barcode: string, exceptId?: string): Promise<boolean> {
  if (!barcode) return false;
  const row = await db.prisma.product.findFirst({ where: { ...inStore(storeId), barcode } });
  return !!row && row.id !== exceptId;
}

/** Two products saving the same code at once: the unique index answers, as a 409 too. */
async function uniqueOrConflict<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const err = e as { code?: string; meta?: { target?: unknown } };
    if (err.code === 'P2002') {
      const field = String(err.meta?.target ?? '').includes('barcode') ? 'barcode' : 'sku';
      throw new BackofficeError('conflict', `another product has this ${field === 'sku' ? 'SKU' : 'barcode'}`, field);
    }
    throw e;
  }
}

export async function createProduct(db: Db, storeId: number, input: unknown, userId: string | null = null): Promise<ProductView> {
  const p = parseWith(CreateProduct, input);
  if (await skuTaken(db, storeId, p.sku)) throw new BackofficeError('conflict', 'another product has this SKU', 'sku');
  if (await barcodeTaken(db, storeId, p.barcode ?? ''))
    throw new BackofficeError('conflict', 'another product has this barcode', 'barcode');
  const currency = await pricingCurrency(db, storeId);
  const row = await uniqueOrConflict(() =>
    db.prisma.product.create({
      data: {
        ...inStore(storeId),
        id: randomUUID(),
        sku: p.sku,
        name: p.name,
        description: p.description ?? '',
        icon: validateIcon('icon', p.icon ?? '', MAX_PRODUCT_ICON_CHARS),
        price: parsePrice(p.price, currency),
        priceCurrency: currency,
        taxRateBp: p.tax_rate ? percentToBp('tax_rate', p.tax_rate) : 0,
        category: p.category ?? '',
        barcode: p.barcode || null,
        stock: null,
        lowStock: p.low_stock ?? 0,
        sort: p.sort ?? 0,
        optionGroups: optionGroupsFor(p.option_groups ?? [], currency) as object[],
      },
    }),
  );
  // A starting stock is a first count, recorded as a movement (docs/catalog.md#stock).
  if (p.stock !== undefined && p.stock !== null) row.stock = await setStockCount(db, storeId, row.id, p.stock, 'count', '', userId);
  return productView(row);
}

/** Changes a product of store `storeId`; another store's product is no such product. */
export async function updateProduct(
  db: Db,
  storeId: number,
  id: string,
  input: unknown,
  userId: string | null = null,
): Promise<ProductView> {
  const p = parseWith(UpdateProduct, input);
  const existing = await db.prisma.product.findFirst({ where: { id, ...inStore(storeId) } });
  if (!existing) throw new BackofficeError('not_found', 'no such product');
  if (p.sku !== undefined && (await skuTaken(db, storeId, p.sku, id)))
    throw new BackofficeError('conflict', 'another product has this SKU', 'sku');
  if (p.barcode !== undefined && (await barcodeTaken(db, storeId, p.barcode, id)))
    throw new BackofficeError('conflict', 'another product has this barcode', 'barcode');
  const data: Record<string, unknown> = { updatedAt: new Date() };
  if (p.sku !== undefined) data.sku = p.sku;
  if (p.name !== undefined) data.name = p.name;
  if (p.description !== undefined) data.description = p.description;
  if (p.icon !== undefined) data.icon = validateIcon('icon', p.icon, MAX_PRODUCT_ICON_CHARS);
  if (p.price !== undefined) {
    // A price entered now is in today's pricing currency (a product left in another one is re-priced).
    const currency = await pricingCurrency(db, storeId);
    data.price = parsePrice(p.price, currency);
    data.priceCurrency = currency;
  }
  if (p.tax_rate !== undefined) data.taxRateBp = percentToBp('tax_rate', p.tax_rate);
  if (p.category !== undefined) data.category = p.category;
  if (p.barcode !== undefined) data.barcode = p.barcode || null;
  if (p.low_stock !== undefined) data.lowStock = p.low_stock;
  if (p.sort !== undefined) data.sort = p.sort;
  if (p.archived !== undefined) data.archived = p.archived;
  // Option prices are in the product's currency: today's pricing currency when re-priced now.
  if (p.option_groups !== undefined)
    data.optionGroups = optionGroupsFor(p.option_groups, (data.priceCurrency as string | undefined) ?? existing.priceCurrency);
  const row = await uniqueOrConflict(() => db.prisma.product.update({ where: { id, ...inStore(storeId) }, data }));
  // Stock edited here is a count (a movement) or the end of tracking (docs/catalog.md#stock).
  if (p.stock === null && row.stock !== null) {
    await untrackStock(db, storeId, id);
    row.stock = null;
  } else if (p.stock !== undefined && p.stock !== null && p.stock !== row.stock) {
    row.stock = await setStockCount(db, storeId, id, p.stock, 'count', '', userId);
  }
  return productView(row);
}

/** The categories `products` use, in the store's order (unlisted ones after, alphabetically). */
export async function productCategories(db: Db, storeId: number, products: readonly { category: string }[]): Promise<string[]> {
  const s = await findStore(db, storeId);
  return orderCategories(
    storedCategories(s?.categories),
    products.map((p) => p.category),
  );
}
