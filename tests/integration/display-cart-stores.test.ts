// The till's published cart belongs to the till's store (docs/counter.md#the-customers-display):
// a second store's till writes a display_cart row of its own store, never the column's default
// (the first store), and a sale of another till is refused whatever its store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '@/lib/doge';
import { createPayment as newPayment } from '@/lib/payments/creation/create-payment';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { createTerminal } from '@/lib/auth';
import { createStore, seedFirstStore } from '@/lib/stores';
import { publishCart, NotThisTillsSaleError } from '@/lib/display/cart';
import type { DisplayCart } from '@/lib/display/view';
import { openTestStore, type TestStore } from '../helpers/stores';
import { DGUB } from '../helpers/keys';

let store: TestStore;
let first: { id: string; storeId: number };
let second: { id: string; storeId: number };

const cart = (paymentId: string | null = null): DisplayCart => ({
  currency: 'DOGE',
  lines: [{ name: 'Tea', count: 1, total: '150000000' }],
  adjustments: [],
  total: '150000000',
  payment_id: paymentId,
});

beforeAll(async () => {
  store = await openTestStore();
  const db = store.db;
  await seedFirstStore(db, { storeXpub: DGUB });
  await activeRelayKey(db, 1);
  first = { id: (await createTerminal(db, 1, 'Front counter', null)).id, storeId: 1 };
  const other = await createStore(db, 'Second shop');
  second = { id: (await createTerminal(db, other.id, 'Bar', null)).id, storeId: other.id };
});
afterAll(() => store?.close());

describe("a till's published cart", () => {
  it("is a row of the till's own store", async () => {
    expect(second.storeId).not.toBe(1);
    await publishCart(store.db, second, cart());
    await publishCart(store.db, first, cart());
    const rows = await store.db.prisma.displayCart.findMany({ select: { terminalId: true, storeId: true }, orderBy: { storeId: 'asc' } });
    expect(rows).toEqual([
      { terminalId: first.id, storeId: 1 },
      { terminalId: second.id, storeId: second.storeId },
    ]);
  });

  it("refuses another till's sale, from another store", async () => {
    const r = await newPayment(
      {
        storeId: 1,
        db: store.db,
        network: MAINNET,
        publicUrl: 'https://counter.example',
        terminal: { id: first.id, name: 'Front counter' },
      },
      JSON.stringify({ items: [{ type: 'item', id: 'tea', name: 'Tea', count: 1, unit: '1.5' }] }),
    );
    const id = (r.body as { id: string }).id;
    await expect(publishCart(store.db, second, cart(id))).rejects.toBeInstanceOf(NotThisTillsSaleError);
    await publishCart(store.db, first, cart(id)); // its own till shows it
  });
});
