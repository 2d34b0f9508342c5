// Node status for the back office: what the chain worker publishes in chain_state.
import type { Db } from '../db';
import { readWalletHistory, type WalletHistoryStatus } from '../chain';

export interface NodeStatus {
  tip_height: number;
  tip_hash: string;
  synced: boolean;
  peers: number;
  /** Best header height known from peers, when the backend reports one; else the tip. */
  target_height: number;
  /** 0–1 */
  progress: number;
  updated_at: string | null;
  /** The wallet's history: birthday, where it is complete from, and the current or last rescan with its progress. */
  wallet: WalletHistoryStatus;
}

export const NODE_TEXT_ENDPOINTS = [
  '/getChaintip',
  '/getTimestamp',
  '/getLastBlockInfo',
  '/getHeaders',
  '/getBalance',
  '/getAddresses',
  '/getTransactions',
  '/getUTXOs',
  '/getWallet',
] as const;

export async function readNodeStatus(db: Db): Promise<NodeStatus> {
  const rows = await db.prisma.chainState.findMany({ where: { NOT: { key: { startsWith: 'wallet_' } } }, take: 100 });
  const get = (k: string) => rows.find((r) => r.key === k)?.value;
  const num = (k: string) => {
    const n = Number(get(k) ?? 0);
    return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
  };
  const tip = num('tip_height');
  const target = Math.max(tip, num('best_known_height'), num('headers_height'), num('peer_height'));
  const synced = get('synced') === 'true';
  const progress = synced ? 1 : target > 0 ? Math.min(1, tip / target) : 0;
  const updated = rows.reduce<Date | null>((m, r) => (!m || r.updatedAt > m ? r.updatedAt : m), null);
  return {
    tip_height: tip,
    tip_hash: get('tip_hash') ?? '',
    synced,
    peers: num('peers'),
    target_height: target,
    progress,
    updated_at: updated?.toISOString() ?? null,
    wallet: await readWalletHistory(db),
  };
}
