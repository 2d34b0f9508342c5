// Sign-in throttling (docs/security.md): attempts are counted per account (the normalised email,
// known or not) and per client (its address, lib/api/client-address.ts) for passwords, per
// terminal and per user for PINs, per client for display pairing. The first 5 attempts of a key
// are free; from the 5th on, the key is locked for a time that doubles with each further failure
// (1 s, 2 s, 4 s, … at most 15 min); while any of a request's keys is locked, it answers 429
// with Retry-After without looking at the password, so a guesser gets nothing from the lock-out
// and spends no scrypt. A successful sign-in clears its account's (user's) count; a client's
// (terminal's) count fades after an hour without attempts.
//
// Count before check. The state lives in the database (table sign_in_throttle), shared by every
// app process, and an attempt is *reserved* by one conditional write before the secret is
// compared: INSERT … ON CONFLICT DO UPDATE SET attempts = attempts + 1 … WHERE not locked
// RETURNING attempts. No row back means locked. The reservation that reaches the 5th attempt
// also locks the key while its own check runs (a pending lock, PENDING_MS), so a burst of N
// simultaneous guesses gets at most 5 checks and N − 5 answers of 429, whatever the timing and
// however many processes serve it. The outcome then settles the reservation: a failure turns
// the pending lock into the doubling lock counted from now; a success (or an attempt stopped
// by another key's lock) gives the attempt back. If the process dies mid-check, the pending
// lock simply expires.
import type { SqlRunner } from '../db';

export const FREE_FAILURES = 5;
export const BASE_LOCK_MS = 1000;
export const MAX_LOCK_MS = 15 * 60 * 1000;
/** A key without attempts for this long is forgotten. */
export const FORGET_AFTER_MS = 60 * 60 * 1000;
/** How long the attempt that reaches FREE_FAILURES holds its key while it is checked. */
export const PENDING_MS = 60 * 1000;
/** Every this many reservations a process prunes forgotten rows (the table stays bounded). */
export const PRUNE_EVERY = 256;

/** The lock after the `attempts`-th failure (0 below FREE_FAILURES). */
export function lockMs(attempts: number): number {
  if (attempts < FREE_FAILURES) return 0;
  return Math.min(MAX_LOCK_MS, BASE_LOCK_MS * 2 ** Math.min(attempts - FREE_FAILURES, 30));
}

/** The attempts a request holds: each key with the attempt number it was given. */
export interface Reservation {
  held: { key: string; n: number }[];
}

export type ReserveResult = { ok: true; reservation: Reservation } | { ok: false; retryAfter: number };

const iso = (ms: number) => new Date(ms).toISOString();

// One statement counts the attempt and says whether it may go ahead (no row back: locked).
// A row quiet for FORGET_AFTER_MS starts again from 1.
const RESERVE_SQL = `INSERT INTO "sign_in_throttle" AS t ("key", "attempts", "locked_until", "last_at")
VALUES ($1, 1, NULL, $2::timestamptz)
ON CONFLICT ("key") DO UPDATE SET
  "attempts" = CASE WHEN t."last_at" < $4::timestamptz THEN 1 ELSE t."attempts" + 1 END,
  "locked_until" = CASE WHEN (CASE WHEN t."last_at" < $4::timestamptz THEN 1 ELSE t."attempts" + 1 END) >= ${FREE_FAILURES}
    THEN $3::timestamptz ELSE NULL END,
  "last_at" = $2::timestamptz
WHERE t."locked_until" IS NULL OR t."locked_until" <= $2::timestamptz
RETURNING t."attempts" AS attempts`;

// Gives an attempt back. The lock goes when this was the latest attempt (its pending lock) or
// when fewer than FREE_FAILURES remain counted.
const REFUND_SQL = `UPDATE "sign_in_throttle" SET "attempts" = "attempts" - 1,
  "locked_until" = CASE WHEN "attempts" = $2 OR "attempts" - 1 < ${FREE_FAILURES} THEN NULL ELSE "locked_until" END
WHERE "key" = $1 AND "attempts" > 0`;

// Only the latest attempt of a key settles its lock (an earlier failure is already counted).
const FAIL_SQL = `UPDATE "sign_in_throttle" SET "locked_until" = $3::timestamptz, "last_at" = $4::timestamptz
WHERE "key" = $1 AND "attempts" = $2`;

export class SignInThrottle {
  private reservations = 0;

  // The clock is injected as `() => Date` (docs/architecture.md#time).
  constructor(
    private readonly db: Pick<SqlRunner, 'query'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Counts one attempt on each key, in order, before anything is checked. Stops at the first
   * locked key, gives back what it had taken, and answers the seconds to wait.
   */
  async reserve(keys: readonly string[]): Promise<ReserveResult> {
    if (++this.reservations % PRUNE_EVERY === 0) await this.prune();
    const held: Reservation['held'] = [];
    for (const key of [...new Set(keys)]) {
      const t = this.now().getTime();
      const rows = await this.db.query<{ attempts: number }>(RESERVE_SQL, [key, iso(t), iso(t + PENDING_MS), iso(t - FORGET_AFTER_MS)]);
      if (rows.length === 0) {
        await this.giveBack({ held });
        return { ok: false, retryAfter: await this.retryAfter(key) };
      }
      held.push({ key, n: Number(rows[0].attempts) });
    }
    return { ok: true, reservation: { held } };
  }

  /** The check failed: each key the attempt reached FREE_FAILURES on is locked from now. */
  async failed(r: Reservation): Promise<void> {
    const t = this.now().getTime();
    for (const { key, n } of r.held) {
      if (n >= FREE_FAILURES) await this.db.query(FAIL_SQL, [key, n, iso(t + lockMs(n)), iso(t)]);
    }
  }

  /** The check passed: `clear` keys (the account, the user) are forgotten, the others given back. */
  async succeeded(r: Reservation, clear: readonly string[] = []): Promise<void> {
    const gone = new Set(clear);
    for (const key of gone) await this.db.query(`DELETE FROM "sign_in_throttle" WHERE "key" = $1`, [key]);
    await this.giveBack({ held: r.held.filter((h) => !gone.has(h.key)) });
  }

  /** Seconds until `key` may try again (at least 1: it was just found locked). */
  async retryAfter(key: string): Promise<number> {
    const t = this.now().getTime();
    const [row] = await this.db.query<{ attempts: number; locked_until: Date | string | null }>(
      `SELECT "attempts", "locked_until" FROM "sign_in_throttle" WHERE "key" = $1`,
      [key],
    );
    if (!row?.locked_until) return 1;
    const left = new Date(row.locked_until).getTime() - t;
    // A pending lock lasts until its check answers; the lock that follows is what to wait for.
    return Math.max(1, Math.ceil(Math.min(left, lockMs(Number(row.attempts)) || left) / 1000));
  }

  /** Deletes the rows nobody needs: unlocked and quiet for FORGET_AFTER_MS. */
  async prune(): Promise<void> {
    const t = this.now().getTime();
    await this.db.query(
      `DELETE FROM "sign_in_throttle" WHERE "last_at" < $1::timestamptz AND ("locked_until" IS NULL OR "locked_until" <= $2::timestamptz)`,
      [iso(t - FORGET_AFTER_MS), iso(t)],
    );
  }

  private async giveBack(r: Reservation): Promise<void> {
    for (const { key, n } of r.held) await this.db.query(REFUND_SQL, [key, n]);
  }
}

const g = globalThis as { __counterSignInThrottle?: WeakMap<object, SignInThrottle> };

/** The process's throttle over this database. */
export function signInThrottle(db: Pick<SqlRunner, 'query'>): SignInThrottle {
  const map = (g.__counterSignInThrottle ??= new WeakMap());
  let t = map.get(db);
  if (!t) map.set(db, (t = new SignInThrottle(db)));
  return t;
}

export const accountKey = (normalisedEmail: string) => `account|${normalisedEmail}`;
export const clientKeyOf = (address: string) => `client|${address}`;
