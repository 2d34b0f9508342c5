// Counts kept per receiving wallet in app_state: the next address index of a wallet the store
// switched away from (lib/backoffice/settings.ts), and how many addresses of each branch the
// watch set already holds (lib/chain/watch-addresses.ts). The key carries a hash of the xpub,
// never the xpub itself.
import { createHash } from 'node:crypto';
import type { Db } from './open';

/** The app_state key of `name` for the wallet `xpub`: `<name>:<sha256(xpub), 32 hex digits>`. */
export function walletCountKey(name: string, xpub: string): string {
  return `${name}:${createHash('sha256').update(xpub).digest('hex').slice(0, 32)}`;
}

/** A stored count: 0 when there is none, or it is not a non-negative integer. */
function countOf(value: string | undefined): number {
  const n = Number(value ?? 0);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

/** The count kept under `key`. */
export async function readWalletCount(db: Db, key: string): Promise<number> {
  return countOf((await db.prisma.appState.findUnique({ where: { key } }))?.value);
}

/** The counts kept under `keys`, in one query. */
export async function readWalletCounts(db: Db, keys: string[]): Promise<Map<string, number>> {
  const rows = keys.length ? await db.prisma.appState.findMany({ where: { key: { in: keys } } }) : [];
  const found = new Map(rows.map((r) => [r.key, r.value]));
  return new Map(keys.map((k) => [k, countOf(found.get(k))]));
}

export async function writeWalletCount(db: Db, key: string, n: number): Promise<void> {
  await db.prisma.appState.upsert({
    where: { key },
    update: { value: String(n), updatedAt: new Date() },
    create: { key, value: String(n) },
  });
}
