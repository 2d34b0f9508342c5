// Webhook delivery end to end on both databases: a local HTTP receiver that verifies the
// signature, retries driven by an injected clock (no sleeping), the attempt log, the 24 h
// window, redelivery, the unconfigured backlog, and concurrent workers claiming the same event.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { lookup } from 'node:dns/promises';
import { openMigratedDb, type Db } from '@/lib/db';
import { seedDataDir } from '../helpers/stores';
import { deliverDueEvents, redeliver, startWebhookLoop, type DeliverOptions } from '@/lib/webhooks/delivery';
import { WEBHOOK_RETRY_WINDOW_MS } from '@/lib/webhooks/backoff';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';
import { freePort } from '../helpers/ports';
import { startScriptedReceiver, type ScriptedReceiver } from '../helpers/webhook-receiver';

// The receiver listens on loopback, which webhooks refuse unless private addresses are allowed
// (lib/webhooks/address.ts); the SSRF test below turns it off per call. Set for this file only:
// integration files share their worker process (vitest.config.mts).
const allowPrivateBefore = process.env.WEBHOOK_ALLOW_PRIVATE;
beforeAll(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE = '1';
});
afterAll(() => {
  if (allowPrivateBefore === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE;
  else process.env.WEBHOOK_ALLOW_PRIVATE = allowPrivateBefore;
});

const SECRET = 'whsec_integration_Zk3q9';
const HOUR = 3_600_000;
const T0 = new Date('2026-11-23T12:00:00.000Z');

// ---------------------------------------------------------------------------------------------
// Fixtures

let pgServer: PgServer | undefined;
let dbCounter = 0;
const tmpDirs: string[] = [];

afterAll(async () => {
  await pgServer?.stop();
  for (const d of tmpDirs) rmSync(d, { recursive: true, force: true });
});

type Kind = 'pglite' | 'postgresql';
async function openFresh(kind: Kind): Promise<{ db: Db; url?: string }> {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'counter-webhook-'));
    tmpDirs.push(dataDir);
    await seedDataDir(dataDir);
    return { db: await openMigratedDb({ dataDir }) };
  }
  pgServer ??= await startPostgres();
  const url = await createDatabase(pgServer, `webhook_${process.pid}_${++dbCounter}`);
  return { db: await openMigratedDb({ databaseUrl: url }), url };
}

async function insertPayment(db: Db, id: string) {
  await db.prisma.payment.create({
    data: {
      id,
      total: 999_999_999_999_999_999n,
      address: 'nWebhookAddr',
      timeoutSec: 900,
      feePerKb: 1_000_000n,
      maxSize: 100_000,
      requiredConfirmations: 1,
      issuedAt: T0,
      expiresAt: new Date(T0.getTime() + 900_000),
      envelope: '{}',
      payloadHash: 'h',
      pubkey: 'pk',
      signature: 'sig',
      relayToken: 'tok',
    },
  });
}

function eventBody(id: string, type = 'payment.accepted') {
  // Hand-written, with non-ASCII and odd spacing: delivered verbatim, never re-serialised.
  return `{"id":"${id}", "type":"${type}","created_at":"2026-11-23T12:00:00.000Z","payment":{"id":"pay_wh","total":"999999999999999999","note":"Café ☕ Ð"}}`;
}

async function insertEvent(db: Db, id: string, createdAt: Date, nextAttemptAt = createdAt) {
  return db.prisma.vendorEvent.create({
    data: { id, type: 'payment.accepted', paymentId: 'pay_wh', body: eventBody(id), createdAt, nextAttemptAt },
  });
}

const event = (db: Db, seq: bigint) => db.prisma.vendorEvent.findUniqueOrThrow({ where: { seq } });
const attemptsOf = (db: Db, seq: bigint) => db.prisma.webhookAttempt.findMany({ where: { eventSeq: seq }, orderBy: { attempt: 'asc' } });

function recorder() {
  const lines: unknown[] = [];
  return {
    lines,
    log: { info: (m: string, f?: object) => void lines.push([m, f]), warn: (m: string, f?: object) => void lines.push([m, f]) },
  };
}

// ---------------------------------------------------------------------------------------------

describe.each(['pglite', 'postgresql'] as const)('webhook delivery on %s', (kind) => {
  let db: Db;
  let dbUrl: string | undefined; // PostgreSQL only
  let rx: ScriptedReceiver;
  let clock: Date;
  let logs: ReturnType<typeof recorder>;
  let opts: DeliverOptions;

  beforeAll(async () => {
    ({ db, url: dbUrl } = await openFresh(kind));
    rx = await startScriptedReceiver(SECRET);
    rx.nowSec = () => Math.floor(clock.getTime() / 1000);
    await db.prisma.store.create({ data: { webhookUrl: rx.url, webhookSecret: SECRET } });
    await insertPayment(db, 'pay_wh');
  }, 120_000);

  afterAll(async () => {
    await rx?.close();
    await db?.close();
  });

  beforeEach(async () => {
    await db.prisma.vendorEvent.deleteMany();
    await db.prisma.store.update({ where: { id: 1 }, data: { webhookUrl: rx.url, webhookSecret: SECRET } });
    rx.reset();
    clock = T0;
    logs = recorder();
    opts = { now: () => clock, random: () => 0.5, log: logs.log, timeoutMs: 2000 };
  });

  afterEach(() => {
    expect(JSON.stringify(logs.lines)).not.toContain(SECRET); // the secret is never logged
  });

  it('refuses loopback receivers, by address and by name after resolution, unless private addresses are allowed (SSRF)', async () => {
    const ev = await insertEvent(db, 'evt_ssrf', T0);
    const refused = { ...opts, allowPrivate: false };
    expect(await deliverDueEvents(db, refused)).toEqual({ attempted: 1, delivered: 0 });
    expect(rx.received).toHaveLength(0);
    let log = await attemptsOf(db, ev.seq);
    expect(log[0]).toMatchObject({ attempt: 1, statusCode: null });
    expect(log[0].error).toMatch(/webhook host 127\.0\.0\.1 is a loopback, private, link-local or metadata address/);
    expect((await event(db, ev.seq)).deliveryState).toBe('pending'); // a failed attempt, retried later

    // A name is judged by what it resolves to (this machine's own name resolves to loopback here).
    const name = hostname();
    const resolved = await lookup(name).catch(() => null);
    if (resolved && /^(127\.|::1$)/.test(resolved.address)) {
      await db.prisma.store.update({ where: { id: 1 }, data: { webhookUrl: `http://${name}:${rx.port}/hooks/counter` } });
      await redeliver(db, ev.seq, clock);
      expect(await deliverDueEvents(db, refused)).toEqual({ attempted: 1, delivered: 0 });
      log = await attemptsOf(db, ev.seq);
      expect(log.at(-1)!.error).toMatch(new RegExp(`webhook host ${name} resolves to ${resolved.address.replace(/\./g, '\\.')}`));
      expect(rx.received).toHaveLength(0);
    }

    // WEBHOOK_ALLOW_PRIVATE=1 (here the option) lets it through.
    await redeliver(db, ev.seq, clock);
    expect(await deliverDueEvents(db, { ...opts, allowPrivate: true })).toEqual({ attempted: 1, delivered: 1 });
    expect(rx.received).toHaveLength(1);
  });

  it('retries a 500 and a 302 (not followed) with backoff and delivers on the third attempt', async () => {
    const ev = await insertEvent(db, 'evt_retry', T0);
    rx.plan.push(
      { status: 500, body: 'database   on\nfire' },
      { status: 302, headers: { Location: `http://127.0.0.1:${rx.port}/elsewhere` }, body: 'moved' },
      { status: 204 },
    );

    expect(await deliverDueEvents(db, opts)).toEqual({ attempted: 1, delivered: 0 });
    let row = await event(db, ev.seq);
    expect(row).toMatchObject({ deliveryState: 'pending', attempts: 1, deliveredAt: null });
    expect(row.nextAttemptAt.getTime()).toBe(T0.getTime() + 20_000); // attempt 1: 10-30 s, random 0.5

    expect(await deliverDueEvents(db, opts)).toEqual({ attempted: 0, delivered: 0 }); // not due yet
    clock = new Date(T0.getTime() + 19_999);
    expect(await deliverDueEvents(db, opts)).toEqual({ attempted: 0, delivered: 0 });

    clock = row.nextAttemptAt;
    expect(await deliverDueEvents(db, opts)).toEqual({ attempted: 1, delivered: 0 });
    row = await event(db, ev.seq);
    expect(row).toMatchObject({ deliveryState: 'pending', attempts: 2 });
    expect(row.nextAttemptAt.getTime()).toBe(clock.getTime() + 40_000); // attempt 2: doubled

    clock = row.nextAttemptAt;
    expect(await deliverDueEvents(db, opts)).toEqual({ attempted: 1, delivered: 1 });
    row = await event(db, ev.seq);
    expect(row).toMatchObject({ deliveryState: 'delivered', attempts: 3 });
    expect(row.deliveredAt?.getTime()).toBe(clock.getTime());

    const log = await attemptsOf(db, ev.seq);
    expect(log.map((a) => [a.attempt, a.statusCode, a.url])).toEqual([
      [1, 500, rx.url],
      [2, 302, rx.url],
      [3, 204, rx.url],
    ]);
    expect(log[0].error).toBe('HTTP 500 Internal Server Error: database on fire');
    expect(log[1].error).toContain(`HTTP 302 redirect to http://127.0.0.1:${rx.port}/elsewhere not followed`);
    expect(log[2].error).toBe('');
    for (const a of log) expect(a.durationMs).toBeGreaterThanOrEqual(0);

    // The receiver: three POSTs to the configured path, none to the redirect target, each
    // carrying the exact body, the event id and a valid signature made at the attempt's time.
    expect(rx.received.map((r) => r.path)).toEqual(['/hooks/counter', '/hooks/counter', '/hooks/counter']);
    const t1 = Math.floor(T0.getTime() / 1000);
    expect(rx.received.map((r) => r.signedAt)).toEqual([t1, t1 + 20, t1 + 60]);
    for (const r of rx.received) {
      expect(r.verified).toBe(true);
      expect(r.body).toBe(eventBody('evt_retry'));
      expect(r.headers['x-counter-event-id']).toBe('evt_retry');
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toBe('Counter-Webhooks/1');
    }

    clock = new Date(clock.getTime() + HOUR);
    expect(await deliverDueEvents(db, opts)).toEqual({ attempted: 0, delivered: 0 }); // delivered is final
    expect(rx.received).toHaveLength(3);
  });

  it('records timeouts and refused connections with a null status code', async () => {
    const ev = await insertEvent(db, 'evt_net', T0);
    rx.plan.push('hang');
    expect(await deliverDueEvents(db, { ...opts, timeoutMs: 300 })).toEqual({ attempted: 1, delivered: 0 });

    const closedPort = await freePort();
    await db.prisma.store.update({ where: { id: 1 }, data: { webhookUrl: `http://127.0.0.1:${closedPort}/x` } });
    clock = (await event(db, ev.seq)).nextAttemptAt;
    expect(await deliverDueEvents(db, opts)).toEqual({ attempted: 1, delivered: 0 });

    const log = await attemptsOf(db, ev.seq);
    expect(log.map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, null],
      [2, null],
    ]);
    expect(log[0].error).toBe('timed out after 300 ms');
    expect(log[0].durationMs).toBeGreaterThanOrEqual(250);
    expect(log[1].error).toMatch(/ECONNREFUSED/);
    expect(log[1].url).toBe(`http://127.0.0.1:${closedPort}/x`);
    expect(await event(db, ev.seq)).toMatchObject({ deliveryState: 'pending', attempts: 2 });
  });

  it('gives up on an event whose next attempt would fall beyond 24 h after its creation', async () => {
    const old = await insertEvent(db, 'evt_old', new Date(T0.getTime() - 25 * HOUR), T0);
    const edge = await insertEvent(db, 'evt_edge', new Date(T0.getTime() - WEBHOOK_RETRY_WINDOW_MS + 15_000), T0);
    const young = await insertEvent(db, 'evt_young', new Date(T0.getTime() - HOUR), T0);
    rx.plan.push({ status: 500 }, { status: 503 }, { status: 400 });
    opts.concurrency = 1; // deterministic arrival order at the receiver

    expect(await deliverDueEvents(db, opts)).toEqual({ attempted: 3, delivered: 0 });
    expect(await event(db, old.seq)).toMatchObject({ deliveryState: 'failed', attempts: 1, deliveredAt: null });
    expect(await event(db, edge.seq)).toMatchObject({ deliveryState: 'failed', attempts: 1 }); // 20 s > 15 s left
    expect(await event(db, young.seq)).toMatchObject({ deliveryState: 'pending', attempts: 1 });
    expect((await attemptsOf(db, old.seq)).map((a) => a.statusCode)).toHaveLength(1);
    expect(logs.lines.some((l) => (l as [string])[0].includes('giving up'))).toBe(true);

    clock = new Date(T0.getTime() + 2 * HOUR);
    expect(await deliverDueEvents(db, opts)).toEqual({ attempted: 1, delivered: 1 }); // only the young one
    expect(rx.received.map((r) => r.headers['x-counter-event-id'])).toEqual(['evt_old', 'evt_edge', 'evt_young', 'evt_young']);
  });

  it('redeliver() sends a delivered event again, continuing the attempt counter', async () => {
    const ev = await insertEvent(db, 'evt_again', T0);
    expect(await deliverDueEvents(db, opts)).toEqual({ attempted: 1, delivered: 1 });
    expect(await event(db, ev.seq)).toMatchObject({ deliveryState: 'delivered', attempts: 1 });

    clock = new Date(T0.getTime() + 3 * HOUR);
    expect(await redeliver(db, ev.seq, clock)).toBe(true);
    expect(await event(db, ev.seq)).toMatchObject({ deliveryState: 'pending', attempts: 1, deliveredAt: null, nextAttemptAt: clock });
    expect(await deliverDueEvents(db, opts)).toEqual({ attempted: 1, delivered: 1 });
    const row = await event(db, ev.seq);
    expect(row).toMatchObject({ deliveryState: 'delivered', attempts: 2 });
    expect(row.deliveredAt?.getTime()).toBe(clock.getTime());
    expect((await attemptsOf(db, ev.seq)).map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 200],
      [2, 200],
    ]);
    expect(rx.received).toHaveLength(2);
    expect(rx.received.every((r) => r.verified && r.body === eventBody('evt_again'))).toBe(true);

    expect(await redeliver(db, 987_654_321n, clock)).toBe(false);
  });

  it('redeliver() gives a failed event (past its window) one more attempt', async () => {
    const ev = await insertEvent(db, 'evt_failed', new Date(T0.getTime() - 30 * HOUR), T0);
    rx.plan.push({ status: 500 }, { status: 500 });
    await deliverDueEvents(db, opts);
    expect(await event(db, ev.seq)).toMatchObject({ deliveryState: 'failed', attempts: 1 });
    await redeliver(db, ev.seq, clock);
    expect(await deliverDueEvents(db, opts)).toEqual({ attempted: 1, delivered: 0 });
    expect(await event(db, ev.seq)).toMatchObject({ deliveryState: 'failed', attempts: 2 });
    await redeliver(db, ev.seq, clock);
    expect(await deliverDueEvents(db, opts)).toEqual({ attempted: 1, delivered: 1 });
    expect(await event(db, ev.seq)).toMatchObject({ deliveryState: 'delivered', attempts: 3 });
  });

  it('leaves events pending while no URL or secret is configured, then delivers the backlog', async () => {
    await db.prisma.store.update({ where: { id: 1 }, data: { webhookUrl: '' } });
    const a = await insertEvent(db, 'evt_backlog_a', T0);
    const b = await insertEvent(db, 'evt_backlog_b', T0);
    expect(await deliverDueEvents(db, opts)).toEqual({ attempted: 0, delivered: 0, unconfigured: 'no_url' });
    await db.prisma.store.update({ where: { id: 1 }, data: { webhookUrl: rx.url, webhookSecret: '' } });
    expect(await deliverDueEvents(db, opts)).toEqual({ attempted: 0, delivered: 0, unconfigured: 'no_secret' });
    expect(rx.received).toHaveLength(0);
    expect(await db.prisma.webhookAttempt.count()).toBe(0);
    expect(await event(db, a.seq)).toMatchObject({ deliveryState: 'pending', attempts: 0 });

    await db.prisma.store.update({ where: { id: 1 }, data: { webhookSecret: SECRET } });
    clock = new Date(T0.getTime() + 5 * HOUR);
    expect(await deliverDueEvents(db, opts)).toEqual({ attempted: 2, delivered: 2 });
    expect(rx.received.map((r) => r.headers['x-counter-event-id'])).toEqual(['evt_backlog_a', 'evt_backlog_b']);
    expect(await event(db, b.seq)).toMatchObject({ deliveryState: 'delivered' });
  });

  it('takes due events oldest first, at most `limit` per call', async () => {
    for (let i = 0; i < 5; i++) await insertEvent(db, `evt_order_${i}`, T0);
    expect(await deliverDueEvents(db, { ...opts, limit: 3, concurrency: 1 })).toEqual({ attempted: 3, delivered: 3 });
    expect(await deliverDueEvents(db, { ...opts, limit: 3, concurrency: 1 })).toEqual({ attempted: 2, delivered: 2 });
    expect(rx.received.map((r) => r.headers['x-counter-event-id'])).toEqual([0, 1, 2, 3, 4].map((i) => `evt_order_${i}`));
  });

  it('two concurrent deliverDueEvents calls on the same due event make exactly one attempt', async () => {
    // On PostgreSQL the two calls use separate connection pools, like two processes.
    const other = dbUrl ? await openMigratedDb({ databaseUrl: dbUrl }) : db;
    try {
      for (let round = 0; round < 5; round++) {
        const ev = await insertEvent(db, `evt_race_${round}`, T0);
        rx.plan.push({ status: 200, delayMs: 100 });
        const results = await Promise.all([deliverDueEvents(db, opts), deliverDueEvents(other, opts)]);
        expect(results.reduce((n, r) => n + r.attempted, 0)).toBe(1);
        expect(results.reduce((n, r) => n + r.delivered, 0)).toBe(1);
        expect(await db.prisma.webhookAttempt.count({ where: { eventSeq: ev.seq } })).toBe(1);
        expect(await event(db, ev.seq)).toMatchObject({ deliveryState: 'delivered', attempts: 1 });
      }
      expect(rx.received.map((r) => r.headers['x-counter-event-id'])).toEqual([0, 1, 2, 3, 4].map((i) => `evt_race_${i}`));

      // A backlog worked by four racing workers: every event exactly once.
      rx.reset();
      for (let i = 0; i < 24; i++) await insertEvent(db, `evt_bulk_${i}`, T0);
      const results = await Promise.all([db, other, db, other].map((d) => deliverDueEvents(d, { ...opts, limit: 50 })));
      expect(results.reduce((n, r) => n + r.attempted, 0)).toBe(24);
      const ids = rx.received.map((r) => String(r.headers['x-counter-event-id'])).sort();
      expect(ids).toEqual([...new Set(ids)]);
      expect(ids).toHaveLength(24);
      expect(await db.prisma.webhookAttempt.count({ where: { event: { id: { startsWith: 'evt_bulk_' } } } })).toBe(24);
    } finally {
      if (other !== db) await other.close();
    }
  });

  it('startWebhookLoop delivers on the real clock and stops', async () => {
    const ev = await db.prisma.vendorEvent.create({
      data: { id: 'evt_loop', type: 'payment.confirmed', paymentId: 'pay_wh', body: eventBody('evt_loop', 'payment.confirmed') },
    });
    rx.nowSec = () => Math.floor(Date.now() / 1000);
    try {
      const loop = startWebhookLoop(db, { intervalMs: 20, log: logs.log });
      const end = Date.now() + 10_000;
      while ((await event(db, ev.seq)).deliveryState !== 'delivered' && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      await loop.stop();
      expect(await event(db, ev.seq)).toMatchObject({ deliveryState: 'delivered', attempts: 1 });
      expect(rx.received).toHaveLength(1);
      expect(rx.received[0].verified).toBe(true);
    } finally {
      rx.nowSec = () => Math.floor(clock.getTime() / 1000);
    }
  });
});
