// Runs the devnet's signature checks (the curve arithmetic of script.ts) on a worker
// thread, as a real node checks scripts in its own process: the relay's event loop then spends
// no time on the network's half of a broadcast. Verdicts are the same as on the main thread:
// the worker runs the same OpenSSL call, and a key OpenSSL refuses comes back undecided and
// goes to noble here. Whenever the worker is unavailable (failed to start, died, or the
// platform has no worker_threads) the checks run inline, so a broadcast never waits on a dead
// worker. A lone check (nothing pending, none asked for in the last few ms) also runs inline.
// The worker is started when first needed and ends after a minute without work.
import { Worker } from 'node:worker_threads';
import { log } from '../../log';
import { nobleVerify, spkiOf, verifySigCheck, type SigCheck } from './script';

// The worker's code (plain CommonJS, evaluated: no file for the bundler to place). It mirrors
// opensslVerify in script.ts: 1 valid, 0 invalid, 2 OpenSSL refused the key.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash, createPublicKey, verify } = require('node:crypto');
parentPort.on('message', ({ id, checks }) => {
  const out = checks.map(([spki, preimage, compact]) => {
    try {
      const key = createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
      const once = createHash('sha256').update(preimage).digest();
      return verify('sha256', once, { key, dsaEncoding: 'ieee-p1363' }, compact) ? 1 : 0;
    } catch {
      return 2;
    }
  });
  parentPort.postMessage({ id, out });
});`;

const IDLE_MS = 60_000;

interface Pending {
  checks: SigCheck[];
  resolve: (v: boolean[]) => void;
  timer: ReturnType<typeof setTimeout>;
}

export interface SigVerifierOptions {
  /** The worker's code (tests give one that dies, to check the inline fallback). */
  workerSource?: string;
  /**
   * A check asked for at least this long after the previous one, with none pending, runs
   * inline (default 5 ms; null: always the worker). One payment at a time then never pays for
   * the hop to the thread and back (~1 ms, more than the check) and never starts the worker;
   * under load the asks come closer together and go to the worker.
   */
  quietMs?: number | null;
  /** How long the worker may take to answer before it is given up for inline checks (default 5 s). */
  answerMs?: number;
}

export class SigVerifier {
  private worker: Worker | null = null;
  private broken = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private lastAsk = -Infinity;

  constructor(private readonly opts: SigVerifierOptions = {}) {}

  /** Whether the worker thread is running now. */
  get workerRunning(): boolean {
    return this.worker !== null;
  }

  /** One verdict per check, in order: true when the signature is valid. Never rejects. */
  verify(checks: SigCheck[]): Promise<boolean[]> {
    if (checks.length === 0) return Promise.resolve([]);
    const now = performance.now();
    const quietMs = this.opts.quietMs === undefined ? 5 : this.opts.quietMs;
    const quiet = quietMs !== null && this.pending.size === 0 && now - this.lastAsk >= quietMs;
    this.lastAsk = now;
    if (quiet) return Promise.resolve(checks.map(verifySigCheck));
    const keys = checks.map((c) => spkiOf(c.pubkey));
    const w = keys.some((k) => k === null) ? null : this.ensureWorker(); // a key OpenSSL cannot take: noble, here
    if (!w) return Promise.resolve(checks.map(verifySigCheck));
    const id = this.nextId++;
    return new Promise<boolean[]>((resolve) => {
      const answerMs = this.opts.answerMs ?? 5_000;
      const timer = setTimeout(() => this.fail(new Error(`signature worker did not answer in ${answerMs} ms`)), answerMs);
      this.pending.set(id, { checks, resolve, timer });
      w.ref(); // an answer is awaited: keep the process alive for it
      try {
        w.postMessage({ id, checks: checks.map((c, i) => [keys[i], c.preimage, c.compact]) });
      } catch (e) {
        this.pending.delete(id);
        this.fail(e);
        resolve(checks.map(verifySigCheck));
      }
    });
  }

  /** Stops the worker (checks after this start a new one). */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const w = this.worker;
    this.worker = null;
    this.settleInline();
    if (w) await w.terminate();
  }

  private ensureWorker(): Worker | null {
    if (this.broken) return null;
    this.armIdleTimer();
    if (this.worker) return this.worker;
    try {
      const w = new Worker(this.opts.workerSource ?? WORKER_SOURCE, {
        eval: true,
        resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
      });
      w.unref();
      w.on('message', (m: { id: number; out: number[] }) => this.answer(m));
      w.on('error', (e) => this.fail(e));
      w.on('messageerror', (e) => this.fail(e));
      w.on('exit', (code) => {
        if (this.worker === w) {
          this.worker = null;
          if (code !== 0) this.fail(new Error(`signature worker exited with code ${code}`));
          else this.settleInline();
        }
      });
      this.worker = w;
      return w;
    } catch (e) {
      this.fail(e);
      return null;
    }
  }

  private answer({ id, out }: { id: number; out: number[] }): void {
    const p = this.pending.get(id);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref(); // idle: never what keeps the process alive
    p.resolve(p.checks.map((c, i) => (out[i] === 1 ? true : out[i] === 0 ? false : nobleVerify(c))));
  }

  /** (Re)starts the minute after which an idle worker ends. */
  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.idle(), IDLE_MS);
    this.idleTimer.unref?.();
  }

  private async idle(): Promise<void> {
    if (!this.worker) return;
    if (this.pending.size > 0) {
      this.armIdleTimer();
      return;
    }
    const w = this.worker;
    this.worker = null;
    await w.terminate().catch(() => undefined);
  }

  /** The worker is gone for good: what it held is checked inline, and so is everything after. */
  private fail(e: unknown): void {
    if (!this.broken) log.warn('devnet: signature worker unavailable, checking signatures inline', { error: e as Error });
    this.broken = true;
    const w = this.worker;
    this.worker = null;
    this.settleInline();
    void w?.terminate().catch(() => undefined);
  }

  private settleInline(): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.resolve(p.checks.map(verifySigCheck));
    }
  }
}
