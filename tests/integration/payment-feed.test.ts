// The live payment feed (GET /api/v1/payments/<id>/events, Server-Sent Events) against the
// real app on a real litecoind -regtest node: the current view at once, accepted, confirmed,
// then the stream ends; auth, unknown ids and cancellation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testXpub } from '../helpers/keys';
import { parseKoinu } from '@/lib/money';
import { startLitecoind, LITECOIN_REGTEST_GENESIS, type Litecoind } from '../helpers/litecoind';
import { startApp, type AppServer } from '../helpers/app-server';
import { vendorClient } from '../helpers/vendor-client';
import { signIn } from '../helpers/sessions';
import type { OutputJson } from '../helpers/json-shapes';

const API_KEY = 'test-feed-key-' + randomBytes(12).toString('hex');
const ADMIN = { email: 'owner@feed.test', password: 'feed test password 1' };
const xpub = testXpub(7);

let node: Litecoind;
let app: AppServer;

/** One event of a payment's SSE stream: a `payment` (the status view) or the `end`. */
type Sse = { event: string; data: { status?: string; reason?: string; confirmed_at?: string; [field: string]: unknown } };

/** Opens the feed and collects events until the server ends the stream (or `stop` is aborted). */
function openFeed(id: string, headers: Record<string, string> = { Authorization: `Bearer ${API_KEY}` }) {
  const events: Sse[] = [];
  const ctl = new AbortController();
  let comments = 0;
  const done = (async () => {
    const r = await fetch(`${app.url}/api/v1/payments/${id}/events`, { headers, signal: ctl.signal });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(r.headers.get('cache-control')).toContain('no-store');
    const reader = r.body!.getReader();
    const dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) break;
      buf += dec.decode(value, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (block.startsWith(':')) comments++;
        const ev = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (ev && data) events.push({ event: ev, data: JSON.parse(data) });
      }
    }
    return events;
  })();
  return { events, done, abort: () => ctl.abort(), comments: () => comments };
}

async function until(ok: () => boolean, ms = 20_000) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const { api, createPayment } = vendorClient(() => app.url, API_KEY);
const newPayment = () => createPayment({ items: [{ type: 'item', id: 'TEA', name: 'Tea', count: 1, unit: '4.2' }] });

beforeAll(async () => {
  node = await startLitecoind();
  app = await startApp({
    DOGE_NETWORK: 'regtest',
    CHAIN_GENESIS_HASH: LITECOIN_REGTEST_GENESIS,
    CHAIN_BACKEND: 'rpc',
    DOGE_RPC_URL: node.rpcUrl,
    STORE_XPUB: xpub,
    BOOTSTRAP_API_KEY: API_KEY,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'debug',
  });
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await node?.dispose();
});

describe('live payment feed (SSE)', () => {
  it('refuses without credentials or with a wrong key, and answers 404 for an unknown id', async () => {
    const p = await newPayment();
    const none = await fetch(`${app.url}/api/v1/payments/${p.id}/events`);
    expect(none.status).toBe(401);
    expect((await none.json()).error).toBe('unauthorized');
    const wrong = await fetch(`${app.url}/api/v1/payments/${p.id}/events`, {
      headers: { Authorization: 'Bearer nope-not-a-key-at-all-123456' },
    });
    expect(wrong.status).toBe(401);
    const unknown = await fetch(`${app.url}/api/v1/payments/${'A'.repeat(22)}/events`, { headers: { Authorization: `Bearer ${API_KEY}` } });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe('not_found');
  });

  it('streams unpaid, then accepted, then confirmed after a block, and ends', async () => {
    const p = await newPayment();
    const feed = openFeed(p.id);
    await until(() => feed.events.length >= 1);
    expect(feed.events[0]).toMatchObject({
      event: 'payment',
      data: { id: p.id, status: 'unpaid', total: '4.2', connect_uri: p.connect_uri },
    });

    const outs = p.payment.outputs
      .filter((o: OutputJson) => o.type === 'p2pkh')
      .map((o: OutputJson) => ({ address: o.address!, amountKoinu: parseKoinu(o.amount!) }));
    const tx = await node.payTo(outs);
    const pay = await fetch(`${app.url}/relay/pay`, { method: 'POST', body: JSON.stringify({ id: p.id, tx }) });
    expect(pay.status).toBe(200);
    const txid = (await pay.json()).txid;
    await until(() => feed.events.some((e) => e.data?.status === 'accepted'));
    const accepted = feed.events.find((e) => e.data?.status === 'accepted')!;
    expect(accepted.data).toMatchObject({ txid, required: 1, confirmed: 0 });

    await node.mine(1);
    const events = await feed.done; // the server closes the stream after the final state
    expect(app.logs()).toMatch(new RegExp(`payment feed closed.*${p.id}.*final|${p.id}.*final.*payment feed closed`));
    const statuses = events.filter((e) => e.event === 'payment').map((e) => e.data.status);
    expect(statuses[0]).toBe('unpaid');
    expect(statuses).toContain('accepted');
    expect(statuses.at(-1)).toBe('confirmed');
    expect(statuses.indexOf('accepted')).toBeLessThan(statuses.indexOf('confirmed'));
    const confirmed = events.filter((e) => e.event === 'payment').at(-1)!.data;
    expect(confirmed).toMatchObject({ status: 'confirmed', confirmed: 1, due_sec: 0, txid });
    expect(Date.parse(confirmed.confirmed_at as string)).toBeGreaterThan(0);
    expect(events.at(-1)).toEqual({ event: 'end', data: { reason: 'final' } });
  });

  it('a final payment gets its view and an immediate end; a cancel ends an open stream', async () => {
    const p = await newPayment();
    const feed = openFeed(p.id);
    await until(() => feed.events.length >= 1);
    expect((await api(`/api/v1/payments/${p.id}/cancel`, { method: 'POST' })).status).toBe(200);
    const events = await feed.done;
    expect(events.map((e) => e.event)).toEqual(['payment', 'payment', 'end']);
    expect(events[1].data).toMatchObject({ status: 'declined', reason: 'cancelled by vendor', exception: 'cancelled' });

    const again = await openFeed(p.id).done;
    expect(again.map((e) => [e.event, e.data.status ?? e.data.reason])).toEqual([
      ['payment', 'declined'],
      ['end', 'final'],
    ]);
  });

  it('works with a signed-in session cookie, and the client can go away mid-stream', async () => {
    const { cookie } = await signIn(app.url, ADMIN.email, ADMIN.password);
    const p = await newPayment();
    const feed = openFeed(p.id, { cookie });
    await until(() => feed.events.length >= 1);
    expect(feed.events[0].data).toMatchObject({ id: p.id, status: 'unpaid' });
    feed.abort();
    await expect(feed.done).rejects.toThrow();
    // The server notices the client leaving and stops that stream's polling and timers.
    const closedLine = () =>
      app
        .logs()
        .split('\n')
        .find((l) => l.includes('payment feed closed') && l.includes(p.id));
    await until(() => closedLine() !== undefined);
    expect(closedLine()).toContain('client_gone');
    // The server is still healthy and serves the same payment afterwards.
    expect((await api<{ status: string }>(`/api/v1/payments/${p.id}`)).body.status).toBe('unpaid');
  });
});
