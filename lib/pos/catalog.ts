// What the cashier screen loads from the database: the sellable catalog, the store's POS
// settings, this user's sales today, and one payment for the receipt. Each reads the store the
// till acts for (the session's current store, docs/architecture.md#data). Money leaves as strings
// (koinu integers or 8-DP DOGE) so it can cross to the browser.
import type { Db } from '../db';
import { formatKoinu } from '../money';
import { tillState } from '../payments';
import { orderCategories, storedCategories, readOptionGroups } from '../catalog';
import { formatStoreTime, startOfLocalDay, storeTimeZone } from '../time';
import { findStore, inStore } from '../stores';

export interface PosProduct {
  id: string;
  sku: string;
  name: string;
  description: string;
  icon: string;
  /** Price in minor units of the store's pricing currency (koinu for DOGE, cents for USD), as a decimal integer string. */
  priceKoinu: string;
  taxRateBp: number;
  /** "" for none (docs/catalog.md). */
  category: string;
  /** "" for none. */
  barcode: string;
  /** null when not tracked. */
  stock: number | null;
  lowStock: number;
  /** Its option groups (docs/catalog.md#options); prices in minor units, as decimal integer strings. */
  optionGroups: PosOptionGroup[];
}

export interface PosOptionGroup {
  name: string;
  min: number;
  max: number;
  options: { name: string; price: string }[];
}

export interface PosStore {
  name: string;
  icon: string;
  fiatRate: string;
  fiatCurrency: string;
  /** DOGE or an ISO 4217 code (docs/using-counter.md#pricing-in-dollars-euros-fiat-pricing): the till's prices and keypad are in it. */
  pricingCurrency: string;
  tipsEnabled: boolean;
  /** docs/counter.md#cash: Cash is offered beside Dogecoin (only when pricingCurrency is fiat). */
  cashEnabled: boolean;
  /** The store's time zone in force (IANA): today's sales and their times are in it. */
  timeZone: string;
}

/** The till's category tabs: the products' categories in the store's order (docs/catalog.md). */
export async function posCategories(db: Db, storeId: number, products: readonly PosProduct[]): Promise<string[]> {
  const s = await findStore(db, storeId);
  return orderCategories(
    storedCategories(s?.categories),
    products.map((p) => p.category),
  );
}

export interface RecentSale {
  id: string;
  total: string;
  status: string;
  /** unpaid, accepted, confirmed, declined, cancelled or expired: what the cashier needs to see. */
  state: string;
  fiatTotal: string;
  fiatCurrency: string;
  orderReference: string;
  createdAt: string;
  /** The time in the store's zone, with the zone's name ("14:05 EST"). */
  timeText: string;
}

/**
 * The most products the till loads (docs/catalog.md#on-the-till): a corner shop's 400 and
 * more. Past it, products last in the catalog's order are left off the till; search and the
 * scanner look only at what the till loaded.
 */
export const POS_CATALOG_MAX = 2000;

/** The products the till sells: those priced in the store's pricing currency (others wait to be re-priced). */
export async function posCatalog(db: Db, storeId: number): Promise<PosProduct[]> {
  const store = await findStore(db, storeId);
  const rows = await db.prisma.product.findMany({
    where: { ...inStore(storeId), archived: false, priceCurrency: store?.pricingCurrency || 'DOGE' },
    orderBy: [{ sort: 'asc' }, { name: 'asc' }],
    take: POS_CATALOG_MAX,
  });
  return rows.map((p) => ({
    id: p.id,
    sku: p.sku,
    name: p.name,
    description: p.description,
    icon: p.icon,
    priceKoinu: p.price.toString(),
    taxRateBp: p.taxRateBp,
    category: p.category,
    barcode: p.barcode ?? '',
    stock: p.stock,
    lowStock: p.lowStock,
    optionGroups: readOptionGroups(p.optionGroups),
  }));
}

export async function posStore(db: Db, storeId: number): Promise<PosStore> {
  const s = await findStore(db, storeId);
  return {
    name: s?.name ?? 'Counter store',
    icon: s?.icon ?? '',
    fiatRate: s?.fiatRate ?? '',
    fiatCurrency: s?.fiatCurrency ?? '',
    pricingCurrency: s?.pricingCurrency || 'DOGE',
    tipsEnabled: s?.tipsEnabled ?? false,
    cashEnabled: s?.cashEnabled ?? true,
    timeZone: storeTimeZone(s?.timezone),
  };
}

/** The payments this user started since midnight in the store's zone, newest first. */
export async function recentSales(db: Db, storeId: number, userId: string, now = new Date(), limit = 20): Promise<RecentSale[]> {
  const store = await findStore(db, storeId);
  const tz = storeTimeZone(store?.timezone);
  const midnight = startOfLocalDay(now, tz);
  const rows = await db.prisma.payment.findMany({
    where: { ...inStore(storeId), createdBy: userId, createdAt: { gte: midnight }, refundOf: null }, // a refund is not a sale
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
    select: {
      id: true,
      total: true,
      status: true,
      exception: true,
      broadcastState: true,
      expiresAt: true,
      fiatTotal: true,
      fiatCurrency: true,
      orderReference: true,
      createdAt: true,
    },
  });
  return rows.map((r) => ({
    id: r.id,
    total: formatKoinu(r.total),
    status: r.status,
    state: tillState(r, now),
    fiatTotal: r.fiatTotal,
    fiatCurrency: r.fiatCurrency,
    orderReference: r.orderReference,
    createdAt: r.createdAt.toISOString(),
    timeText: formatStoreTime(r.createdAt, tz, { style: 'time' }),
  }));
}

// The receipt itself: lib/receipts/receipt.ts (loadReceipt).
