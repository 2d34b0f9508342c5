// Process-wide services for route handlers and the worker: config, database, network params,
// chain backend. Created once and kept on globalThis (shared with instrumentation.ts).
import { config, runtimeSettings, type Config, type RuntimeSettings } from './config';
import { getDb, type Db } from './db';
import { getNetwork, type Network } from './doge';
import { type ChainBackend, createChainBackend } from './chain';

export interface AppContext {
  cfg: Config;
  db: Db;
  network: Network;
  chain: ChainBackend;
  faults: FaultHooks;
}

/**
 * Faults the crash and lease tests inject through the environment of the process they start
 * (tests/integration/relay-litecoind.test.ts, multiprocess-faults.test.ts). Read here, at the
 * composition root, and handed to the relay and the worker as plain hooks: the domain code
 * itself has no test branch. Unset in production, so both are absent.
 */
export interface FaultHooks {
  /** COUNTER_TEST_CRASH=before-broadcast: the process dies between a /pay claim and its broadcast. */
  afterClaim?: () => void;
  /** COUNTER_TEST_TICK_DELAY_MS: every worker tick first waits this long. */
  tickDelayMs?: number;
}

function faultHooks(s: RuntimeSettings): FaultHooks {
  const h: FaultHooks = {};
  if (s.testCrashBeforeBroadcast) h.afterClaim = () => process.kill(process.pid, 'SIGKILL');
  if (s.testTickDelayMs > 0) h.tickDelayMs = s.testTickDelayMs;
  return h;
}

const g = globalThis as { __counterCtx?: { cfg: Config; network: Network; chain: ChainBackend; faults: FaultHooks } };

export function staticContext() {
  if (!g.__counterCtx) {
    const cfg = config();
    const network = getNetwork(cfg.network, cfg.genesisHash ? { genesisHash: cfg.genesisHash } : {});
    g.__counterCtx = { cfg, network, chain: createChainBackend(cfg), faults: faultHooks(runtimeSettings()) };
  }
  return g.__counterCtx;
}

export async function appContext(): Promise<AppContext> {
  const s = staticContext();
  return { ...s, db: await getDb() };
}
