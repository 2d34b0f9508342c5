// Processes that start at once on one new PostgreSQL database (a web process and its worker, or
// a worker pair, docs/operations.md) each seed the first store, its relay key and the bootstrap
// API key: every one starts, and there is one of each. An upsert's read-then-insert once failed
// the second process on store_pkey.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedDb, type Db } from '@/lib/db';
import { FIRST_STORE_ID, seedFirstStore } from '@/lib/stores';
import { activeRelayKey } from '@/lib/payments';
import { ensureBootstrapKey } from '@/lib/auth';
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
});
