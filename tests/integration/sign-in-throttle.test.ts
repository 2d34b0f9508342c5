// The sign-in throttle's database state (lib/auth/sign-in-throttle.ts, docs/security.md): an
// attempt is counted by one conditional write before anything is checked, so a burst of
// simultaneous attempts gets at most FREE_FAILURES through, on PGlite and on PostgreSQL with
// several pools (as several app processes would be); failures lock for a doubling time, a
// success clears the account and gives the client's attempt back, quiet rows are pruned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db';
import { openMigratedDb } from '@/lib/db';
import { SignInThrottle, FREE_FAILURES, FORGET_AFTER_MS, PENDING_MS, lockMs } from '@/lib/auth/sign-in-throttle';
import { openTestDb } from '../helpers/stores';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';

const rowOf = async (db: Db, key: string) =>
  (
    await db.query<{ attempts: number; locked_until: Date | null }>(`SELECT attempts, locked_until FROM sign_in_throttle WHERE key = $1`, [
      key,
    ])
  )[0];

describe('lock semantics (PGlite, a fake clock)', () => {
  let db: Db;
  let now = Date.parse('2026-11-29T10:00:00Z');
  let t: SignInThrottle;
  beforeAll(async () => {
    db = await openTestDb();
    t = new SignInThrottle(db, () => new Date(now));
  }, 120_000);
  afterAll(async () => db?.close());

  /** One attempt that fails its check; returns the 429's Retry-After or 0. */
  async function fail(keys: string[]): Promise<number> {
    const r = await t.reserve(keys);
    if (!r.ok) return r.retryAfter;
    await t.failed(r.reservation);
    return 0;
  }

  it('5 free attempts, then a lock that doubles; the 6th is refused before any check', async () => {
    const keys = ['client|1.2.3.4', 'account|a@b.c'];
    for (let i = 1; i <= FREE_FAILURES; i++) expect(await fail(keys)).toBe(0);
    expect(await fail(keys)).toBe(1);
    expect(await fail(['account|a@b.c'])).toBe(1);
    expect(await fail(['client|1.2.3.4', 'account|other'])).toBe(1);
    // The client is reserved first: a locked client leaves no row for the account it tried.
    expect(await rowOf(db, 'account|other')).toBeUndefined();
    // A key that was free when another of the request's keys was locked gets its attempt back.
    expect(await fail(['client|free', 'account|a@b.c'])).toBe(1);
    expect((await rowOf(db, 'client|free')).attempts).toBe(0);
    now += 1000;
    expect(await fail(keys)).toBe(0); // the 6th failure
    expect(await fail(keys)).toBe(2);
    now += 2000;
    expect(await fail(keys)).toBe(0);
    expect(await fail(keys)).toBe(4);
    expect(lockMs(FREE_FAILURES + 30)).toBe(15 * 60 * 1000);
  });

  it('a success forgets the account and gives the client its attempt back', async () => {
    const keys = ['client|5.6.7.8', 'account|c@d.e'];
    for (let i = 1; i < FREE_FAILURES; i++) expect(await fail(keys)).toBe(0);
    const right = await t.reserve(keys); // the 5th: it holds both keys while it is checked
    expect(right.ok).toBe(true);
    expect(await t.reserve(keys)).toEqual({ ok: false, retryAfter: 1 });
    if (right.ok) await t.succeeded(right.reservation, ['account|c@d.e']);
    expect(await rowOf(db, 'account|c@d.e')).toBeUndefined();
    expect(await rowOf(db, 'client|5.6.7.8')).toEqual({ attempts: FREE_FAILURES - 1, locked_until: null });
  });

  it('a check that never answers (the process died) holds its key for PENDING_MS at most', async () => {
    const keys = ['terminal|t1'];
    for (let i = 1; i < FREE_FAILURES; i++) expect(await fail(keys)).toBe(0);
    expect((await t.reserve(keys)).ok).toBe(true); // never settled
    expect((await t.reserve(keys)).ok).toBe(false);
    now += PENDING_MS;
    expect((await t.reserve(keys)).ok).toBe(true);
  });

  it('forgets a key after an hour without attempts, and prunes its row', async () => {
    const keys = ['pin-user|u1'];
    for (let i = 1; i <= FREE_FAILURES; i++) expect(await fail(keys)).toBe(0);
    now += FORGET_AFTER_MS + 1;
    expect(await fail(keys)).toBe(0);
    expect((await rowOf(db, 'pin-user|u1')).attempts).toBe(1);
    now += FORGET_AFTER_MS + 1;
    await t.prune();
    expect(await rowOf(db, 'pin-user|u1')).toBeUndefined();
    expect(await rowOf(db, 'client|1.2.3.4')).toBeUndefined();
  });

  it('40 simultaneous attempts: 5 reserved, 35 refused', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, () => t.reserve(['terminal|burst', 'pin-user|burst'])));
    expect(results.filter((r) => r.ok)).toHaveLength(FREE_FAILURES);
  });
});

describe('simultaneous attempts on PostgreSQL, through four pools', () => {
  let pg: PgServer;
  const dbs: Db[] = [];
  beforeAll(async () => {
    pg = await startPostgres();
    const url = await createDatabase(pg, 'throttle');
    for (let i = 0; i < 4; i++) dbs.push(await openMigratedDb({ databaseUrl: url, poolSize: 10 }));
  }, 180_000);
  afterAll(async () => {
    for (const d of dbs) await d.close();
    await pg?.stop();
  });

  it('80 attempts at once on one key pair: exactly 5 go through', async () => {
    const throttles = dbs.map((d) => new SignInThrottle(d));
    const results = await Promise.all(Array.from({ length: 80 }, (_, i) => throttles[i % 4].reserve(['client|9.9.9.9', 'account|x@y.z'])));
    expect(results.filter((r) => r.ok)).toHaveLength(FREE_FAILURES);
    for (const r of results) if (!r.ok) expect(r.retryAfter).toBeGreaterThanOrEqual(1);
    expect((await rowOf(dbs[0], 'account|x@y.z')).attempts).toBe(FREE_FAILURES);
  });
});
