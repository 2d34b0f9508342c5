// The whole payment path against a real litecoind -regtest node (docs/architecture.md#chain-backends) with the rpc
// backend, on a real PostgreSQL server: create, envelope, pay, broadcast, confirm, webhooks,
// refusals (a double spend and a tx the node refuses leave the payment payable), concurrency,
// reorg, crash recovery and node outage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { openDb, type Db } from '@/lib/db';
import { decodeTx, fromHex, toHex, REGTEST } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { parsePaymentUri, verifyPaymentEnvelope } from '@/lib/connect';
import { startLitecoind, LITECOIN_REGTEST_GENESIS, type Litecoind } from '../helpers/litecoind';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';
import { startApp, type AppServer } from '../helpers/app-server';
import { startWebhookReceiver } from '../helpers/webhook-receiver';
import { until } from '../helpers/wait';
import { vendorClient, outputsOf, type PaymentViewJson, type RelayStatusJson } from '../helpers/vendor-client';
import type { ErrorJson, EventJson, NodeUnspentJson } from '../helpers/json-shapes';

const API_KEY = 'test-bootstrap-key-' + randomBytes(12).toString('hex');
const HOOK_SECRET = 'whsec_' + randomBytes(16).toString('hex');
const xpub = testXpub(42);

let node: Litecoind;
let pg: PgServer;
let dbUrl: string;
let app: AppServer;
let db: Db;
let hooks: Awaited<ReturnType<typeof startWebhookReceiver>>;

function appEnv(extra: Record<string, string> = {}) {
  return {
    DOGE_NETWORK: 'regtest',
    CHAIN_GENESIS_HASH: LITECOIN_REGTEST_GENESIS,
    CHAIN_BACKEND: 'rpc',
    DOGE_RPC_URL: node.rpcUrl,
    STORE_XPUB: xpub,
    BOOTSTRAP_API_KEY: API_KEY,
    DATABASE_URL: dbUrl,
    // The webhook receiver listens on loopback, which webhooks refuse without this (docs/security.md).
    WEBHOOK_ALLOW_PRIVATE: '1',
    ...extra,
  };
}

const { api, relay, createPayment } = vendorClient(() => app.url, API_KEY);
/** Index of `needle` in `hay` (-1 if absent). */
function findSubarray(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

const newPayment = (extra: Record<string, unknown> = {}) =>
  createPayment({ items: [{ type: 'item', id: 'SKU-1', name: 'Coffee', count: 2, unit: '1.5', tax: '0.15' }], ...extra });

beforeAll(async () => {
  [node, pg] = await Promise.all([startLitecoind(), startPostgres()]);
  dbUrl = await createDatabase(pg, 'relay');
  hooks = await startWebhookReceiver(HOOK_SECRET);
  app = await startApp(appEnv());
  db = await openDb({ databaseUrl: dbUrl, poolSize: 2 });
  await db.prisma.store.update({ where: { id: 1 }, data: { webhookUrl: hooks.url, webhookSecret: HOOK_SECRET } });
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await db?.close();
  await hooks?.close();
  await node?.dispose();
  await pg?.stop();
});

describe('relay on litecoind (rpc backend, PostgreSQL)', () => {
  it('happy path: create, verify the envelope, pay, accept, confirm, and signed webhooks', async () => {
    const p = await newPayment();
    expect(p).toMatchObject({ status: 'unpaid', total: '3.15', relay: `${app.url}/relay`, envelope_url: `${app.url}/dc/${p.id}` });
    expect(p.id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    const uri = parsePaymentUri(p.uri);
    expect(uri.kind).toBe('connect');
    const env = await fetch(p.envelope_url);
    expect(env.headers.get('cache-control')).toContain('no-store');
    const verified = verifyPaymentEnvelope(await env.json(), { expectedHash15: (uri as { hash15: Uint8Array }).hash15 });
    expect(verified.payment).toEqual(p.payment);
    expect(p.payment.outputs[0]).toMatchObject({ type: 'p2pkh', amount: '3.15' });
    expect(p.payment.outputs[0].address).toBe((uri as { address: string }).address);

    const tx = await node.payTo(outputsOf(p));
    const refund = await node.newAddress();
    const r = await relay<RelayStatusJson>('pay', { id: p.id, tx, refund });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toContain('no-store');
    expect(r.body).toMatchObject({ id: p.id, status: 'accepted', required: 1, confirmed: 0, due_sec: 60 });
    expect(await node.rpc('getrawmempool')).toContain(r.body.txid);

    // Idempotent repeat: same answer, new tx ignored.
    const again = await relay('pay', { id: p.id, tx: await node.payTo(outputsOf(p)) });
    expect(again.body).toEqual(r.body);

    await node.mine(1);
    const st = await until(
      () => relay<RelayStatusJson>('status', { id: p.id }),
      (s) => s.body.status === 'confirmed',
    );
    expect(st.body).toMatchObject({ status: 'confirmed', txid: r.body.txid, required: 1, confirmed: 1, due_sec: 0 });
    expect(Date.parse(st.body.confirmed_at ?? '')).toBeGreaterThan(0);
    const got = await until(
      async () => hooks.events.filter((e) => e.body?.payment?.id === p.id),
      (l) => l.length >= 2,
    );
    expect(got.map((e) => e.type).sort()).toEqual(['payment.accepted', 'payment.confirmed']);
    for (const e of got) {
      expect(e.signatureValid).toBe(true);
      expect(e.eventIdHeader).toBe(e.id);
    }
    const view = await api<PaymentViewJson>(`/api/v1/payments/${p.id}`);
    expect(view.body).toMatchObject({ status: 'confirmed', txid: r.body.txid, refund_address: refund, exception: null, expired: false });
    expect(view.body.block_height).toBeGreaterThan(0);
    const events = await api<{ events: EventJson[] }>('/api/v1/events');
    expect(events.body.events.filter((e: EventJson) => e.payment.id === p.id).map((e: EventJson) => e.type)).toEqual([
      'payment.accepted',
      'payment.confirmed',
    ]);
  });

  it('refuses: wrong amount, low fee, unknown id, expired, spent input; a relay_token of any value is ignored', async () => {
    const p = await newPayment();
    const [out] = outputsOf(p);
    const wrong = await relay('pay', { id: p.id, tx: await node.payTo([{ ...out, amountKoinu: out.amountKoinu - 1n }]) });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_outputs' } });
    const cheap = await relay<ErrorJson>('pay', { id: p.id, tx: await node.payTo([out], { feeRateKoinuPerKb: 100_000n }) });
    expect(cheap.status).toBe(400);
    expect(cheap.body.error).toBe('invalid_tx');
    expect(cheap.body.message).toMatch(/fee/);
    const good = await node.payTo([out]);
    expect(p.payment.relay_token).toBeUndefined(); // none issued (docs/relay.md)
    // A token sent anyway is ignored: the checks go on to the tx.
    expect(await relay('pay', { id: p.id, tx: 'zz', relay_token: 'wrong' })).toMatchObject({ status: 400, body: { error: 'invalid_tx' } });
    expect(await relay('pay', { id: 'nope', tx: good })).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(await relay('pay', { tx: good })).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(await relay('pay', { id: p.id })).toMatchObject({ status: 400, body: { error: 'invalid_tx' } });
    expect(await relay('pay', { id: p.id, tx: 'zz' })).toMatchObject({ status: 400, body: { error: 'invalid_tx' } });
    expect((await relay<RelayStatusJson>('status', { id: p.id })).body).toEqual({ id: p.id, status: 'unpaid' });

    const late = await newPayment();
    await db.prisma.payment.update({ where: { id: late.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const exp = await relay('pay', { id: late.id, tx: await node.payTo(outputsOf(late)) });
    expect(exp).toMatchObject({ status: 400, body: { error: 'expired' } });

    // A double spend: the same coin spent by two txs, the first already broadcast, the relay
    // offered the second. Refused with 400 invalid_tx; the payment stays unpaid and payable
    // (docs/relay.md: nothing a third party can submit ends a payment).
    const utxo = (await node.rpc<NodeUnspentJson[]>('listunspent', 1))[0];
    await node.send(
      await node.payTo([{ address: await node.newAddress(), amountKoinu: 100_000_000n }], {
        inputs: [{ txid: utxo.txid, vout: utxo.vout }],
      }),
    );
    const ds = await newPayment();
    const conflicting = await node.payTo(outputsOf(ds), { inputs: [{ txid: utxo.txid, vout: utxo.vout }] });
    const d = await relay<ErrorJson>('pay', { id: ds.id, tx: conflicting });
    expect(d).toMatchObject({ status: 400, body: { error: 'invalid_tx' } });
    expect(d.body.message).toMatch(/spent/);
    expect((await relay<RelayStatusJson>('status', { id: ds.id })).body).toEqual({ id: ds.id, status: 'unpaid' });
    expect((await api(`/api/v1/payments/${ds.id}`)).body).toMatchObject({ status: 'unpaid', txid: null, reason: null });
    const after = await relay('pay', { id: ds.id, tx: await node.payTo(outputsOf(ds)) });
    expect(after).toMatchObject({ status: 200, body: { status: 'accepted' } });
    expect(
      (await api<{ events: EventJson[] }>('/api/v1/events')).body.events
        .filter((e: EventJson) => e.payment.id === ds.id)
        .map((e: EventJson) => e.type),
    ).toEqual(['payment.accepted']);
  });

  it('a tx the node refuses at broadcast: 400 invalid_tx with the node reason, the claim released, then the real tx pays', async () => {
    const p = await newPayment();
    // Every check the relay makes itself passes (outputs; fee from the real, unspent input):
    // only the node can see that the signature is wrong.
    const hex = await node.payTo(outputsOf(p));
    const tx = decodeTx(hex, REGTEST);
    const raw = fromHex(hex);
    const sigAt = findSubarray(raw, fromHex(tx.inputs[0].scriptSig)) + 10; // inside the DER signature's r value
    raw[sigAt] ^= 0x01;
    const bad = toHex(raw);
    const r = await relay<ErrorJson>('pay', { id: p.id, tx: bad });
    expect(r).toMatchObject({ status: 400, body: { error: 'invalid_tx' } });
    expect(r.body.message).toMatch(/script-verify|signature/i); // the node's own words
    expect((await relay<RelayStatusJson>('status', { id: p.id })).body).toEqual({ id: p.id, status: 'unpaid' });
    const row = await db.prisma.payment.findUniqueOrThrow({ where: { id: p.id }, include: { submissions: true } });
    expect(row).toMatchObject({ status: 'unpaid', broadcastState: 'none', txid: null, txHex: null });
    expect(row.submissions.map((s) => [s.outcome, s.error])).toEqual([['rejected', r.body.message]]);
    const ok = await relay('pay', { id: p.id, tx: hex });
    expect(ok).toMatchObject({ status: 200, body: { status: 'accepted', txid: tx.txid } });
    expect(await node.rpc('getrawmempool')).toContain(tx.txid);
  });

  it('broadcasts exactly one of 32 concurrent valid transactions, and every answer reports it', async () => {
    const p = await newPayment();
    const txs: string[] = [];
    for (let i = 0; i < 32; i++) txs.push(await node.payTo(outputsOf(p)));
    const answers = await Promise.all(txs.map((tx) => relay<RelayStatusJson | null>('pay', { id: p.id, tx })));
    const txids = new Set(answers.map((a) => a.body?.txid));
    expect(answers.map((a) => a.status)).toEqual(Array(32).fill(200));
    expect(txids.size).toBe(1);
    const [txid] = [...txids];
    const mempool: string[] = await node.rpc('getrawmempool');
    const ours = txs.map((t) => mempool.find((m) => m === txid && t.length > 0)).filter(Boolean);
    expect(mempool).toContain(txid);
    expect(ours.length).toBeGreaterThan(0);
    const submitted = await db.prisma.paymentSubmission.count({ where: { paymentId: p.id, outcome: 'accepted' } });
    expect(submitted).toBe(1);
  });

  it('reorg: a confirmed payment whose block is replaced goes back to accepted and emits payment.unconfirmed', async () => {
    const p = await newPayment();
    const r = await relay('pay', { id: p.id, tx: await node.payTo(outputsOf(p)) });
    expect(r.status).toBe(200);
    const [block] = await node.mine(1);
    await until(
      () => relay<RelayStatusJson>('status', { id: p.id }),
      (s) => s.body.status === 'confirmed',
    );
    await node.rpc('invalidateblock', block);
    await node.mineEmpty(2); // a replacement chain without the tx
    const st = await until(
      () => relay<RelayStatusJson>('status', { id: p.id }),
      (s) => s.body.status === 'accepted',
    );
    expect(st.body).toMatchObject({ status: 'accepted', confirmed: 0, required: 1 });
    expect(st.body.confirmed_at).toBeUndefined();
    const ev = await until(
      async () => hooks.events.filter((e) => e.body?.payment?.id === p.id).map((e) => e.type),
      (l) => l.includes('payment.unconfirmed'),
    );
    expect(ev).toContain('payment.unconfirmed');
    expect((await api<PaymentViewJson>(`/api/v1/payments/${p.id}`)).body.exception).toBe('reorged');
  });

  it('crash between claim and broadcast: after restart the tx is broadcast exactly once', async () => {
    const p = await newPayment();
    await app.stop();
    app = await startApp(appEnv({ COUNTER_TEST_CRASH: 'before-broadcast' }));
    const tx = await node.payTo(outputsOf(p));
    await relay('pay', { id: p.id, tx }).catch(() => null);
    await app.stop('SIGKILL');
    const row = await db.prisma.payment.findUniqueOrThrow({ where: { id: p.id } });
    expect(row.broadcastState).toBe('pending');
    expect(await node.rpc('getrawmempool')).not.toContain(row.txid);
    app = await startApp(appEnv());
    const st = await until(
      () => relay<RelayStatusJson>('status', { id: p.id }),
      (s) => s.body.status === 'accepted',
      30_000,
    );
    expect(st.body.txid).toBe(row.txid);
    const mempool: string[] = await node.rpc('getrawmempool');
    expect(mempool.filter((m) => m === row.txid)).toHaveLength(1);
    // A retry by the wallet now gets the same status.
    expect((await relay('pay', { id: p.id, tx })).body).toEqual(st.body);
  }, 120_000);

  it('answers 503 with no body and changes nothing while the node is down', async () => {
    const p = await newPayment();
    const tx = await node.payTo(outputsOf(p));
    await node.stop();
    try {
      const r = await relay('pay', { id: p.id, tx });
      expect(r.status).toBe(503);
      expect(r.body).toBeNull();
      expect((await relay<RelayStatusJson>('status', { id: p.id })).body).toEqual({ id: p.id, status: 'unpaid' });
    } finally {
      await node.restart();
    }
    const ok = await relay('pay', { id: p.id, tx });
    expect(ok.status).toBe(200);
  }, 120_000);
});
