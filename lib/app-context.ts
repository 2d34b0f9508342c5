// Process-wide services for route handlers and the worker: config, database, network params,
// chain backend. Created once and kept on globalThis (shared with instrumentation.ts).
import { loadConfig, type Config } from './config';
import { getDb, type Db } from './db';
import { getNetwork, type Network } from './doge';
import type { ChainBackend } from './chain/backend';
import { createChainBackend } from './chain/create-backend';

export interface AppContext {
  cfg: Config;
  db: Db;
  network: Network;
  chain: ChainBackend;
}

const g = globalThis as { __counterCtx?: { cfg: Config; network: Network; chain: ChainBackend } };

export function staticContext() {
  if (!g.__counterCtx) {
    const cfg = loadConfig();
    const network = getNetwork(cfg.network, cfg.genesisHash ? { genesisHash: cfg.genesisHash } : {});
    g.__counterCtx = { cfg, network, chain: createChainBackend(cfg) };
  }
  return g.__counterCtx;
}

export async function appContext(): Promise<AppContext> {
  const s = staticContext();
  return { ...s, db: await getDb() };
}
