// Against a real litecoind -regtest (rpc backend) on embedded PGlite: the 0-conf / RBF risk
// policy through /relay/pay (docs/relay.md), and crash recovery when the claimed tx's input is
// double-spent while the process is down (the reconciler must release the claim: the payment
// stays unpaid and payable, no event, and our tx never reaches the node; docs/relay.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openMigratedDb } from '@/lib/db';
import { seedDataDir } from '../helpers/stores';
import { decodeTx, REGTEST } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { startLitecoind, LITECOIN_REGTEST_GENESIS, EXTERNAL_ADDRESS, type Litecoind } from '../helpers/litecoind';
import { startApp, type AppServer } from '../helpers/app-server';
import { until } from '../helpers/wait';
import { vendorClient, outputsOf, type RelayStatusJson } from '../helpers/vendor-client';
import type { EventJson } from '../helpers/json-shapes';
import type { NodeBlockJson, NodeTxJson } from '../helpers/json-shapes';

const API_KEY = 'risk-test-key-' + randomBytes(12).toString('hex');
const xpub = testXpub(7);
const ZERO_CONF_LIMIT = 500_000_000n; // 5 DOGE

let node: Litecoind;
let app: AppServer;
let dataDir: string;

const appEnv = (extra: Record<string, string> = {}) => ({
  DOGE_NETWORK: 'regtest',
  CHAIN_GENESIS_HASH: LITECOIN_REGTEST_GENESIS,
  CHAIN_BACKEND: 'rpc',
  DOGE_RPC_URL: node.rpcUrl,
  STORE_XPUB: xpub,
  BOOTSTRAP_API_KEY: API_KEY,
  RATE_LIMIT_RPS: '0',
  ...extra,
});

const { api, relay, createPayment } = vendorClient(() => app.url, API_KEY);
const newPayment = (unit: string, extra: Record<string, unknown> = {}) =>
  createPayment({ items: [{ type: 'item', id: 'x', name: 'X', count: 1, unit }], ...extra });
async function eventsFor(id: string): Promise<string[]> {
  const r = await api<{ events: EventJson[] }>('/api/v1/events');
  return r.body.events.filter((e: EventJson) => e.payment.id === id).map((e: EventJson) => e.type);
}

beforeAll(async () => {
  node = await startLitecoind();
  // The store's risk policy lives in the database: seed it before the app opens it (PGlite is single-process).
  dataDir = mkdtempSync(join(tmpdir(), 'counter-risk-'));
  await seedDataDir(dataDir);
  const db = await openMigratedDb({ dataDir });
  await db.prisma.store.upsert({
    where: { id: 1 },
    update: { zeroConfLimit: ZERO_CONF_LIMIT },
    create: { id: 1, zeroConfLimit: ZERO_CONF_LIMIT },
  });
  await db.close();
  app = await startApp(appEnv(), { keepDataDir: dataDir });
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await node?.dispose();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('risk policy through /relay/pay (rpc backend)', () => {
  it('below and at the 0-conf limit: confirmed at network acceptance, with both events', async () => {
    for (const unit of ['2', '5']) {
      const p = await newPayment(unit);
      expect((await api(`/api/v1/payments/${p.id}`)).body).toMatchObject({ required: 0, due_sec: 0 });
      const r = await relay<RelayStatusJson>('pay', { id: p.id, tx: await node.payTo(outputsOf(p)) });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: 'confirmed', required: 0, confirmed: 0, due_sec: 0 });
      expect(Date.parse(r.body.confirmed_at ?? '')).toBeGreaterThan(0);
      expect(await node.rpc('getrawmempool')).toContain(r.body.txid);
      expect(
        await until(
          () => eventsFor(p.id),
          (l) => l.length >= 2,
        ),
      ).toEqual(['payment.accepted', 'payment.confirmed']);
    }
  });

  it('an RBF-signalling tx below the limit never gets 0-conf: accepted, needs one confirmation', async () => {
    const p = await newPayment('2');
    const tx = await node.payTo(outputsOf(p), { replaceable: true });
    expect(decodeTx(tx, REGTEST).signalsRbf).toBe(true);
    const r = await relay<RelayStatusJson>('pay', { id: p.id, tx });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'accepted', required: 1, confirmed: 0, due_sec: 60 });
    expect(r.body.confirmed_at).toBeUndefined();
    expect(await eventsFor(p.id)).toEqual(['payment.accepted']);
    await node.mine(1);
    const st = await until(
      () => relay<RelayStatusJson>('status', { id: p.id }),
      (s) => s.body.status === 'confirmed',
    );
    expect(st.body).toMatchObject({ status: 'confirmed', required: 1, confirmed: 1 });
  });

  it('an explicit required_confirmations of 0 still waits for a block when the tx signals RBF', async () => {
    const p = await newPayment('50', { required_confirmations: 0 });
    const rbf = await relay('pay', { id: p.id, tx: await node.payTo(outputsOf(p), { replaceable: true }) });
    expect(rbf.body).toMatchObject({ status: 'accepted', required: 1 });
  });

  it('above the 0-conf limit: accepted with one confirmation required (the 10,000 DOGE tier)', async () => {
    const p = await newPayment('5.00000001');
    const r = await relay('pay', { id: p.id, tx: await node.payTo(outputsOf(p)) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'accepted', required: 1, confirmed: 0, due_sec: 60 });
    expect(await eventsFor(p.id)).toEqual(['payment.accepted']);
  });

  it('above 10,000 DOGE: six confirmations required', async () => {
    const p = await newPayment('10000.00000001');
    expect((await api(`/api/v1/payments/${p.id}`)).body).toMatchObject({ required: 6, due_sec: 360 });
  });
});

describe('crash recovery with a double spend in between', () => {
  it('claimed, killed before broadcast, input double-spent meanwhile: the reconciler releases the claim, the payment stays payable', async () => {
    const p = await newPayment('3');
    await app.stop();
    app = await startApp(appEnv({ COUNTER_TEST_CRASH: 'before-broadcast' }), { keepDataDir: dataDir });
    const tx = await node.payTo(outputsOf(p));
    const decoded = decodeTx(tx, REGTEST);
    // The app claims the payment, then kills itself (SIGKILL) before broadcasting.
    expect(await relay('pay', { id: p.id, tx }).catch(() => 'connection lost')).toBe('connection lost');
    await app.stop();
    expect(await node.rpc('getrawmempool')).not.toContain(decoded.txid);

    // While it is down, the customer's wallet spends the same input elsewhere, and it is mined.
    const { prevTxid, vout } = decoded.inputs[0];
    const conflict = await node.send(
      await node.payTo([{ address: EXTERNAL_ADDRESS, amountKoinu: 100_000_000n }], { inputs: [{ txid: prevTxid, vout }] }),
    );
    const [block] = await node.mine(1, EXTERNAL_ADDRESS);
    expect((await node.rpc<NodeBlockJson>('getblock', block)).tx).toContain(conflict);

    app = await startApp(appEnv(), { keepDataDir: dataDir });
    const claimed = (await api(`/api/v1/payments/${p.id}`)).body;
    expect(claimed).toMatchObject({ status: 'unpaid', txid: decoded.txid }); // the claim survived the kill
    // The reconciler rebroadcasts, the node refuses (input spent), and the claim is released.
    const view = (
      await until(
        () => api<{ txid: string | null }>(`/api/v1/payments/${p.id}`),
        (v) => v.body.txid === null,
        45_000,
      )
    ).body;
    expect(view).toMatchObject({ status: 'unpaid', txid: null, reason: null, exception: null });
    expect((await relay('status', { id: p.id })).body).toEqual({ id: p.id, status: 'unpaid' });
    // Our tx never reached the node, and the conflicting one stays confirmed.
    expect(await node.rpc('getrawmempool')).not.toContain(decoded.txid);
    const tip = await node.rpc<string>('getbestblockhash');
    for (const h of new Set([block, tip])) expect((await node.rpc<NodeBlockJson>('getblock', h)).tx).not.toContain(decoded.txid);
    expect((await node.rpc<NodeTxJson>('getrawtransaction', conflict, true, block)).confirmations).toBeGreaterThanOrEqual(1);
    expect(await eventsFor(p.id)).toEqual([]); // no payment.declined
    // The wallet's retry of the same tx gets 400 invalid_tx with the reason; a new tx pays.
    const retry = await relay('pay', { id: p.id, tx });
    expect(retry).toMatchObject({ status: 400, body: { error: 'invalid_tx', message: expect.stringMatching(/spent/) } });
    const paid = await relay('pay', { id: p.id, tx: await node.payTo(outputsOf(p)) });
    expect(paid).toMatchObject({ status: 200, body: { status: 'confirmed', required: 0 } }); // 3 DOGE: under the 0-conf limit
    expect(
      await until(
        () => eventsFor(p.id),
        (l) => l.length >= 2,
      ),
    ).toEqual(['payment.accepted', 'payment.confirmed']);
  }, 150_000);
});
