// The chain worker (docs/operations.md#several-processes, docs/architecture.md#chain-backends): follows the chain, updates payments, expires them,
// finishes broadcasts interrupted by a crash, and delivers webhooks. Exactly one is active per
// database: a lease row elects it on PostgreSQL (PGlite is single-process anyway).
import { randomBytes } from 'node:crypto';
import type { Db } from './db';
import {
  type BlockTxSummary,
  isBackendUnavailable,
  followChain,
  publishChainState,
  trackBlockConnected,
  trackBlockDisconnected,
  syncWatchAddresses,
  forgetUsedIndexes,
  applyBirthday,
  rescanStep,
} from './chain';
import {
  onBlockConnected,
  onBlockDisconnected,
  onMempoolTxs,
  updateConfirmations,
  expirePayments,
  dropVanishedTxs,
  type SyncContext,
  type ChainContext,
  type DisconnectedTxs,
} from './payments';
import { broadcastClaimed } from './relay';
import { startWebhookLoop, type WebhookLoop } from './webhooks';
import { startRateLoop, type RateLoop, type RateConfig } from './rates';
import { log } from './log';
import { observeCheckTxs } from './wallet-check';

export interface WorkerContext extends ChainContext {
  intervalMs?: number;
  /** Exchange-rate sources refreshed by the active worker (docs/api.md#exchange-rates); default from RATE_* in the environment. */
  rates?: RateConfig;
  /**
   * Waited at the start of every tick. The composition root injects it for the lease test (a
   * tick longer than the lease, lib/app-context.ts); production passes nothing.
   */
  tickDelayMs?: number;
  /** The lease's length (WORKER_LEASE_MS); default 8 s. */
  leaseMs?: number;
}

// A standby takes over within the lease + one tick of the active worker dying (docs/operations.md#several-processes: < 15 s
// with the default lease).
const DEFAULT_LEASE_MS = 8_000;

async function holdLease(db: Db, holder: string, leaseMs: number): Promise<boolean> {
  if (db.kind === 'pglite') return true;
  const now = new Date();
  const expiresAt = new Date(now.getTime() + leaseMs);
  const rows = await db.query<{ holder: string }>(
    `INSERT INTO worker_lease (name, holder, expires_at) VALUES ('chain', $1, $2)
     ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
       WHERE worker_lease.holder = EXCLUDED.holder OR worker_lease.expires_at < $3
     RETURNING holder`,
    [holder, expiresAt, now],
  );
  return rows.length === 1 && rows[0].holder === holder;
}

/** Finishes broadcasts that a crash interrupted (claimed but not decided for 10 s): accepted, or released if refused. */
async function reconcilePending(ctx: WorkerContext): Promise<void> {
  // Found in plain SQL first: the worker asks every second, and there is hardly ever one.
  const before = new Date(Date.now() - 10_000);
  const ids = await ctx.db.query<{ id: string }>(
    `SELECT id FROM payment WHERE status = 'unpaid' AND broadcast_state = 'pending' AND updated_at < $1 LIMIT 50`,
    [before],
  );
  if (!ids.length) return;
  const stale = await ctx.db.prisma.payment.findMany({
    where: { id: { in: ids.map((r) => String(r.id)) }, status: 'unpaid', broadcastState: 'pending', updatedAt: { lt: before } },
  });
  for (const p of stale) {
    log.info('reconciling an interrupted broadcast', { payment: p.id, txid: p.txid });
    const r = await broadcastClaimed(ctx, p.id);
    // A tx the network now refuses (its input was spent meanwhile...) releases the claim: the
    // payment is payable again (docs/relay.md), never declined.
    if (r.kind === 'refused') log.info('released a claim the network refused', { payment: p.id, txid: p.txid, reason: r.reason });
  }
}

/**
 * Hands the txs to the wallet check's chain watch (docs/wallet-check.md#what-the-relay-records). It writes
 * only the check's tables, and a failure there never holds the chain worker back.
 */
async function watchCheckTxs(ctx: WorkerContext, txs: readonly BlockTxSummary[]): Promise<void> {
  await observeCheckTxs(ctx.db, ctx.network, txs).catch((e) => log.warn('wallet check: txs not observed', { error: e as Error }));
}

/**
 * The txs of a block being disconnected, for their children's RBF signal (docs/security.md): rpc
 * and devnet still hold a block that left the best chain. spv is not asked (a peer need not serve
 * a stale block, and its blocks are filtered anyway), nor a backend that fails to answer: the
 * payment core then takes every tx the block unmines as having a replaceable parent.
 */
async function disconnectedTxs(ctx: WorkerContext, hash: string): Promise<DisconnectedTxs | null> {
  if (ctx.chain.ownsHeaderStore) return null;
  return ctx.chain.block(hash).then(
    (b) => ({ txs: b.txs, txCount: b.txCount }),
    (e) => {
      log.warn('a disconnected block could not be read: its txs are taken as replaceable', { block: hash, error: e as Error });
      return null;
    },
  );
}

/**
 * One tick. `step` runs each of its phases; the running worker passes its lock, so a mempool
 * pass (mempoolWaker) waits for the phase in progress rather than the whole tick, whose phases
 * each make RPC round trips to an `rpc` node (docs/live.md). A pass between two phases only adds
 * mempool txs, which every later phase reads from the database as any other.
 */
export async function workerTick(ctx: WorkerContext, step: <T>(fn: () => Promise<T>) => Promise<T> = (fn) => fn()): Promise<void> {
  const sync: SyncContext = ctx;
  await step(async () => {
    if (ctx.tickDelayMs) await new Promise((r) => setTimeout(r, ctx.tickDelayMs));
    await reconcilePending(ctx);
    await syncWatchAddresses(ctx.db, ctx.network);
    // Payments from any wallet are seen from the mempool, not at the next block (docs/api.md#payments-from-any-wallet).
    if (ctx.chain.mempoolNewTxs) {
      const txs = await ctx.chain.mempoolNewTxs();
      await onMempoolTxs(sync, txs);
      await watchCheckTxs(ctx, txs);
    }
  });
  const r = await step(() =>
    followChain(ctx.db, ctx.chain, {
      connected: async (b) => {
        await trackBlockConnected(ctx.db, ctx.network, b);
        await onBlockConnected(sync, b);
        await watchCheckTxs(ctx, b.txs);
        await publishChainState(ctx.db, {
          last_block_size: b.size,
          last_block_tx_count: b.txCount,
          last_block_total_tx_size: b.totalTxSize,
        });
      },
      disconnected: async (hash) => {
        await trackBlockDisconnected(ctx.db, hash);
        await onBlockDisconnected(sync, hash, await disconnectedTxs(ctx, hash));
      },
    }),
  );
  if (r.connected || r.disconnected)
    log.info('chain advanced', { height: r.tip.height, connected: r.connected, disconnected: r.disconnected });
  await step(async () => {
    // Txs the node dropped unmined (a reorg past its ancestor limit, a restart without its
    // mempool) stop counting (docs/api.md#payments-from-any-wallet); rpc can tell, spv and devnet cannot.
    if (!r.waiting) await dropVanishedTxs(sync, ctx.chain, r.tip.hash);
    if (!r.waiting) await updateConfirmations(sync, r.tip.height, r.tip.hash);
    await expirePayments(sync);
  });
  // The wallet's history (docs/node.md#the-wallets-history-birthday-and-rescan): a birthday becomes a rescan, which advances a batch per tick.
  if (!r.waiting) {
    await step(async () => {
      await applyBirthday(ctx.db, ctx.chain).catch((e) =>
        log.warn('wallet birthday not applied yet (next tick retries)', { error: e as Error }),
      );
      await rescanStep(ctx.db, ctx.network, ctx.chain);
    });
  }
  const st = ctx.chain.syncStatus?.();
  const peers = await ctx.chain.peers().catch(() => 0);
  await step(async () =>
    publishChainState(ctx.db, {
      ...(r.waiting ? {} : { tip_height: r.tip.height, tip_hash: r.tip.hash }),
      peers,
      synced: st ? !r.waiting && st.synced && st.headerHeight - r.tip.height <= 1 : true,
      ...(st ? { header_height: st.headerHeight, peer_height: st.peerHeight, headers_per_sec: st.headersPerSec } : {}),
    }),
  );
}

/**
 * Plain-wallet txs the backend was pushed (P2P, or the rpc mempool poll) are handled as they arrive, between ticks
 * (docs/live.md): a wake-up coalesces every tx that came meanwhile into one pass, and passes
 * never overlap a tick's phase (`exclusive`). A pass that fails keeps its txs for the next one, which
 * the tick loop also runs.
 */
function mempoolWaker(ctx: WorkerContext, exclusive: <T>(fn: () => Promise<T>) => Promise<T>): { stop(): void; pass(): Promise<void> } {
  const { chain } = ctx;
  if (!chain.onMempoolTx || !chain.takePushedTxs) return { stop: () => undefined, pass: async () => undefined };
  const sync: SyncContext = ctx;
  let queued = false;
  let leftover: BlockTxSummary[] = [];
  const pass = () =>
    exclusive(async () => {
      queued = false;
      const txs = [...leftover, ...chain.takePushedTxs!()];
      leftover = [];
      if (!txs.length) return;
      log.debug('mempool pass: pushed txs', { txs: txs.length });
      try {
        await onMempoolTxs(sync, txs);
        await watchCheckTxs(ctx, txs);
      } catch (e) {
        leftover = txs.slice(-10_000);
        throw e;
      }
    });
  const stop = chain.onMempoolTx(() => {
    if (queued) return;
    queued = true;
    setImmediate(() => pass().catch((e) => log.warn('mempool pass failed (retried)', { error: e as Error })));
  });
  return { stop, pass: () => (leftover.length ? pass() : Promise.resolve()) };
}

export interface RunningWorker {
  stop(): Promise<void>;
  /**
   * How many rounds (lease, mempool pass, tick) have ended since the start, failed ones included.
   * A test that asserts that nothing happens waits for rounds to pass, not for a fixed time.
   */
  rounds(): number;
}

export function startWorker(ctx: WorkerContext): RunningWorker {
  const holder = randomBytes(8).toString('hex');
  const leaseMs = ctx.leaseMs ?? DEFAULT_LEASE_MS;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let webhooks: WebhookLoop | undefined;
  let rates: RateLoop | undefined;
  let leader = false;
  let running: Promise<void> = Promise.resolve();
  let lastError = '';
  let rounds = 0;
  // A tick's phases and the mempool passes between them run one at a time.
  let lock: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const r = lock.then(fn);
    lock = r.catch(() => undefined);
    return r;
  };
  let waker: ReturnType<typeof mempoolWaker> | undefined;
  // A tick can outlast the lease (a first sync of many blocks on a busy machine): while leader,
  // renew it in the background too, so a live worker is never taken over mid-tick.
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const stopHeartbeat = () => {
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = undefined;
  };

  const loop = async () => {
    try {
      const mine = await holdLease(ctx.db, holder, leaseMs);
      if (mine && !leader) {
        await ctx.chain.start(); // throws: stay standby, the next loop retries
        // Another worker may have recorded wallet outputs while this one stood by.
        forgetUsedIndexes(ctx.db);
        leader = true;
        if (ctx.db.kind === 'postgresql')
          heartbeat = setInterval(() => void holdLease(ctx.db, holder, leaseMs).catch(() => undefined), leaseMs / 4);
        log.info('chain worker active', { holder, backend: ctx.chain.name });
        webhooks = startWebhookLoop(ctx.db);
        rates = startRateLoop(ctx.db, ctx.rates);
        waker = mempoolWaker(ctx, exclusive);
      } else if (!mine && leader) {
        leader = false;
        stopHeartbeat();
        waker?.stop();
        waker = undefined;
        log.warn('chain worker lost its lease; standing by', { holder });
        await webhooks?.stop();
        webhooks = undefined;
        await rates?.stop();
        rates = undefined;
        await ctx.chain.stop().catch(() => undefined); // an spv node stops writing chain_header
      }
      if (leader) {
        await waker?.pass();
        await workerTick(ctx, exclusive);
      }
      lastError = '';
    } catch (e) {
      const msg = (e as Error).message;
      if (msg !== lastError) log.warn(isBackendUnavailable(e) ? 'chain backend unavailable' : 'chain worker error', { error: e as Error });
      lastError = msg;
      if (isBackendUnavailable(e)) await publishChainState(ctx.db, { synced: false, peers: 0 }).catch(() => undefined);
    }
    rounds++;
    if (!stopped) timer = setTimeout(() => (running = loop()), ctx.intervalMs ?? 1000);
  };
  running = loop();
  return {
    rounds: () => rounds,
    stop: async () => {
      stopped = true;
      stopHeartbeat();
      waker?.stop();
      if (timer) clearTimeout(timer);
      await running;
      await lock;
      stopHeartbeat();
      await webhooks?.stop();
      await rates?.stop();
      await ctx.chain.stop().catch(() => undefined);
      if (leader && ctx.db.kind === 'postgresql') {
        await ctx.db.query(`DELETE FROM worker_lease WHERE name = 'chain' AND holder = $1`, [holder]).catch(() => undefined);
      }
    },
  };
}
