// Retry policy shared by envelope fetch, /pay and /status: a few attempts, exponential backoff
// with random jitter. Pure apart from the injected sleep and random source.

export interface RetryPolicy {
  /** Total attempts including the first (default 4). */
  attempts?: number;
  /** Delay before the first retry, ms (default 500); doubles every retry. */
  baseDelayMs?: number;
  /** Ceiling of one delay, ms (default 8000). */
  maxDelayMs?: number;
  /** Random extra of up to this fraction of the delay (default 0.5). */
  jitter?: number;
}

export interface RetryEnv {
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export const DEFAULT_RETRY: Required<RetryPolicy> = { attempts: 4, baseDelayMs: 500, maxDelayMs: 8000, jitter: 0.5 };

export const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The delay before retry number `retry` (1 = the first retry): base·2^(retry-1), capped, plus jitter. */
export function backoffDelay(retry: number, policy: RetryPolicy = {}, random: () => number = Math.random): number {
  const p = { ...DEFAULT_RETRY, ...policy };
  const exp = Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(exp + exp * p.jitter * random());
}

/** Outcome of one attempt: done (stop with a value), retry (transient), or fail (final). */
export type Attempt<T> = { done: T } | { retry: Error } | { fail: Error };

/**
 * Run `attempt` until it is done or fails, retrying transient outcomes with backoff. After the
 * last attempt the last transient error is thrown. `canRetry` can veto a retry (e.g. a deadline).
 */
export async function withRetries<T>(
  attempt: (n: number) => Promise<Attempt<T>>,
  policy: RetryPolicy = {},
  env: RetryEnv = {},
  canRetry: (delayMs: number) => boolean = () => true,
): Promise<T> {
  const p = { ...DEFAULT_RETRY, ...policy };
  const sleep = env.sleep ?? defaultSleep;
  let last: Error = new Error('no attempt made');
  for (let n = 1; n <= Math.max(1, p.attempts); n++) {
    const r = await attempt(n);
    if ('done' in r) return r.done;
    if ('fail' in r) throw r.fail;
    last = r.retry;
    if (n < p.attempts) {
      const delay = backoffDelay(n, p, env.random);
      if (!canRetry(delay)) break;
      await sleep(delay);
    }
  }
  throw last;
}
