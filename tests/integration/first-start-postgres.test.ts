// Processes that start at once on one new PostgreSQL database (a web process and its worker, or
// a worker pair, docs/operations.md) each seed the first store, its relay key and the bootstrap
// API key: every one starts, and there is one of each. An upsert's read-then-insert once failed
// the second process on store_pkey. With no account yet, one of them logs the setup code and the
// others point to it: each used to log a code of its own, and only the last one written worked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedDb, type Db } from '@/lib/db';
import { FIRST_STORE_ID, seedFirstStore } from '@/lib/stores';
import { activeRelayKey } from '@/lib/payments';
import { completeSetup, ensureBootstrapKey, issueSetupCode, SETUP_CODE_SHARED_MS } from '@/lib/auth';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';
import { testXpub } from '../helpers/keys';

const BOOTSTRAP = 'first-start-bootstrap-key-0123456789';
let pg: PgServer;
beforeAll(async () => {
  pg = await startPostgres();
}, 180_000);
afterAll(async () => {
  await pg?.stop();
});

describe('the first start, from three processes at once', () => {
  it('seeds one store, one relay key and one bootstrap key, and no process fails', async () => {
    const xpub = testXpub(63);
    for (let round = 0; round < 4; round++) {
      const url = await createDatabase(pg, `first_start_${round}`);
      const first = await openMigratedDb({ databaseUrl: url, poolSize: 2 });
      const dbs: Db[] = [
        first,
        await openMigratedDb({ databaseUrl: url, poolSize: 2 }),
        await openMigratedDb({ databaseUrl: url, poolSize: 2 }),
      ];
      try {
        const starts = await Promise.allSettled(
          dbs.map(async (db) => {
            await seedFirstStore(db, { storeXpub: xpub });
            const key = (await activeRelayKey(db, FIRST_STORE_ID)).pubkey;
            expect(await ensureBootstrapKey(db, BOOTSTRAP)).toBe('active');
            return key;
          }),
        );
        expect(starts.map((s) => (s.status === 'rejected' ? String(s.reason).slice(0, 200) : 'started'))).toEqual([
          'started',
          'started',
          'started',
        ]);
        const keys = new Set(starts.map((s) => (s.status === 'fulfilled' ? s.value : '')));
        expect(keys.size).toBe(1);
        expect(await first.prisma.apiKey.count()).toBe(1);
        const stores = await first.prisma.store.findMany({ select: { id: true, storeXpub: true } });
        expect(stores).toEqual([{ id: FIRST_STORE_ID, storeXpub: xpub }]);
        // The next store drawn is not given the first store's id again.
        const next = await first.prisma.store.create({ data: { name: 'second' }, select: { id: true } });
        expect(next.id).toBeGreaterThan(FIRST_STORE_ID);
      } finally {
        for (const db of dbs) await db.close();
      }
    }
  }, 120_000);

  it('one of them issues the setup code, the others point to it, and that code sets up the owner', async () => {
    for (let round = 0; round < 3; round++) {
      const url = await createDatabase(pg, `first_code_${round}`);
      const dbs: Db[] = [];
      for (let i = 0; i < 3; i++) dbs.push(await openMigratedDb({ databaseUrl: url, poolSize: 2 }));
      try {
        await Promise.all(dbs.map((db) => seedFirstStore(db, {})));
        const now = new Date();
        const issued = await Promise.all(dbs.map((db) => issueSetupCode(db, now)));
        const codes = issued.flatMap((x) => (x && 'code' in x ? [x.code] : []));
        expect(codes).toHaveLength(1);
        for (const x of issued) if (x && 'issuedAt' in x) expect(x.issuedAt.getTime()).toBe(now.getTime());
        await completeSetup(dbs[2], { code: codes[0], email: `owner${round}@first.test`, password: 'a long first password' });
        expect(await issueSetupCode(dbs[1])).toBeNull();
      } finally {
        for (const db of dbs) await db.close();
      }
    }
  }, 120_000);

  it('a start within a minute of the last leaves its code valid; a later start replaces it', async () => {
    const db = await openMigratedDb({ databaseUrl: await createDatabase(pg, 'first_code_restart'), poolSize: 2 });
    try {
      await seedFirstStore(db, {});
      const t0 = new Date();
      const first = await issueSetupCode(db, t0);
      expect(first).toMatchObject({ code: expect.any(String) });
      expect(await issueSetupCode(db, new Date(t0.getTime() + SETUP_CODE_SHARED_MS - 1))).toEqual({ issuedAt: t0 });
      const later = await issueSetupCode(db, new Date(t0.getTime() + SETUP_CODE_SHARED_MS));
      expect(later).toMatchObject({ code: expect.any(String) });
      const stale = (first as { code: string }).code;
      await expect(completeSetup(db, { code: stale, email: 'late@first.test', password: 'a long first password' })).rejects.toThrow(
        /wrong/,
      );
      await completeSetup(db, { code: (later as { code: string }).code, email: 'late@first.test', password: 'a long first password' });
    } finally {
      await db.close();
    }
  }, 60_000);
});
