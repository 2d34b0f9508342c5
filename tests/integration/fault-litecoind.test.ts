// Fault test (docs/operations.md#readiness): the chain node (litecoind -regtest, rpc backend) stopped for 10 s. The
// app keeps serving (payments stay as they were, /pay answers 503 without a state change), the
// worker reconnects by itself when the node returns, and confirmations catch up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testXpub } from '../helpers/keys';
import { startLitecoind, LITECOIN_REGTEST_GENESIS, EXTERNAL_ADDRESS, type Litecoind } from '../helpers/litecoind';
import { startApp, type AppServer } from '../helpers/app-server';
import { until } from '../helpers/wait';
import { vendorClient, outputsOf, type CreatedPaymentJson, type RelayStatusJson } from '../helpers/vendor-client';
import type { EventJson, Health } from '../helpers/json-shapes';

const API_KEY = 'fault-node-key-' + randomBytes(12).toString('hex');
const xpub = testXpub(9);
let node: Litecoind;
let app: AppServer;

const { api, relay } = vendorClient(() => app.url, API_KEY);

beforeAll(async () => {
  node = await startLitecoind();
  app = await startApp({
    DOGE_NETWORK: 'regtest',
    CHAIN_GENESIS_HASH: LITECOIN_REGTEST_GENESIS,
    CHAIN_BACKEND: 'rpc',
    DOGE_RPC_URL: node.rpcUrl,
    STORE_XPUB: xpub,
    BOOTSTRAP_API_KEY: API_KEY,
    RATE_LIMIT_RPS: '0',
  });
}, 180_000);
afterAll(async () => {
  await app?.stop();
  await node?.dispose();
});

describe('litecoind outage (rpc backend)', () => {
  it('keeps serving while the node is down 10 s, then reconnects and confirmations catch up', async () => {
    const p = (
      await api<CreatedPaymentJson>('/api/v1/payments', {
        method: 'POST',
        body: JSON.stringify({ items: [{ type: 'item', id: 'a', name: 'A', count: 1, unit: '4' }], required_confirmations: 3 }),
      })
    ).body;
    const r = await relay<RelayStatusJson | null>('pay', { id: p.id, tx: await node.payTo(outputsOf(p)) });
    expect(r.body).toMatchObject({ status: 'accepted', required: 3, confirmed: 0 });
    await node.mine(1, EXTERNAL_ADDRESS);
    expect(
      (
        await until(
          () => relay<RelayStatusJson>('status', { id: p.id }),
          (s) => s.body.confirmed === 1,
        )
      ).body,
    ).toMatchObject({ status: 'accepted', confirmed: 1, due_sec: 120 });
    const tipBefore: number = await node.rpc('getblockcount');

    // A second payment's tx, ready before the outage.
    const q = (
      await api<CreatedPaymentJson>('/api/v1/payments', {
        method: 'POST',
        body: JSON.stringify({ items: [{ type: 'item', id: 'b', name: 'B', count: 1, unit: '2' }] }),
      })
    ).body;
    const qtx = await node.payTo(outputsOf(q));

    await node.stop();
    const downSince = Date.now();
    // While down: reads keep working, /pay is a bodiless 503 and changes nothing, health reports not synced.
    const st = await relay<RelayStatusJson>('status', { id: p.id });
    expect(st).toMatchObject({ status: 200, body: { status: 'accepted', confirmed: 1 } });
    const pay = await relay<RelayStatusJson | null>('pay', { id: q.id, tx: qtx });
    expect([pay.status, pay.body]).toEqual([503, null]); // bodiless 503
    expect((await relay<RelayStatusJson>('status', { id: q.id })).body).toEqual({ id: q.id, status: 'unpaid' });
    const h = await until(
      () => api<Health>('/api/health'),
      (x) => x.body.chain.synced === false,
      8_000,
    );
    expect(h.status).toBe(200); // the database is fine; only the chain is behind
    expect(h.body.chain).toMatchObject({ synced: false, peers: 0 });
    await new Promise((res) => setTimeout(res, Math.max(0, 10_000 - (Date.now() - downSince))));
    await node.restart();

    // Back: blocks mined now are followed without restarting the app.
    await node.mine(2, EXTERNAL_ADDRESS);
    const done = await until(
      () => relay<RelayStatusJson>('status', { id: p.id }),
      (s) => s.body.status === 'confirmed',
      45_000,
    );
    expect(done.body).toMatchObject({ status: 'confirmed', required: 3, confirmed: 3, due_sec: 0 });
    const health = await until(
      () => api<Health>('/api/health'),
      (x) => x.body.chain.synced === true && x.body.chain.tip === tipBefore + 2,
    );
    expect(health.body.chain.tip).toBe(tipBefore + 2);
    // And /pay works again for the payment refused during the outage.
    expect((await relay<RelayStatusJson | null>('pay', { id: q.id, tx: qtx })).body).toMatchObject({ status: 'accepted' });
    const events = (await api<{ events: EventJson[] }>('/api/v1/events')).body.events
      .filter((e: EventJson) => e.payment.id === p.id)
      .map((e: EventJson) => e.type);
    expect(events).toEqual(['payment.accepted', 'payment.confirmed']);
  }, 150_000);
});
