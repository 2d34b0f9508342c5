// The demo's catalog (`npm run demo`, CHAIN_BACKEND=devnet): a small café, so a newcomer sees
// category tabs, search, options and stock on the till (docs/catalog.md). Added only when the
// product table is empty, so a merchant's own edits survive restarts. Prices in DOGE.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db';
import { parseKoinu } from '../money';
import { findStore, updateStore } from '../stores';
import { OptionGroupsInput, storedOptionGroups } from '../catalog';

export const DEMO_CATEGORIES = ['Coffee', 'Tea & more', 'Bakery', 'Merch'] as const;

type Category = (typeof DEMO_CATEGORIES)[number];

export interface DemoProduct {
  sku: string;
  name: string;
  icon: string;
  category: Category;
  price: string;
  taxRateBp: number;
  description?: string;
  /** Tracked stock, or none. */
  stock?: number;
  lowStock?: number;
  options?: { name: string; min: number; max: number; options: { name: string; price: string }[] }[];
}

const MILK = {
  name: 'Milk',
  min: 0,
  max: 1,
  options: [
    { name: 'Oat', price: '3' },
    { name: 'Soy', price: '2' },
  ],
};
const EXTRAS = {
  name: 'Extras',
  min: 0,
  max: 3,
  options: [
    { name: 'Extra shot', price: '5' },
    { name: 'Vanilla syrup', price: '3' },
  ],
};
const SIZE = {
  name: 'Size',
  min: 1,
  max: 1,
  options: [
    { name: 'Regular', price: '0' },
    { name: 'Large', price: '6' },
  ],
};
const COFFEE = { category: 'Coffee', taxRateBp: 1000 } as const;
const TEA = { category: 'Tea & more', taxRateBp: 1000 } as const;
const BAKERY = { category: 'Bakery', taxRateBp: 1000 } as const;
const MERCH = { category: 'Merch', taxRateBp: 2000 } as const;

export const DEMO_PRODUCTS: readonly DemoProduct[] = [
  { sku: 'DEMO-COFFEE', name: 'Coffee', icon: '☕', price: '12.5', description: 'Single-origin drip', ...COFFEE },
  { sku: 'DEMO-ESPRESSO', name: 'Espresso', icon: '☕', price: '15', options: [EXTRAS], ...COFFEE },
  { sku: 'DEMO-LATTE', name: 'Latte', icon: '🥛', price: '25', options: [MILK, EXTRAS], ...COFFEE },
  { sku: 'DEMO-CAPPUCCINO', name: 'Cappuccino', icon: '☕', price: '24', options: [MILK, EXTRAS], ...COFFEE },
  { sku: 'DEMO-FLAT-WHITE', name: 'Flat white', icon: '☕', price: '26', options: [MILK, EXTRAS], ...COFFEE },
  { sku: 'DEMO-MOCHA', name: 'Mocha', icon: '🍫', price: '28', options: [MILK, EXTRAS], ...COFFEE },
  { sku: 'DEMO-COLD-BREW', name: 'Cold brew', icon: '🧊', price: '22', options: [SIZE], ...COFFEE },
  { sku: 'DEMO-TEA', name: 'Green tea', icon: '🍵', price: '14', ...TEA },
  { sku: 'DEMO-CHAI', name: 'Chai latte', icon: '🫖', price: '24', options: [MILK], ...TEA },
  { sku: 'DEMO-HOT-CHOC', name: 'Hot chocolate', icon: '🍫', price: '22', options: [MILK], ...TEA },
  { sku: 'DEMO-OJ', name: 'Orange juice', icon: '🍊', price: '18', stock: 12, lowStock: 4, ...TEA },
  { sku: 'DEMO-WATER', name: 'Sparkling water', icon: '💧', price: '8', stock: 24, lowStock: 6, ...TEA },
  {
    sku: 'DEMO-CROISSANT',
    name: 'Croissant',
    icon: '🥐',
    price: '8',
    description: 'Butter, baked this morning',
    stock: 18,
    lowStock: 5,
    ...BAKERY,
  },
  { sku: 'DEMO-PAIN-CHOC', name: 'Pain au chocolat', icon: '🥐', price: '10', stock: 12, lowStock: 4, ...BAKERY },
  { sku: 'DEMO-MUFFIN', name: 'Blueberry muffin', icon: '🧁', price: '11', stock: 3, lowStock: 4, ...BAKERY },
  {
    sku: 'DEMO-BAGEL',
    name: 'Bagel',
    icon: '🥯',
    price: '12',
    options: [
      {
        name: 'Spread',
        min: 0,
        max: 1,
        options: [
          { name: 'Cream cheese', price: '4' },
          { name: 'Butter', price: '1' },
        ],
      },
    ],
    stock: 10,
    lowStock: 3,
    ...BAKERY,
  },
  { sku: 'DEMO-BANANA-BREAD', name: 'Banana bread', icon: '🍌', price: '9', stock: 0, ...BAKERY },
  { sku: 'DEMO-COOKIE', name: 'Cookie', icon: '🍪', price: '6', stock: 30, lowStock: 8, ...BAKERY },
  { sku: 'DEMO-TEE', name: 'Shiba T-shirt', icon: '👕', price: '150', description: 'Organic cotton', stock: 8, lowStock: 2, ...MERCH },
  { sku: 'DEMO-STICKERS', name: 'Sticker pack', icon: '🐕', price: '3.25', description: 'Much sticker, very wow', ...MERCH, taxRateBp: 0 },
  { sku: 'DEMO-MUG', name: 'Counter mug', icon: '🎁', price: '60', stock: 6, lowStock: 2, ...MERCH },
];

/** Seeds `storeId` (start-up passes the first store) with the café when no product exists yet. */
export async function seedDemoCatalog(db: Db, storeId: number): Promise<number> {
  if ((await db.prisma.product.count()) > 0) return 0;
  await db.prisma.product.createMany({
    data: DEMO_PRODUCTS.map((p, i) => ({
      storeId,
      id: randomBytes(12).toString('base64url'),
      sku: p.sku,
      name: p.name,
      icon: p.icon,
      category: p.category,
      description: p.description ?? '',
      price: parseKoinu(p.price),
      taxRateBp: p.taxRateBp,
      stock: p.stock ?? null,
      lowStock: p.lowStock ?? 0,
      optionGroups: storedOptionGroups(OptionGroupsInput.parse(p.options ?? []), 'DOGE') as object[],
      sort: i,
    })),
    skipDuplicates: true,
  });
  // The tabs' order, unless the store already has one.
  const store = await findStore(db, storeId);
  if (Array.isArray(store?.categories) && store.categories.length === 0) {
    await updateStore(db, storeId, { categories: [...DEMO_CATEGORIES] });
  }
  return DEMO_PRODUCTS.length;
}
