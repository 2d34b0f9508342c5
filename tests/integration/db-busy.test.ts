// A busy database is a 503 with Retry-After, never a 500 (lib/api/error-table.ts). On PGlite one
// long transaction (a large block's chain write) holds the only connection, and a route's own
// transaction cannot start within Prisma's wait (P2028); on PostgreSQL the same happens when
// every pooled connection is taken (a burst of payments on a loaded machine did it). The request
// changed nothing, so the client may simply send it again. Real PGlite and the real Prisma
// error, through the routes' wrapper, for the vendor API and the relay alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { handle, json } from '@/lib/api';
import { openTestDb } from '../helpers/stores';

let db: Db;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => db?.close());

/** Runs `fn` while another transaction holds the database, then lets it go. */
async function whileHeld<T>(fn: () => Promise<T>): Promise<T> {
  let release!: () => void;
  let started!: () => void;
  const holding = new Promise<void>((r) => (started = r));
  const held = db.prisma.$transaction(
    async () => {
      started();
      await new Promise<void>((r) => (release = r));
    },
    { timeout: 30_000 },
  );
  await holding;
  try {
    return await fn();
  } finally {
    release();
    await held;
  }
}

const countInTx = () => db.prisma.$transaction(async (tx) => json({ stores: await tx.store.count() }));

describe('a busy database', () => {
  it('the vendor API: a bodiless 503 with Retry-After, and the same request succeeds once it is free', async () => {
    const busy = await whileHeld(() => handle(countInTx));
    expect([busy.status, busy.headers.get('retry-after'), await busy.text()]).toEqual([503, '1', '']);
    expect((await handle(countInTx)).status).toBe(200);
  }, 30_000);

  it('the relay: a bodiless 503 with Retry-After', async () => {
    const busy = await whileHeld(() => handle(countInTx, { relay: true }));
    expect([busy.status, busy.headers.get('retry-after'), await busy.text()]).toEqual([503, '1', '']);
  }, 30_000);
});
