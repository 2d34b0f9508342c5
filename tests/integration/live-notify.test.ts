// The live path's notifications (docs/live.md, lib/live) on real databases, without the app:
// the payment trigger announces committed changes (not a rolled-back one, not a /pay claim; a
// refund also for the payment it refunds); the feed hub hands them to a watcher at once although
// its safety poll is 10 s away; on PostgreSQL a change made through one database handle (another
// process) reaches a hub on another, and a change made while the listening connection was
// killed is delivered when it reconnects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedDb, type Db } from '@/lib/db';
import { paymentChanges, FeedHub, paymentFeedSource, type FeedWatcher } from '@/lib/live';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';
import { until, sleep } from '../helpers/wait';
import { MAINNET } from '@/lib/doge';
import { createPayment as newPayment } from '@/lib/payments/creation/create-payment';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { DGUB } from '../helpers/keys';

async function setUp(db: Db): Promise<void> {
  await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: DGUB }, create: { id: 1, storeXpub: DGUB } });
  await activeRelayKey(db, 1);
}

/** A payment made as the vendor API makes it. */
async function createPayment(db: Db): Promise<string> {
  const r = await newPayment(
    { storeId: 1, db, network: MAINNET, publicUrl: 'http://127.0.0.1:1' },
    JSON.stringify({ items: [{ type: 'item', id: 'sku', name: 'Tea', count: 1, unit: '1' }] }),
  );
  return (r.body as { id: string }).id;
}

/** Every id announced on this handle, in order. */
function recordChanges(db: Db) {
  const ids: string[] = [];
  let resyncs = 0;
  paymentChanges(db).subscribe({ changed: (s) => ids.push(...s), resync: () => resyncs++ });
  return { ids, resyncs: () => resyncs };
}

function statusWatcher() {
  const statuses: string[] = [];
  const w: FeedWatcher<Record<string, unknown>> = {
    view: (v) => statuses.push(String(v.status)),
    checked: () => undefined,
    gone: () => statuses.push('gone'),
    failed: (e) => statuses.push(`failed: ${(e as Error).message}`),
  };
  return { statuses, w };
}

describe('payment notifications on PGlite (in-process)', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openMigratedDb({ memory: true });
    await setUp(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('announces committed inserts and updates, not a rolled-back one nor a /pay claim; a refund also for its payment', async () => {
    const rec = recordChanges(db);
    expect(
      await until(
        () => rec.resyncs() > 0,
        (x) => x,
        5_000,
        5,
      ),
    ).toBe(true); // listening
    const a = await createPayment(db);
    expect(
      await until(
        () => rec.ids.includes(a),
        (x) => x,
        2_000,
        2,
      ),
    ).toBe(true);

    rec.ids.length = 0;
    await db.query(`UPDATE payment SET broadcast_state = 'pending', txid = $2 WHERE id = $1`, [a, 'ab'.repeat(32)]);
    await expect(
      db.prisma.$transaction(async (t) => {
        await t.payment.update({ where: { id: a }, data: { status: 'declined' } });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await sleep(50);
    expect(rec.ids).toEqual([]);

    await db.query(`UPDATE payment SET status = 'accepted', broadcast_state = 'sent' WHERE id = $1`, [a]);
    expect(
      await until(
        () => rec.ids.includes(a),
        (x) => x,
        2_000,
        2,
      ),
    ).toBe(true);

    rec.ids.length = 0;
    const r = await createPayment(db);
    rec.ids.length = 0;
    await db.query(`UPDATE payment SET refund_of = $2, seq = -seq WHERE id = $1`, [r, a]);
    expect(
      await until(
        () => rec.ids.includes(r) && rec.ids.includes(a),
        (x) => x,
        2_000,
        2,
      ),
    ).toBe(true);
  });

  it('a watched payment reaches its watcher at once, though the safety poll is 10 s away', async () => {
    const id = await createPayment(db);
    const hub = new FeedHub(paymentFeedSource(db, 'http://localhost:3000'), { changes: paymentChanges(db), pollMs: 10_000 });
    const s = statusWatcher();
    const stop = hub.watch(id, s.w);
    expect(
      await until(
        () => s.statuses.length === 1,
        (x) => x,
        5_000,
        2,
      ),
    ).toBe(true);
    const rounds = hub.roundCount;
    const t = performance.now();
    await db.query(`UPDATE payment SET status = 'accepted', broadcast_state = 'sent', updated_at = now() WHERE id = $1`, [id]);
    expect(
      await until(
        () => s.statuses.length === 2,
        (x) => x,
        5_000,
        1,
      ),
    ).toBe(true);
    expect(s.statuses).toEqual(['unpaid', 'accepted']);
    expect(performance.now() - t).toBeLessThan(5_000); // half the safety poll: the notification, not the poll
    // Changes to payments nobody here watches cost this hub no round.
    await createPayment(db);
    await sleep(50);
    expect(hub.roundCount).toBe(rounds + 1);
    stop();
  });
});

describe('payment notifications on PostgreSQL (across processes)', () => {
  let pg: PgServer;
  let a: Db;
  let b: Db;
  beforeAll(async () => {
    pg = await startPostgres();
    const url = await createDatabase(pg, 'live_notify');
    a = await openMigratedDb({ databaseUrl: url, poolSize: 2 });
    b = await openMigratedDb({ databaseUrl: url, poolSize: 2 });
    await setUp(a);
  }, 120_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await pg?.stop();
  });

  it('a change committed through one handle reaches the hub of another; a change made while its LISTEN connection was down arrives on reconnect', async () => {
    const id = await createPayment(a);
    const hub = new FeedHub(paymentFeedSource(b, 'http://localhost:3000'), { changes: paymentChanges(b), pollMs: 60_000 });
    const rec = recordChanges(b);
    const s = statusWatcher();
    const stop = hub.watch(id, s.w);
    expect(
      await until(
        () => s.statuses.length === 1 && rec.resyncs() > 0,
        (x) => x,
        10_000,
        5,
      ),
    ).toBe(true);
    await a.query(`UPDATE payment SET status = 'accepted', broadcast_state = 'sent', updated_at = now() WHERE id = $1`, [id]);
    expect(
      await until(
        () => s.statuses.length === 2,
        (x) => x,
        2_000,
        1,
      ),
    ).toBe(true);
    expect(s.statuses).toEqual(['unpaid', 'accepted']);

    // Kill b's listening connection, change the payment while it is down: the reconnect's
    // re-read delivers it, long before the 60 s safety poll.
    const before = rec.resyncs();
    const killed = await a.query<{ n: number }>(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE query ILIKE 'LISTEN payment_changed%' AND pid <> pg_backend_pid()`,
    );
    expect(killed[0].n).toBe(1); // b's listener (nothing listens through a)
    await a.query(`UPDATE payment SET status = 'confirmed', confirmations = 1, updated_at = now() WHERE id = $1`, [id]);
    expect(
      await until(
        () => rec.resyncs() > before,
        (x) => x,
        10_000,
        10,
      ),
    ).toBe(true);
    expect(
      await until(
        () => s.statuses.length === 3,
        (x) => x,
        5_000,
        5,
      ),
    ).toBe(true);
    expect(s.statuses).toEqual(['unpaid', 'accepted', 'confirmed']);
    stop();
  }, 60_000);
});
