// The demo's catalog (`npm run demo`, CHAIN_BACKEND=devnet): a few products, added only when
// the product table is empty, so a merchant's own edits survive restarts.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db';
import { parseKoinu } from '../money';

export const DEMO_PRODUCTS = [
  { sku: 'DEMO-COFFEE', name: 'Coffee', description: 'Single-origin drip', price: '12.5', taxRateBp: 1000 },
  { sku: 'DEMO-CROISSANT', name: 'Croissant', description: 'Butter, baked this morning', price: '8', taxRateBp: 1000 },
  { sku: 'DEMO-TEE', name: 'Shiba T-shirt', description: 'Organic cotton', price: '150', taxRateBp: 2000 },
  { sku: 'DEMO-STICKERS', name: 'Sticker pack', description: 'Much sticker, very wow', price: '3.25', taxRateBp: 0 },
] as const;

export async function seedDemoCatalog(db: Db): Promise<number> {
  if ((await db.prisma.product.count()) > 0) return 0;
  await db.prisma.product.createMany({
    data: DEMO_PRODUCTS.map((p, i) => ({
      id: randomBytes(12).toString('base64url'),
      sku: p.sku,
      name: p.name,
      description: p.description,
      price: parseKoinu(p.price),
      taxRateBp: p.taxRateBp,
      sort: i,
    })),
    skipDuplicates: true,
  });
  return DEMO_PRODUCTS.length;
}
