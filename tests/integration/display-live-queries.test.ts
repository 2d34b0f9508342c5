// The customer's display adds no database poll per display (docs/counter.md#the-customers-display,
// docs/live.md), on real databases without the app: the same scenario (a till publishes five
// carts, charges, the payment is paid) is run with 1 and with 20 open display streams, and
// the statements the displays' side sends (the display hub's reads and the payment feed hub's
// reads, through a counting database handle) are counted. They do not grow with the number of
// displays, and 20 idle displays send none. On PostgreSQL the till's writes go through another
// database handle (another process): the displays learn of them by LISTEN/NOTIFY.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedDb, type Db } from '@/lib/db';
import { MAINNET } from '@/lib/doge';
import { createPayment as newPayment } from '@/lib/payments/creation/create-payment';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { createTerminal } from '@/lib/auth';
import { createPairingCode, redeemPairingCode, type PairedDisplay } from '@/lib/display/pairing';
import { publishCart } from '@/lib/display/cart';
import type { DisplayCart, DisplayState } from '@/lib/display/view';
import { displayEventStream } from '@/lib/live';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';
import { until, sleep } from '../helpers/wait';
import { DGUB } from '../helpers/keys';

const PUBLIC_URL = 'http://127.0.0.1:1';

/** A handle that records every statement sent through it (ORM operations and raw queries) while `on`. */
function countingDb(inner: Db) {
  const counter = { on: false, statements: [] as string[] };
  const prisma = inner.prisma.$extends({
    query: {
      $allModels: {
        async $allOperations({ model, operation, args, query }) {
          if (counter.on) counter.statements.push(`${model}.${operation}`);
          return query(args);
        },
      },
    },
  }) as unknown as Db['prisma'];
  const db: Db = {
    ...inner,
    prisma,
    query: (async (sql: string, params?: unknown[]) => {
      if (counter.on) counter.statements.push(sql);
      return inner.query(sql, params);
    }) as Db['query'],
  };
  return { db, counter };
}

/** One open display stream, its `display` events parsed as they arrive. */
function openDisplay(db: Db, display: PairedDisplay) {
  const ac = new AbortController();
  const states: DisplayState[] = [];
  const events: string[] = [];
  const reader = displayEventStream({ db, publicUrl: PUBLIC_URL, display, signal: ac.signal }).getReader();
  void (async () => {
    const dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const m = /^event: (\w+)\ndata: (.*)$/m.exec(block);
        if (!m) continue;
        events.push(m[1]);
        if (m[1] === 'display') states.push(JSON.parse(m[2]));
      }
    }
  })();
  return { states, events, last: () => states[states.length - 1], close: () => ac.abort() };
}

const cart = (n: number, paymentId: string | null = null): DisplayCart => ({
  currency: 'DOGE',
  lines: [{ name: 'Tea', count: n, total: String(150_000_000n * BigInt(n)) }],
  adjustments: [],
  total: String(150_000_000n * BigInt(n)),
  payment_id: paymentId,
});

async function setUp(db: Db): Promise<string> {
  await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: DGUB }, create: { id: 1, storeXpub: DGUB } });
  await activeRelayKey(db, 1);
  return (await createTerminal(db, 1, 'Front counter', null)).id;
}

async function pairDisplays(db: Db, terminalId: string, n: number): Promise<PairedDisplay[]> {
  const out: PairedDisplay[] = [];
  for (let i = 0; i < n; i++) {
    const { code } = await createPairingCode(db, 1, terminalId);
    out.push((await redeemPairingCode(db, code, null))!.display);
  }
  return out;
}

/**
 * Opens a display stream for each of `displays` (reading through `reader`), then counts the
 * statements of the scenario: five carts, a charge, the payment confirmed; and of 1.5 s idle.
 */
async function scenario(reader: ReturnType<typeof countingDb>, writer: Db, terminalId: string, displays: PairedDisplay[]) {
  const open = displays.map((d) => openDisplay(reader.db, d));
  const all = (ok: (s: DisplayState | undefined) => boolean) =>
    until(
      () => open.every((o) => ok(o.last())),
      (x) => x,
      10_000,
      5,
    );
  try {
    expect(await all((s) => s !== undefined)).toBe(true);
    await sleep(50);
    reader.counter.statements = [];
    reader.counter.on = true;
    const t0 = performance.now();
    for (let n = 1; n <= 5; n++) {
      await publishCart(writer, { id: terminalId, storeId: 1 }, cart(n));
      expect(await all((s) => s?.cart?.lines[0]?.count === n)).toBe(true);
    }
    const cartMs = performance.now() - t0;
    const r = await newPayment(
      { storeId: 1, db: writer, network: MAINNET, publicUrl: PUBLIC_URL, terminal: { id: terminalId, name: 'Front counter' } },
      JSON.stringify({ items: [{ type: 'item', id: 'tea', name: 'Tea', count: 5, unit: '1.5' }] }),
    );
    const id = (r.body as { id: string }).id;
    await publishCart(writer, { id: terminalId, storeId: 1 }, cart(5, id));
    expect(await all((s) => s?.payment?.id === id && s.payment.live.status === 'unpaid')).toBe(true);
    await writer.query(
      `UPDATE payment SET status = 'confirmed', confirmations = 1, broadcast_state = 'sent', updated_at = now() WHERE id = $1`,
      [id],
    );
    expect(await all((s) => s?.payment?.live.status === 'confirmed')).toBe(true);
    const busy = reader.counter.statements.length;
    reader.counter.statements = [];
    await sleep(1500);
    const idle = reader.counter.statements.length;
    reader.counter.on = false;
    return { busy, idle, cartMs, seen: open.map((o) => o.states.length) };
  } finally {
    for (const o of open) o.close();
    reader.counter.on = false;
  }
}

describe('20 customer displays cost no more queries than 1 (PGlite, in-process notifications)', () => {
  let inner: Db;
  let terminalId: string;
  beforeAll(async () => {
    inner = await openMigratedDb({ memory: true });
    terminalId = await setUp(inner);
  });
  afterAll(async () => inner?.close());

  it('counts the statements of the same scenario with 1 and with 20 displays open', async () => {
    const displays = await pairDisplays(inner, terminalId, 20);
    const one = await scenario(countingDb(inner), inner, terminalId, displays.slice(0, 1));
    const twenty = await scenario(countingDb(inner), inner, terminalId, displays);
    console.log(
      `display statements: 1 display ${one.busy} (idle ${one.idle}), 20 displays ${twenty.busy} (idle ${twenty.idle}); five carts reached 20 displays in ${twenty.cartMs.toFixed(0)} ms`,
    );
    // Per change: one display-hub read (carts), the payment hub's probe and view; never one per display.
    expect(one.busy).toBeGreaterThan(0);
    expect(one.busy).toBeLessThanOrEqual(14);
    expect(twenty.busy).toBeLessThanOrEqual(one.busy + 1);
    expect(twenty.idle).toBe(0);
    expect(twenty.cartMs).toBeLessThan(5 * 1000);
  }, 60_000);
});

describe('20 customer displays on PostgreSQL: the till writes through another process', () => {
  let pg: PgServer;
  let till: Db;
  let web: Db;
  let terminalId: string;
  beforeAll(async () => {
    pg = await startPostgres();
    const url = await createDatabase(pg, 'display_live');
    till = await openMigratedDb({ databaseUrl: url, poolSize: 2 });
    web = await openMigratedDb({ databaseUrl: url, poolSize: 4 });
    terminalId = await setUp(till);
  }, 120_000);
  afterAll(async () => {
    await till?.close();
    await web?.close();
    await pg?.stop();
  });

  it('counts the statements of the same scenario with 1 and with 20 displays open', async () => {
    const displays = await pairDisplays(till, terminalId, 20);
    const one = await scenario(countingDb(web), till, terminalId, displays.slice(0, 1));
    const twenty = await scenario(countingDb(web), till, terminalId, displays);
    console.log(
      `display statements (PostgreSQL): 1 display ${one.busy} (idle ${one.idle}), 20 displays ${twenty.busy} (idle ${twenty.idle})`,
    );
    expect(one.busy).toBeGreaterThan(0);
    expect(twenty.busy).toBeLessThanOrEqual(one.busy + 1);
    expect(twenty.idle).toBe(0);
  }, 90_000);
});
