// Anonymous checkout streams have their own budget (docs/security.md, lib/live/stream-slots.ts),
// on the real built app: with MAX_STREAMS 8, MAX_CHECKOUT_STREAMS 4 and 2 per client address,
// anonymous clients (told apart by X-Forwarded-For under TRUST_PROXY=1) fill their four slots
// with real open checkout streams, one more is refused (503, or 429 from an address already at
// its cap), and the tills' streams (an API key, a signed-in owner) still open on the four slots
// kept for them. Once every stream closes, the process's bookkeeping is back at zero.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testXpub } from '../helpers/keys';
import { devnetAppEnv, startApp, type AppServer } from '../helpers/app-server';
import { until } from '../helpers/wait';
import { signIn } from '../helpers/sessions';
import { openEventStream, type EventStream } from '../helpers/streams';

const API_KEY = 'test-checkout-budget-' + randomBytes(12).toString('hex');
const PASSWORD = 'checkout budget password 1';
const ENV = devnetAppEnv({
  STORE_XPUB: testXpub(29),
  BOOTSTRAP_API_KEY: API_KEY,
  ADMIN_EMAIL: 'owner@budget.test',
  ADMIN_PASSWORD: PASSWORD,
  RATE_LIMIT_RPS: '0',
  MAX_STREAMS: '8',
  MAX_CHECKOUT_STREAMS: '4',
  MAX_CHECKOUT_STREAMS_PER_CLIENT: '2',
  TRUST_PROXY: '1',
  COUNTER_BENCH_FLOOR: '1',
});

type Stream = EventStream;
const openStream = openEventStream;

describe('the anonymous checkout streams budget', () => {
  let app: AppServer;
  const ids: string[] = [];
  const open: Stream[] = [];

  const checkout = (id: string, client: string) => openStream(`${app.url}/api/checkout/${id}/events`, { 'X-Forwarded-For': client });
  const till = (id: string, headers: Record<string, string>) => openStream(`${app.url}/api/v1/payments/${id}/events`, headers);
  const bookkeeping = async () => (await (await fetch(`${app.url}/api/bench-floor?mem=1`)).json()).streams;

  beforeAll(async () => {
    app = await startApp(ENV);
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${app.url}/api/v1/payments`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ items: [{ type: 'item', id: 'TEA', name: 'Tea', count: 1, unit: '1.5' }] }),
      });
      expect(r.status).toBe(201);
      ids.push((await r.json()).id);
    }
  }, 120_000);

  afterAll(async () => {
    for (const s of open) s.close();
    await app?.stop();
  });

  it("fills with real checkout streams, refuses the next, and leaves the tills' slots open", async () => {
    // Eight anonymous attempts, two per address over three payments: only MAX_CHECKOUT_STREAMS get in.
    const anon: Stream[] = [];
    for (let i = 0; i < 8; i++) anon.push(await checkout(ids[i % 3], `203.0.113.${10 + Math.floor(i / 2)}`));
    open.push(...anon);
    const admitted = anon.filter((s) => s.status === 200);
    // They are real open streams: each has the payment's current state and is still open.
    await until(
      () => admitted.every((s) => s.statuses.length > 0),
      (x) => x,
      10_000,
      20,
    );

    // A till still follows its sale: three streams of an API key and a signed-in owner's.
    const owner = await signIn(app.url, ENV.ADMIN_EMAIL, PASSWORD);
    const tills = [
      ...(await Promise.all([0, 1, 2].map((i) => till(ids[i], { Authorization: `Bearer ${API_KEY}` })))),
      await till(ids[0], { Cookie: owner.cookie }),
    ];
    open.push(...tills);
    expect(tills.map((s) => s.status)).toEqual([200, 200, 200, 200]);
    expect(tills.every((s) => String(s.headers['content-type']).startsWith('text/event-stream'))).toBe(true);
    await until(
      () => tills.every((s) => s.statuses.length > 0),
      (x) => x,
      10_000,
      20,
    );

    expect(anon.map((s) => s.status)).toEqual([200, 200, 200, 200, 503, 503, 503, 503]);
    expect(admitted.every((s) => s.statuses[0] === 'unpaid' && !s.ended)).toBe(true);
    const refused = anon[4];
    await until(
      () => refused.ended,
      (x) => x,
      5_000,
      20,
    );
    expect(refused.headers['retry-after']).toBe('5');
    expect(JSON.parse(refused.body)).toMatchObject({ error: 'unavailable' });

    // One more from a new address: 503; from an address already at its two: 429.
    const fresh = await checkout(ids[1], '198.51.100.7');
    const again = await checkout(ids[2], '203.0.113.10');
    open.push(fresh, again);
    expect([fresh.status, again.status]).toEqual([503, 429]);
    await until(
      () => again.ended,
      (x) => x,
      5_000,
      20,
    );
    expect(again.headers['retry-after']).toBe('5');
    expect(JSON.parse(again.body)).toMatchObject({ error: 'too_many_streams' });
    expect(await bookkeeping()).toMatchObject({ open: 8, anonymous: 4 });
  });

  it('gives every slot and hub watcher back once the streams close', async () => {
    for (const s of open) s.close();
    const after = await until(bookkeeping, (b) => b.open === 0 && b.keys === 0 && b.hub_watchers === 0 && b.feeds === 0, 10_000, 50);
    expect(after).toMatchObject({ open: 0, anonymous: 0, keys: 0, hub_watchers: 0, feeds: 0 });
    // And the budget is whole again: an anonymous client gets its stream.
    const back = await checkout(ids[0], '203.0.113.50');
    open.push(back);
    expect(back.status).toBe(200);
    back.close();
  });
});
