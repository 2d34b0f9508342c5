// Email receipts make Counter an outbound mail relay, so they are rationed: at most
// RECEIPT_EMAILS_PER_PAYMENT (default 5) per payment and RECEIPT_EMAILS_PER_SENDER (default 30)
// per user or API key in any hour. In-process memory: each web process keeps its own count.
import { processEnv } from '../config';
const HOUR = 3600_000;

export class SlidingLimit {
  private readonly hits = new Map<string, number[]>();
  constructor(
    private readonly max: number,
    private readonly windowMs = HOUR,
    private readonly maxKeys = 20_000,
  ) {}

  /** Seconds until `key` may go again (0 = now), without counting. */
  wait(key: string, now = Date.now()): number {
    const xs = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (xs.length < this.max) return 0;
    return Math.max(1, Math.ceil((xs[0] + this.windowMs - now) / 1000));
  }

  hit(key: string, now = Date.now()): void {
    const xs = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    xs.push(now);
    if (!this.hits.has(key) && this.hits.size >= this.maxKeys) this.hits.delete(this.hits.keys().next().value!);
    this.hits.set(key, xs);
  }
}

const envInt = (v: string | undefined, d: number) => {
  const n = Number(v);
  return v && Number.isInteger(n) && n >= 0 ? n : d;
};

const g = globalThis as { __receiptLimits?: { payment: SlidingLimit; sender: SlidingLimit } };

export function receiptLimits(env: Record<string, string | undefined> = processEnv()) {
  g.__receiptLimits ??= {
    payment: new SlidingLimit(envInt(env.RECEIPT_EMAILS_PER_PAYMENT, 5)),
    sender: new SlidingLimit(envInt(env.RECEIPT_EMAILS_PER_SENDER, 30)),
  };
  return g.__receiptLimits;
}
