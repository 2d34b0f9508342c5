// The store row: a store's name, vendor fields, wallet, risk policy and settings. This module is
// the only reader and writer of the `store` table (tests/unit/store-settings-reads.test.ts), so
// every read names the store it is for (docs/architecture.md#layers).
import type { Db } from '../db';
import type { Prisma, Store } from '../db/generated/client';

export type StoreRow = Store;

/**
 * The store a single-store install has always had. Only the environment's seeds of that first
 * store (STORE_XPUB, STORE_ADDRESS, BOOTSTRAP_API_KEY) and callers that do not yet carry a store
 * of their own name it (tests/unit/store-settings-reads.test.ts keeps that list).
 */
export const FIRST_STORE_ID = 1;

export class StoreNotFoundError extends Error {
  constructor(readonly storeId: number) {
    super(`no store with id ${storeId}`);
    this.name = 'StoreNotFoundError';
  }
}

/** The store's row, or null when there is no such store. */
export async function findStore(db: Db, storeId: number): Promise<StoreRow | null> {
  return db.prisma.store.findUnique({ where: { id: storeId } });
}

/** The store's row; throws StoreNotFoundError when there is no such store. */
export async function readStore(db: Db, storeId: number): Promise<StoreRow> {
  const s = await findStore(db, storeId);
  if (!s) throw new StoreNotFoundError(storeId);
  return s;
}

/** A receiving wallet (xpub or address) belongs to one store: another store already saved it. */
export class WalletInUseError extends Error {
  constructor(readonly field: 'store_xpub' | 'store_address') {
    super(`another store uses this ${field === 'store_xpub' ? 'account key' : 'address'}`);
    this.name = 'WalletInUseError';
  }
}

/** The wallet field a unique violation is about, when it is one (store_xpub_key, store_address_key). */
function walletConflict(e: unknown): 'store_xpub' | 'store_address' | null {
  const err = e as { code?: string; meta?: { target?: unknown; driverAdapterError?: unknown }; message?: string };
  if (err?.code !== 'P2002') return null;
  const said = `${JSON.stringify(err.meta ?? {})} ${err.message ?? ''}`;
  if (said.includes('store_xpub')) return 'store_xpub';
  if (said.includes('store_address')) return 'store_address';
  return null;
}

/**
 * Writes settings of one store (stamping updatedAt) and returns its row. Saving a wallet another
 * store holds throws WalletInUseError: the unique index decides, so two stores racing for one
 * wallet cannot both win.
 */
export async function updateStore(db: Db, storeId: number, data: Prisma.StoreUpdateInput): Promise<StoreRow> {
  try {
    return await db.prisma.store.update({ where: { id: storeId }, data: { ...data, updatedAt: new Date() } });
  } catch (e) {
    const field = walletConflict(e);
    if (field) throw new WalletInUseError(field);
    throw e;
  }
}

/** Hands out the store's next receive-address index atomically (one UPDATE … RETURNING). */
export async function takeAddressIndex(db: Db, storeId: number): Promise<number> {
  const s = await db.prisma.store.update({
    where: { id: storeId },
    data: { nextAddressIndex: { increment: 1 } },
    select: { nextAddressIndex: true },
  });
  return s.nextAddressIndex - 1;
}

/** Whether `storeId` is the installation's only store (its counts are then the installation's). */
export async function isOnlyStore(db: Db, storeId: number): Promise<boolean> {
  const ids = await db.prisma.store.findMany({ select: { id: true }, take: 2 });
  return ids.length === 1 && ids[0].id === storeId;
}

/** Every store's currencies: the rates worker fetches each one some store needs. */
export async function storeCurrencies(db: Db): Promise<{ pricingCurrency: string; fiatCurrency: string }[]> {
  return db.prisma.store.findMany({ select: { pricingCurrency: true, fiatCurrency: true }, orderBy: { id: 'asc' } });
}

/** The names of these stores, by id (a member's store list, the operator's). */
export async function storeNames(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.prisma.store.findMany({ where: { id: { in: [...ids] } }, select: { id: true, name: true } });
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** A store as the operator sees it: its name and state, nothing of its sales or settings. */
export interface StoreSummary {
  id: number;
  name: string;
  createdAt: Date;
  suspended: boolean;
}
const SUMMARY = { id: true, name: true, createdAt: true, suspended: true } as const;

/**
 * A new store, named `name`, with the defaults of every setting and no wallet yet. `tx`: the
 * transaction it is part of (a sign-up makes the store and its owner together).
 */
export async function createStore(db: Db, name: string, tx: Pick<Db['prisma'], 'store'> = db.prisma): Promise<StoreSummary> {
  return tx.store.create({ data: { name }, select: SUMMARY });
}

/** Every store on the installation, oldest first. */
export async function listStores(db: Db): Promise<StoreSummary[]> {
  return db.prisma.store.findMany({ select: SUMMARY, orderBy: { id: 'asc' } });
}

/** Suspends or resumes a store; null when there is no such store. */
export async function setStoreSuspended(db: Db, storeId: number, suspended: boolean): Promise<StoreSummary | null> {
  const r = await db.prisma.store.updateMany({ where: { id: storeId }, data: { suspended, updatedAt: new Date() } });
  if (r.count === 0) return null;
  return db.prisma.store.findUnique({ where: { id: storeId }, select: SUMMARY });
}

/** The receiving wallet of every store: the chain worker watches them all. */
export async function storeWallets(db: Db): Promise<{ id: number; storeXpub: string; storeAddress: string; nextAddressIndex: number }[]> {
  return db.prisma.store.findMany({
    select: { id: true, storeXpub: true, storeAddress: true, nextAddressIndex: true },
    orderBy: { id: 'asc' },
  });
}

/**
 * Creates the first store when the database has none, and fills its blank wallet settings from
 * the environment. The environment only seeds: it never overwrites a wallet set in the back office.
 */
export async function seedFirstStore(db: Db, seed: { storeXpub?: string; storeAddress?: string }): Promise<void> {
  const store = await findStore(db, FIRST_STORE_ID);
  if (!store) {
    // Two processes may start on one new database at once (a web process and a worker, or a
    // worker pair): ON CONFLICT DO NOTHING lets the second find the row the first made, where an
    // upsert's read-then-insert failed on store_pkey.
    await db.prisma.store.createMany({
      data: [{ id: FIRST_STORE_ID, storeXpub: seed.storeXpub ?? '', storeAddress: seed.storeAddress ?? '' }],
      skipDuplicates: true,
    });
    await storeIdsAfterGiven(db);
    return;
  }
  const data: { storeXpub?: string; storeAddress?: string } = {};
  if (!store.storeXpub && seed.storeXpub) data.storeXpub = seed.storeXpub;
  if (!store.storeAddress && seed.storeAddress) data.storeAddress = seed.storeAddress;
  if (Object.keys(data).length) await db.prisma.store.update({ where: { id: FIRST_STORE_ID }, data });
  await storeIdsAfterGiven(db);
}

/**
 * The first store's id is given, not drawn from store_id_seq (and a restored or seeded database
 * may hold other given ids): the next store drawn must not be given one of them again.
 */
async function storeIdsAfterGiven(db: Db): Promise<void> {
  await db.query(
    `SELECT setval('store_id_seq', m.id) FROM (SELECT max(id) AS id FROM store) m, store_id_seq s
      WHERE (CASE WHEN s.is_called THEN s.last_value + 1 ELSE s.last_value END) <= m.id`,
  );
}
