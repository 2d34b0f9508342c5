// GET /api/health (DESIGN.md §3): liveness of the database and a summary of the chain worker.
import type { Config } from './config';
import type { Db } from './db/client';
import { appVersion } from './version';

export interface ChainSummary {
  tip: number;
  synced: boolean;
  peers: number;
}

export interface Health {
  ok: boolean;
  version: string;
  network: Config['network'];
  backend: Config['chainBackend'];
  db: Config['dbKind'];
  chain: ChainSummary;
}

/** Reads the chain worker's published state (chain_state rows); zeros before the first sync. */
export async function readChainSummary(db: Db): Promise<ChainSummary> {
  const rows = await db.prisma.chainState.findMany({ where: { key: { in: ['tip_height', 'synced', 'peers'] } } });
  const get = (k: string) => rows.find((r) => r.key === k)?.value;
  return {
    tip: Number(get('tip_height') ?? 0) || 0,
    synced: get('synced') === 'true',
    peers: Number(get('peers') ?? 0) || 0,
  };
}

export async function checkHealth(cfg: Config, openDb: () => Promise<Db>): Promise<Health> {
  const base = { version: appVersion(), network: cfg.network, backend: cfg.chainBackend, db: cfg.dbKind };
  const empty: ChainSummary = { tip: 0, synced: false, peers: 0 };
  let db: Db;
  try {
    db = await openDb();
  } catch {
    return { ok: false, ...base, chain: empty };
  }
  if (!(await db.ping())) return { ok: false, ...base, chain: empty };
  try {
    return { ok: true, ...base, chain: await readChainSummary(db) };
  } catch {
    return { ok: false, ...base, chain: empty };
  }
}
