// GET /api/health (docs/api.md, docs/operations.md#readiness): liveness of the database, a summary of the chain worker,
// and whether the store is ready to take money (lib/readiness decides; this gathers the facts).
// The database and the chain belong to the installation; the receiving wallet belongs to a store
// (docs/architecture.md#data): /api/health judges the store of a signed-in member's session (so
// each store's till and back office poll their own), and the first store's for anyone else.
import type { Config } from './config';
import type { Db } from './db';
import { decodeAddress, getNetwork, parseXpub, type Network } from './doge';
import { assessReadiness, StoreNotReadyError, type Problem, type Readiness, type ReadinessFacts } from './readiness';
import { appVersion } from './version';
import { log } from './log';
import { FIRST_STORE_ID, findStore, storeIdOf } from './stores';

export interface ChainSummary {
  tip: number;
  synced: boolean;
  peers: number;
}

/** The summary plus when the worker last reported (its `peers` row, written every tick). */
interface ChainReport extends ChainSummary {
  reportedAt: Date | null;
}

export interface Health {
  ok: boolean;
  version: string;
  network: Config['network'];
  backend: Config['chainBackend'];
  db: Config['dbKind'];
  chain: ChainSummary;
  ready: boolean;
  problems: Problem[];
}

async function readChainReport(db: Db): Promise<ChainReport> {
  const rows = await db.prisma.chainState.findMany({ where: { key: { in: ['tip_height', 'synced', 'peers'] } } });
  const get = (k: string) => rows.find((r) => r.key === k)?.value;
  return {
    reportedAt: rows.find((r) => r.key === 'peers')?.updatedAt ?? null,
    tip: Number(get('tip_height') ?? 0) || 0,
    synced: get('synced') === 'true',
    peers: Number(get('peers') ?? 0) || 0,
  };
}

// The wallets judged, so a busy /api/health or till does not re-parse the same xpub each time
// (bounded: cleared whole when it fills, as many stores may take turns).
const walletMemo = new Map<string, ReadinessFacts['wallet']>();
const WALLET_MEMO_MAX = 1024;

/** Whether the store's receiving wallet (STORE_XPUB / STORE_ADDRESS / the back office's) can receive on this network. */
export function walletState(store: { storeXpub: string; storeAddress: string } | null, network: Network): ReadinessFacts['wallet'] {
  if (!store || (!store.storeXpub && !store.storeAddress)) return 'none';
  const key = `${network.name}|${network.genesisHash}|${store.storeXpub}|${store.storeAddress}`;
  const known = walletMemo.get(key);
  if (known) return known;
  let state: ReadinessFacts['wallet'] = 'ok';
  try {
    if (store.storeXpub) parseXpub(store.storeXpub, network);
    else decodeAddress(store.storeAddress, network);
  } catch {
    state = 'invalid';
  }
  if (walletMemo.size >= WALLET_MEMO_MAX) walletMemo.clear();
  walletMemo.set(key, state);
  return state;
}

function configNetwork(cfg: Config): Network {
  return getNetwork(cfg.network, cfg.genesisHash ? { genesisHash: cfg.genesisHash } : {});
}

/** The facts that do not need the database. */
function baseFacts(cfg: Config): Pick<ReadinessFacts, 'network' | 'backend' | 'publicUrl'> {
  return { network: cfg.network, backend: cfg.chainBackend, publicUrl: cfg.publicUrl };
}

/** A store's readiness read from the database: the installation's chain and the store's wallet (throws when the database fails). */
export async function readReadiness(
  cfg: Config,
  db: Db,
  storeId: number,
  network: Network = configNetwork(cfg),
): Promise<Readiness & { chain: ChainSummary }> {
  const [{ reportedAt, ...chain }, store] = await Promise.all([readChainReport(db), findStore(db, storeIdOf(storeId))]);
  const silentSec = reportedAt ? Math.max(0, (Date.now() - reportedAt.getTime()) / 1000) : undefined;
  return {
    ...assessReadiness({ ...baseFacts(cfg), dbReachable: true, wallet: walletState(store, network), chain: { ...chain, silentSec } }),
    chain,
  };
}

/** Throws StoreNotReadyError (503 not_ready) unless the store is ready to take money. */
export async function assertReady(cfg: Config, db: Db, storeId: number, network?: Network): Promise<void> {
  const r = await readReadiness(cfg, db, storeId, network);
  if (!r.ready) {
    // The till said why on its screen; the log keeps it for whoever is asked about it later.
    log.info('a charge was refused: the store is not ready', { store: storeId, problems: r.problems.map((p) => p.code).join(',') });
    throw new StoreNotReadyError(r.problems);
  }
}

/**
 * The installation's health and one store's readiness: the store `storeOf` names (the signed-in
 * member's, lib/api/health-route.ts), else the first store.
 */
export async function checkHealth(
  cfg: Config,
  openDb: () => Promise<Db>,
  storeOf: (db: Db) => Promise<number | null | undefined> = async () => null,
): Promise<Health> {
  const base = { version: appVersion(), network: cfg.network, backend: cfg.chainBackend, db: cfg.dbKind };
  const empty: ChainSummary = { tip: 0, synced: false, peers: 0 };
  const down = (): Health => ({
    ok: false,
    ...base,
    chain: empty,
    ...assessReadiness({ ...baseFacts(cfg), dbReachable: false, wallet: 'unknown', chain: null }),
  });
  let db: Db;
  try {
    db = await openDb();
  } catch {
    return down();
  }
  if (!(await db.ping())) return down();
  try {
    const { chain, ready, problems } = await readReadiness(cfg, db, (await storeOf(db)) ?? FIRST_STORE_ID);
    return { ok: true, ...base, chain, ready, problems };
  } catch {
    return down();
  }
}
