// The rpc backend's fast mempool poll (docs/live.md#a-node-that-does-not-whitelist-counter): a
// node that does not whitelist Counter announces txs over P2P only after a random delay of
// seconds, so every `intervalMs` (DOGE_RPC_MEMPOOL_POLL_MS) the watch checks the mempool's mark
// and, when it changed, fetches the new txs and queues them, which wakes the chain worker at once.
// Runs only while the backend is started (on the active worker). A failing node is asked less
// often (doubling up to MAX_BACKOFF_MS); a slow one no more than half the time (the next round
// waits at least as long as the last one took).
import { log } from '../../log';
import type { RpcMempoolWatch } from './mempool';

const MAX_BACKOFF_MS = 5_000;

export class MempoolPoller {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running = false;
  /** Bumped by start(): a round still in flight from before a stop() schedules nothing. */
  private generation = 0;
  private failures = 0;
  private lastError = '';
  /** Txs this poll queued (for the tests and the benchmark's figures). */
  found = 0;
  /** Rounds that succeeded. */
  rounds = 0;

  constructor(
    private readonly watch: RpcMempoolWatch,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.running || this.intervalMs <= 0) return;
    this.running = true;
    this.generation++;
    this.watch.polling = true;
    this.schedule(this.intervalMs, this.generation);
  }

  stop(): void {
    this.running = false;
    this.watch.polling = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number, generation: number): void {
    if (!this.running || generation !== this.generation) return;
    this.timer = setTimeout(() => void this.round(generation), ms);
    // The poll alone never keeps the process alive.
    this.timer.unref?.();
  }

  private async round(generation: number): Promise<void> {
    const t0 = performance.now();
    let delay = this.intervalMs;
    try {
      this.found += await this.watch.poll();
      this.rounds++;
      this.failures = 0;
      this.lastError = '';
      delay = Math.max(this.intervalMs, performance.now() - t0);
    } catch (e) {
      this.failures++;
      delay = Math.min(MAX_BACKOFF_MS, this.intervalMs * 2 ** this.failures);
      // The worker's tick reports an unreachable node; this says only that the poll backs off.
      const msg = (e as Error).message;
      if (msg !== this.lastError) log.debug('rpc: mempool poll failed (backing off)', { error: e as Error, retryMs: delay });
      this.lastError = msg;
    }
    this.schedule(delay, generation);
  }
}
