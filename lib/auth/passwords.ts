// Password hashing with scrypt (node:crypto, native). Stored as
// `scrypt$<log2 N>$<r>$<p>$<salt b64url>$<hash b64url>` so parameters can be raised later
// without invalidating existing hashes.
//
// Each scrypt call holds 128·N·r bytes (32 MiB at N=2^15, r=8) while it runs on libuv's thread
// pool. Unbounded, 16 concurrent sign-ins took the process from 263 to 391 MB of RSS; a small
// semaphore (SCRYPT_CONCURRENCY, default 2) queues the rest, so memory stays flat under a burst.
import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { isCommonPassword } from './common-passwords';
import { runtimeSettings } from '../config';

const LOG_N = 15;
const R = 8;
const P = 1;
const KEY_LEN = 32;
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;

/** A counting semaphore: at most `limit` holders at once, the others wait in FIFO order. */
export class Semaphore {
  private active = 0;
  private peak = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    this.peak = Math.max(this.peak, this.active);
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next)
        next(); // the slot passes straight to the next waiter
      else this.active--;
    }
  }

  /** Holders right now, and the most there have been at once. */
  stats(): { active: number; waiting: number; peak: number } {
    return { active: this.active, waiting: this.waiting.length, peak: this.peak };
  }
}

const g = globalThis as { __counterScryptSlots?: Semaphore };
/** The process-wide bound on concurrent scrypt computations. */
export function scryptSlots(): Semaphore {
  return (g.__counterScryptSlots ??= new Semaphore(runtimeSettings().scryptConcurrency));
}

function scrypt(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  return scryptSlots().run(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scryptCb(password.normalize('NFKC'), salt, KEY_LEN, { N: 2 ** logN, r, p, maxmem: 256 * 1024 * 1024 }, (err, key) =>
          err ? reject(err) : resolve(key),
        ),
      ),
  );
}

/** Why a password is unacceptable, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `password must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (isCommonPassword(password)) return 'password is one of the 10,000 most common passwords: choose another';
  return null;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, LOG_N, R, P);
  return ['scrypt', LOG_N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [logN, r, p] = parts.slice(1, 4).map(Number);
  if (![logN, r, p].every(Number.isInteger) || logN < 10 || logN > 20 || r < 1 || r > 32 || p < 1 || p > 16) return false;
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  const expected = Buffer.from(parts[5], 'base64url');
  const key = await scrypt(password, Buffer.from(parts[4], 'base64url'), logN, r, p);
  return key.length === expected.length && timingSafeEqual(key, expected);
}
