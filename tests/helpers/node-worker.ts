// The chain worker on a regtest node, as the node tests run it (any-wallet-dogecoind and
// -litecoind, refund-matching-dogecoind, the dogecoind stress run): a PGlite store with the test's xpub and a
// relay key, the `rpc` or `spv` backend on the node, and the production worker in-process (no
// exchange-rate sources), caught up with the node's tip before the test starts. It ticks every
// 250 ms rather than production's 1 s: these tests wait on the worker after each block and tx, and
// at 1 s most of their time was that wait (the five dogecoind files: 76 s → 47 s of wall time for
// the same CPU time, 54 → 56 s).
import type { Db } from '@/lib/db';
import { REGTEST, getNetwork } from '@/lib/doge';
import { activeRelayKey } from '@/lib/payments';
import { createRpcBackend } from '@/lib/chain/rpc/backend';
import { SpvBackend } from '@/lib/chain/spv/backend';
import type { ChainBackend } from '@/lib/chain/backend';
import { startWorker, type RunningWorker } from '@/lib/worker';
import { openTestDb } from './stores';
import { until } from './wait';
import type { RegtestNode } from './regtest-node';

export type NodeBackend = 'rpc' | 'spv';

/** No exchange-rate sources: the worker refreshes none. */
export const NO_RATES = { sources: [], refreshSec: 3600, maxAgeSec: 3600 };

/** The node flags a backend wants: spv hears of mempool txs promptly only as a whitelisted peer (docs/node.md). */
export function nodeArgsFor(backend: NodeBackend): string[] {
  return backend === 'spv' ? ['-whitelist=127.0.0.1'] : [];
}

/** What the helper needs of a regtest node (tests/helpers/dogecoind.ts, litecoind.ts). */
export type RegtestRpcNode = Pick<RegtestNode, 'rpcUrl' | 'p2pPort' | 'rpc'>;

export interface NodeWorker {
  db: Db;
  chain: ChainBackend;
  worker: RunningWorker;
  /** Resolves once the worker has processed the node's best block; throws after `ms`. */
  caughtUp(ms?: number): Promise<void>;
  /**
   * Resolves once `n` whole worker rounds have run after the call (the round under way does not
   * count): what a test waits for before it asserts that nothing happened.
   */
  roundsPass(n?: number, ms?: number): Promise<void>;
  /** The backend has the tx in its view of the mempool, and a whole round has run since: the worker has handled it. */
  settled(txid: string, ms?: number): Promise<void>;
  /** Stops the worker and closes the database (the node is the caller's). */
  stop(): Promise<void>;
}

const TICK_MS = 250;

export interface NodeWorkerOptions {
  backend: NodeBackend;
  xpub: string;
  publicUrl: string;
  /** How long the first catch-up may take (default 120 s: the node's matured blocks). */
  firstCatchUpMs?: number;
  /** The worker's tick (default 250 ms; production's is 1 s). */
  intervalMs?: number;
  /**
   * rpc: also listen to the node's tx announcements over P2P (lib/chain/rpc/announcements.ts), as
   * production does; 'only': without the getrawmempool diff, so that a test sees that path alone.
   */
  announcements?: boolean | 'only';
  /** The node's regtest genesis when it is not Dogecoin's (litecoind: LITECOIN_REGTEST_GENESIS), for spv. */
  genesisHash?: string;
}

export async function startNodeWorker(node: RegtestRpcNode, opts: NodeWorkerOptions): Promise<NodeWorker> {
  const db = await openTestDb();
  await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: opts.xpub }, create: { id: 1, storeXpub: opts.xpub } });
  await activeRelayKey(db, 1);
  const backend: ChainBackend =
    opts.backend === 'rpc'
      ? createRpcBackend({
          url: node.rpcUrl,
          network: 'regtest',
          ...(opts.announcements ? { p2p: { magic: REGTEST.magic, peer: `127.0.0.1:${node.p2pPort}`, defaultPort: REGTEST.port } } : {}),
        })
      : new SpvBackend({
          network: getNetwork('regtest', opts.genesisHash ? { genesisHash: opts.genesisHash } : undefined),
          peers: [`127.0.0.1:${node.p2pPort}`],
          checkpoint: null,
          db: async () => db,
        });
  const chain: ChainBackend = opts.announcements === 'only' ? { ...backend, mempoolNewTxs: undefined } : backend;
  const worker = startWorker({
    db,
    network: REGTEST,
    chain,
    publicUrl: opts.publicUrl,
    rates: NO_RATES,
    intervalMs: opts.intervalMs ?? TICK_MS,
  });
  async function caughtUp(ms = 30_000): Promise<void> {
    const best = await node.rpc<string>('getbestblockhash');
    const t0 = Date.now();
    while ((await db.prisma.chainState.findUnique({ where: { key: 'tip_hash' } }))?.value !== best) {
      if (Date.now() - t0 > ms) throw new Error(`worker did not reach ${best} within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  async function roundsPass(n = 1, ms = 30_000): Promise<void> {
    const target = worker.rounds() + n + 1;
    const reached = await until(
      () => worker.rounds(),
      (r) => r >= target,
      ms,
      50,
    );
    if (reached < target) throw new Error(`the worker did not run ${n} rounds within ${ms} ms`);
  }
  async function settled(txid: string, ms = 30_000): Promise<void> {
    if (!(await until(() => chain.inMempool(txid), Boolean, ms, 50)))
      throw new Error(`the backend did not see ${txid} in the mempool within ${ms} ms`);
    await roundsPass(1, ms);
  }
  const running: NodeWorker = {
    db,
    chain,
    worker,
    caughtUp,
    roundsPass,
    settled,
    async stop() {
      await worker.stop();
      await db.close();
    },
  };
  try {
    await caughtUp(opts.firstCatchUpMs ?? 120_000);
  } catch (err) {
    await running.stop();
    throw err;
  }
  return running;
}
