// The wallet history's persistent state, in chain_state rows (docs/node.md#the-wallets-history-birthday-and-rescan):
//   wallet_birthday          the birthday in force (a height or a date, canonical text), or absent
//   wallet_birthday_applied  the birthday the worker last turned into a scan
//   wallet_birthday_env      the WALLET_BIRTHDAY value last seeded from the environment
//   wallet_scanned_from      the lowest height from which the wallet's history is complete
//   wallet_rescan            the current or last rescan, JSON (RescanState): its cursor survives restarts
import type { Db } from '../db';

export const K = {
  birthday: 'wallet_birthday',
  applied: 'wallet_birthday_applied',
  env: 'wallet_birthday_env',
  scannedFrom: 'wallet_scanned_from',
  rescan: 'wallet_rescan',
} as const;

export interface RescanState {
  /** First height scanned. */
  from: number;
  /** Last height scanned (from - 1 before the first block). */
  current: number;
  /** Where the rescan ends: the last block the chain follower had processed (it moves with it). */
  target: number;
  reason: 'birthday' | 'operator';
  started_at: string;
  updated_at: string;
  finished_at: string | null;
  /** The last failure (the next worker tick retries from `current`), or null. */
  error: string | null;
  /** Blocks scanned so far by this rescan. */
  blocks: number;
}

export interface WalletHistoryStatus {
  birthday: string | null;
  /** The lowest height from which the wallet's history is complete (null: not known yet). */
  scanned_from: number | null;
  rescan: (RescanState & { running: boolean; percent: number }) | null;
}

export async function getState(db: Db, key: string): Promise<string | null> {
  return (await db.prisma.chainState.findUnique({ where: { key } }))?.value ?? null;
}

export async function setState(db: Db, key: string, value: string | null): Promise<void> {
  if (value === null) {
    await db.prisma.chainState.deleteMany({ where: { key } });
    return;
  }
  const now = new Date();
  await db.prisma.chainState.upsert({ where: { key }, update: { value, updatedAt: now }, create: { key, value, updatedAt: now } });
}

export async function readRescan(db: Db): Promise<RescanState | null> {
  const v = await getState(db, K.rescan);
  if (!v) return null;
  try {
    return JSON.parse(v) as RescanState;
  } catch {
    return null;
  }
}

export async function writeRescan(db: Db, r: RescanState): Promise<void> {
  await setState(db, K.rescan, JSON.stringify(r));
}

/** The wallet's history is complete from `height` on (lowers the mark, never raises it). */
export async function noteScannedFrom(db: Db, height: number): Promise<void> {
  const v = await getState(db, K.scannedFrom);
  const cur = Number(v);
  if (v === null || !Number.isSafeInteger(cur) || height < cur) await setState(db, K.scannedFrom, String(Math.max(0, height)));
}

export function rescanPercent(r: RescanState): number {
  if (r.finished_at) return 100;
  const total = r.target - r.from + 1;
  if (total <= 0) return 100;
  return Math.min(100, Math.max(0, Math.floor(((r.current - r.from + 1) / total) * 1000) / 10));
}

export async function readWalletHistory(db: Db): Promise<WalletHistoryStatus> {
  const rows = await db.prisma.chainState.findMany({ where: { key: { in: [K.birthday, K.scannedFrom, K.rescan] } } });
  const get = (k: string) => rows.find((r) => r.key === k)?.value ?? null;
  const sf = get(K.scannedFrom);
  let rescan: WalletHistoryStatus['rescan'] = null;
  try {
    const r = get(K.rescan) ? (JSON.parse(get(K.rescan)!) as RescanState) : null;
    if (r) rescan = { ...r, running: !r.finished_at, percent: rescanPercent(r) };
  } catch {
    rescan = null;
  }
  return { birthday: get(K.birthday), scanned_from: sf === null ? null : Number(sf), rescan };
}
