// Sign-in throttling (docs/security.md): failures are counted per account (the normalised email,
// known or not) and per client (its address, lib/api/client-address.ts). From the 5th failure
// on, a key is locked for a time that doubles with each further failure (1 s, 2 s, 4 s, … at
// most 15 min); while either key is locked, sign-in answers 429 with Retry-After without
// looking at the password, so a guesser gets nothing from the lock-out and spends no scrypt.
// A successful sign-in clears its account's count; a client's count fades after a quiet
// period. State lives in this process's memory, bounded in size.

export const FREE_FAILURES = 5;
export const BASE_LOCK_MS = 1000;
export const MAX_LOCK_MS = 15 * 60 * 1000;
/** A key without failures for this long is forgotten. */
export const FORGET_AFTER_MS = 60 * 60 * 1000;

interface Entry {
  failures: number;
  lockedUntil: number;
  lastFailure: number;
}

export class SignInThrottle {
  private readonly entries = new Map<string, Entry>();

  // The clock is injected as `() => Date` (docs/architecture.md#time); buckets keep milliseconds.
  constructor(private readonly now: () => Date = () => new Date(), private readonly maxKeys = 100_000) {}

  /** Seconds until these keys may try again (0 = now). */
  retryAfter(keys: readonly string[]): number {
    const t = this.now().getTime();
    let wait = 0;
    for (const k of keys) {
      const e = this.live(k, t);
      if (e && e.lockedUntil > t) wait = Math.max(wait, Math.ceil((e.lockedUntil - t) / 1000));
    }
    return wait;
  }

  /** Records a failed sign-in for each key; returns the resulting lock in seconds (0 = none). */
  failed(keys: readonly string[]): number {
    const t = this.now().getTime();
    for (const k of keys) {
      let e = this.live(k, t);
      if (!e) {
        if (this.entries.size >= this.maxKeys) this.evict(t);
        e = { failures: 0, lockedUntil: 0, lastFailure: t };
        this.entries.set(k, e);
      }
      e.failures++;
      e.lastFailure = t;
      if (e.failures >= FREE_FAILURES) {
        const ms = Math.min(MAX_LOCK_MS, BASE_LOCK_MS * 2 ** Math.min(e.failures - FREE_FAILURES, 30));
        e.lockedUntil = t + ms;
      }
    }
    return this.retryAfter(keys);
  }

  /** Forgets the failures of these keys (a successful sign-in clears its account). */
  succeeded(keys: readonly string[]): void {
    for (const k of keys) this.entries.delete(k);
  }

  get size(): number {
    return this.entries.size;
  }

  private live(k: string, t: number): Entry | undefined {
    const e = this.entries.get(k);
    if (e && e.lockedUntil <= t && t - e.lastFailure > FORGET_AFTER_MS) {
      this.entries.delete(k);
      return undefined;
    }
    return e;
  }

  private evict(t: number): void {
    for (const [k, e] of this.entries) if (e.lockedUntil <= t) this.entries.delete(k);
    if (this.entries.size < this.maxKeys) return;
    let n = Math.ceil(this.maxKeys / 2);
    for (const k of this.entries.keys()) {
      if (n-- <= 0) break;
      this.entries.delete(k);
    }
  }
}

const g = globalThis as { __counterSignInThrottle?: SignInThrottle };

export function signInThrottle(): SignInThrottle {
  return (g.__counterSignInThrottle ??= new SignInThrottle());
}

export const accountKey = (normalisedEmail: string) => `account|${normalisedEmail}`;
export const clientKeyOf = (address: string) => `client|${address}`;
