// Per-client token-bucket rate limits for the public HTTP surfaces (/relay/*, /api/v1/*,
// /invoices/*): a client over its budget gets 429 with Retry-After. Configured by environment:
//   RATE_LIMIT_RPS    sustained requests per second per client and group (default 300; 0 = off)
//   RATE_LIMIT_BURST  bucket size, the requests a client may send at once (default 600)
// A client is identified by its address (lib/api/client-address.ts): the socket's peer, or with
// TRUST_PROXY set, the right-most X-Forwarded-For entry no trusted proxy added. A header the
// client writes itself never picks its bucket.
// The limiter is in-process memory: with several web processes each enforces its own budget.
import { z } from 'zod';
import { errorResponse } from './error-table';
import { clientAddress } from './client-address';
import { processEnv } from '../config';

export type RateGroup = 'relay' | 'api' | 'invoices';

export interface RateLimitConfig {
  rps: number;
  burst: number;
}

const num = z.coerce.number().finite().min(0).max(1e9);

/** Reads RATE_LIMIT_RPS / RATE_LIMIT_BURST; invalid values fall back to the defaults. */
export function rateLimitConfig(env: Record<string, string | undefined> = processEnv()): RateLimitConfig {
  const rps = num.safeParse(env.RATE_LIMIT_RPS?.trim() || undefined);
  const burst = num.safeParse(env.RATE_LIMIT_BURST?.trim() || undefined);
  const r = rps.success ? rps.data : 300;
  return { rps: r, burst: burst.success && burst.data >= 1 ? burst.data : Math.max(600, r) };
}

interface Bucket {
  tokens: number;
  at: number; // ms of the last refill
}

/** A token bucket per key, with a bounded number of keys (idle buckets are evicted first). */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  // The clock is injected as `() => Date` (docs/architecture.md#time); buckets keep milliseconds.
  constructor(
    readonly cfg: RateLimitConfig,
    private readonly maxKeys = 50_000,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** 0 when the request may proceed, else the seconds until a token is available. */
  take(key: string): number {
    if (this.cfg.rps <= 0) return 0;
    const t = this.now().getTime();
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size >= this.maxKeys) this.evict(t);
      b = { tokens: this.cfg.burst, at: t };
      this.buckets.set(key, b);
    } else {
      b.tokens = Math.min(this.cfg.burst, b.tokens + ((t - b.at) / 1000) * this.cfg.rps);
      b.at = t;
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.cfg.rps));
  }

  get size(): number {
    return this.buckets.size;
  }

  private evict(t: number): void {
    // Drop buckets that have refilled completely (they carry no state), else the oldest half.
    for (const [k, b] of this.buckets) {
      if (b.tokens + ((t - b.at) / 1000) * this.cfg.rps >= this.cfg.burst) this.buckets.delete(k);
    }
    if (this.buckets.size < this.maxKeys) return;
    let n = Math.ceil(this.maxKeys / 2);
    for (const k of this.buckets.keys()) {
      if (n-- <= 0) break;
      this.buckets.delete(k);
    }
  }
}

export function clientKey(req: Request): string {
  return clientAddress(req);
}

export function groupForPath(pathname: string): RateGroup | null {
  if (pathname.startsWith('/relay/')) return 'relay';
  if (pathname.startsWith('/api/v1/')) return 'api';
  if (pathname.startsWith('/invoices/')) return 'invoices';
  return null;
}

const g = globalThis as { __counterRateLimiter?: RateLimiter };

function limiter(): RateLimiter {
  return (g.__counterRateLimiter ??= new RateLimiter(rateLimitConfig()));
}

/**
 * The 429 answer for a request over its budget, or null to go on. Route handlers call it
 * first (lib/api/handle.ts does when given the request). `group` defaults from the path.
 */
export function rateLimitResponse(req: Request, group?: RateGroup): Response | null {
  const l = limiter();
  if (l.cfg.rps <= 0) return null;
  const grp = group ?? groupForPath(new URL(req.url).pathname);
  if (!grp) return null;
  const wait = l.take(`${grp}|${clientKey(req)}`);
  if (wait === 0) return null;
  return errorResponse('rate_limited', `too many requests; retry in ${wait} s`, { headers: { 'Retry-After': String(wait) } });
}
