// Keeps the watch-only wallet's address set (wallet_address) filled from every store's receiving
// wallet (docs/architecture.md#data): with an account xpub, the external branch 0 and the change
// branch 1, each up to a gap limit of 20 addresses beyond the highest used index (and, on branch
// 0, beyond the next index handed out to payments, store.next_address_index); with a single
// STORE_ADDRESS, that address. Each address row carries its store, and the chain worker reads a
// block once for all of them. Payment addresses are also registered (registerWalletAddress,
// below) by lib/payments/creation/receive-address.ts as they are handed out.
import { type Db, perDb, readWalletCounts, walletCountKey, writeWalletCount } from '../db';
import { inStore, storeWallets } from '../stores';
import { addressToScript, decodeAddress, derivePublic, hdKeyToAddress, parseXpub, toHex, type Network } from '../doge';

/** Adds one address of a store's wallet to the watch-only wallet (wallet_address); a no-op when it is there. */
export async function registerWalletAddress(
  db: Db,
  storeId: number,
  address: string,
  network: Network,
  branch: number,
  idx: number,
): Promise<void> {
  const hash = decodeAddress(address, network).hash160;
  // INSERT … ON CONFLICT DO NOTHING: the look-ahead below and a payment being created may
  // register the same address concurrently; Prisma's upsert with an empty update is
  // find-then-create and fails with a unique violation in that race.
  await db.prisma.walletAddress.createMany({
    data: { ...inStore(storeId), address, hash160: toHex(hash), script: toHex(addressToScript(address, network)), branch, idx },
    skipDuplicates: true,
  });
}

export const GAP_LIMIT = 20;
export const BRANCHES = [0, 1] as const;

/**
 * Addresses already ensured per database and `xpub/branch` in this process (derivation is not
 * free: ~0.7 ms an address). The count is also kept in app_state, so that a restart does not
 * derive again every address ever handed out (100,000 payments were over a minute of blocked
 * event loop at each start), and derivation goes in slices that let requests through between.
 */
const ensuredOf = perDb(() => new Map<string, number>());

/** Addresses derived and stored per slice, between which the event loop runs (~0.1 s a slice). */
export const DERIVE_SLICE = 200;

/** The app_state key of an `xpub/branch` count (the xpub hashed, not repeated). */
export function ensuredKey(xpub: string, branch: number): string {
  return `${walletCountKey('watch_ensured', xpub)}/${branch}`;
}

/** How many addresses branch `branch` must have: gap limit past the last used or handed-out index. */
export function watchTarget(highestUsed: number | null, nextIndex: number): number {
  return Math.max(highestUsed === null ? 0 : highestUsed + 1, nextIndex) + GAP_LIMIT;
}

/**
 * Per database, in this process: each store branch's highest used index (`storeId/branch`), as
 * last read. Only the chain worker writes wallet outputs, and it says so (`usedChanged`) after a
 * block that paid a watched address and after a disconnected block; a worker that takes over from
 * another forgets it (forgetUsedIndexes). Reading it every tick was the tick's cost at many
 * stores: one pass over every watched address and its outputs (docs/performance.md#many-stores).
 */
const usedOf = perDb((): { used: Map<string, number> | null } => ({ used: null }));
/** Fixed-address stores' addresses already registered by this process (`storeId/address`). */
const registeredOf = perDb(() => new Set<string>());

/** Drops what this process knows of the wallet outputs: another process may have written some since. */
export function forgetUsedIndexes(db: Db): void {
  usedOf(db).used = null;
}

async function usedIndexes(db: Db, changed: boolean): Promise<Map<string, number>> {
  const state = usedOf(db);
  if (state.used && !changed) return state.used;
  const rows = await db.query<{ store_id: number; branch: number; used: number }>(
    `SELECT a.store_id, a.branch, MAX(a.idx) AS used FROM wallet_address a
      WHERE EXISTS (SELECT 1 FROM wallet_output o WHERE o.address = a.address) GROUP BY a.store_id, a.branch`,
  );
  const used = new Map(rows.map((r) => [`${Number(r.store_id)}/${Number(r.branch)}`, Number(r.used)]));
  state.used = used;
  return used;
}

/**
 * Fills every store's watched addresses (one store's bad key never stops the others'). The
 * highest used indexes are read again only when wallet outputs changed (`usedChanged`), in one
 * query for every store, not one per store.
 */
export async function syncWatchAddresses(db: Db, network: Network, opts: { usedChanged?: boolean } = {}): Promise<void> {
  const stores = await storeWallets(db);
  if (!stores.some((s) => s.storeXpub || s.storeAddress)) return;
  const used = await usedIndexes(db, opts.usedChanged ?? false);
  await loadEnsuredCounts(db, stores);
  for (const store of stores) await syncStoreWallet(db, network, store, (branch) => used.get(`${store.id}/${branch}`) ?? null);
}

type StoreWallet = Awaited<ReturnType<typeof storeWallets>>[number];

/** The process's ensured counts, each read from app_state once, all of a sync's new ones in one query. */
async function loadEnsuredCounts(db: Db, stores: StoreWallet[]): Promise<void> {
  const ensured = ensuredOf(db);
  // Each xpub branch not yet known in this process: its key in the map and its app_state key.
  const missing = new Map<string, string>();
  for (const s of stores) {
    if (!s.storeXpub) continue;
    for (const b of BRANCHES) if (!ensured.has(`${s.storeXpub}/${b}`)) missing.set(`${s.storeXpub}/${b}`, ensuredKey(s.storeXpub, b));
  }
  if (!missing.size) return;
  const counts = await readWalletCounts(db, [...missing.values()]);
  for (const [k, stateKey] of missing) ensured.set(k, counts.get(stateKey) ?? 0);
}

async function syncStoreWallet(db: Db, network: Network, store: StoreWallet, usedOf: (branch: number) => number | null): Promise<void> {
  if (!store.storeXpub) {
    const registered = registeredOf(db);
    const key = `${store.id}/${store.storeAddress}`;
    if (store.storeAddress && !registered.has(key)) {
      try {
        await registerWalletAddress(db, store.id, store.storeAddress, network, 0, 0);
        registered.add(key);
      } catch {
        // an address of another network: the back office reports it; the chain must keep moving
      }
    }
    return;
  }
  const ensured = ensuredOf(db);
  // The key is parsed only when a branch needs more addresses: parsing checks its point on the
  // curve (~0.2 ms), and the worker syncs every store's wallet every tick, nearly always with
  // nothing to derive (docs/performance.md#many-stores).
  let xpub: ReturnType<typeof parseXpub> | null = null;
  for (const branch of BRANCHES) {
    const target = watchTarget(usedOf(branch), branch === 0 ? store.nextAddressIndex : 0);
    const key = `${store.storeXpub}/${branch}`;
    const have = ensured.get(key) ?? 0;
    if (have >= target) continue;
    try {
      xpub ??= parseXpub(store.storeXpub, network);
    } catch {
      return; // a key for another network: the back office reports it; the chain must keep moving
    }
    const branchKey = derivePublic(xpub, [branch]);
    for (let from = have; from < target; from += DERIVE_SLICE) {
      if (from > have) await new Promise((r) => setImmediate(r));
      const to = Math.min(target, from + DERIVE_SLICE);
      const addresses = Array.from({ length: to - from }, (_, k) => hdKeyToAddress(derivePublic(branchKey, [from + k]), network));
      await db.prisma.walletAddress.createMany({
        data: addresses.map((address, k) => ({
          storeId: store.id,
          address,
          hash160: toHex(decodeAddress(address, network).hash160),
          script: toHex(addressToScript(address, network)),
          branch,
          idx: from + k,
        })),
        skipDuplicates: true,
      });
      await writeWalletCount(db, ensuredKey(store.storeXpub, branch), to);
      ensured.set(key, to);
    }
  }
}
