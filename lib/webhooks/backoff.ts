// Webhook retry schedule (docs/api.md#webhooks): exponential backoff with jitter, for 24 hours.
// Pure functions: the caller supplies the clock and the random source.
//
// The base delay after attempt n is 20 s * 2^(n-1), capped at 1 h. The actual delay is drawn
// uniformly from [base/2, base*3/2) ("equal jitter": never near zero, so a broken receiver is
// not hammered, but spread enough that a backlog does not retry in lock-step), and is itself
// capped at 1 h. Attempt 1 therefore waits 10-30 s, attempt 9 onwards 30-60 min.

export const WEBHOOK_BASE_DELAY_MS = 20_000;
export const WEBHOOK_MAX_DELAY_MS = 60 * 60 * 1000;
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The un-jittered delay after the given (1-based) failed attempt: non-decreasing, capped. */
export function webhookBackoffBaseMs(attempt: number): number {
  const n = Number.isFinite(attempt) ? Math.max(1, Math.floor(attempt)) : 1;
  const exp = Math.min(n - 1, 30); // 2^30 * 20 s is far past the cap; avoids Infinity
  return Math.min(WEBHOOK_MAX_DELAY_MS, WEBHOOK_BASE_DELAY_MS * 2 ** exp);
}

/**
 * Milliseconds to wait after failed attempt number `attempt` (1-based) before the next one.
 * `random` returns a value in [0, 1), like Math.random; out-of-range values are clamped.
 */
export function nextAttemptDelayMs(attempt: number, random: () => number): number {
  const base = webhookBackoffBaseMs(attempt);
  const r0 = random();
  const r = Number.isFinite(r0) ? Math.min(Math.max(r0, 0), 1) : 0.5;
  return Math.min(WEBHOOK_MAX_DELAY_MS, Math.round(base / 2 + base * r));
}

/**
 * When to try again after failed attempt `attempt` of an event created at `createdAt`, or
 * null when that would fall beyond the retry window: the event is then given up ('failed').
 */
export function nextAttemptAt(createdAt: Date, attempt: number, now: Date, random: () => number): Date | null {
  const at = now.getTime() + nextAttemptDelayMs(attempt, random);
  return at > createdAt.getTime() + WEBHOOK_RETRY_WINDOW_MS ? null : new Date(at);
}
