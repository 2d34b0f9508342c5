// Wallet SDK: the retry policy of /pay and /status against a real local HTTP server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectPaymentSchema } from '../../lib/connect';
import { backoffDelay, submitPayment, waitForStatus, paymentStatus, WalletError } from '../../lib/wallet';
import { makePayment } from '../helpers/connect-payment';

type Reply = { status: number; body?: unknown };
let server: Server | undefined;
const seen: { path: string; body: { id?: string } }[] = [];

async function relayAnswering(replies: Reply[] | ((n: number) => Reply)): Promise<string> {
  seen.length = 0;
  server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', body: JSON.parse(data) });
      const r = typeof replies === 'function' ? replies(seen.length) : (replies[seen.length - 1] ?? replies[replies.length - 1]);
      res.writeHead(r.status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(r.body === undefined ? '' : JSON.stringify(r.body));
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/relay`;
}

afterEach(async () => {
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

const TXID = 'ab'.repeat(32);
const accepted = { id: 'pay-1', status: 'accepted', txid: TXID, required: 1, confirmed: 0, due_sec: 60 };
const confirmed = {
  id: 'pay-1',
  status: 'confirmed',
  txid: TXID,
  required: 1,
  confirmed: 1,
  due_sec: 0,
  confirmed_at: new Date().toISOString(),
};
const fast = { allowHttp: true, retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 4 } };
const pay = (relay: string, over = {}) => ConnectPaymentSchema.parse(makePayment({ relay, ...over }));

describe('submitPayment', () => {
  it('retries 503 twice, then takes the 200, echoing relay_token and refund verbatim', async () => {
    const relay = await relayAnswering([{ status: 503 }, { status: 503 }, { status: 200, body: accepted }]);
    const s = await submitPayment(pay(relay), { tx: '0100', refund: 'nRefund' }, fast);
    expect(s).toMatchObject({ status: 'accepted', txid: TXID });
    expect(seen).toHaveLength(3);
    for (const r of seen)
      expect(r).toEqual({ path: '/relay/pay', body: { id: 'pay-1', tx: '0100', refund: 'nRefund', relay_token: 'tok-123' } });
  });

  it('treats 400 as final: exactly one attempt', async () => {
    const relay = await relayAnswering([
      { status: 400, body: { error: 'invalid_outputs', message: 'output 0 is not paid' } },
      { status: 200, body: accepted },
    ]);
    const e = await submitPayment(pay(relay), { tx: '0100' }, fast).catch((x) => x);
    expect(e).toBeInstanceOf(WalletError);
    expect(e).toMatchObject({ code: 'rejected', httpStatus: 400, detail: 'invalid_outputs' });
    expect(e.message).toContain('output 0 is not paid');
    expect(seen).toHaveLength(1);
  });

  it('treats 403 as final: declined with the reason, one attempt', async () => {
    const relay = await relayAnswering([
      { status: 403, body: { id: 'pay-1', status: 'declined', reason: 'double spend' } },
      { status: 200, body: accepted },
    ]);
    await expect(submitPayment(pay(relay), { tx: '0100' }, fast)).rejects.toMatchObject({ code: 'declined', httpStatus: 403 });
    expect(seen).toHaveLength(1);
  });

  it('gives up after a few 500s with relay_unavailable', async () => {
    const relay = await relayAnswering([{ status: 500 }]);
    await expect(submitPayment(pay(relay), { tx: '0100' }, fast)).rejects.toMatchObject({ code: 'relay_unavailable', httpStatus: 500 });
    expect(seen).toHaveLength(4);
  });

  it('reports other statuses clearly without retrying', async () => {
    const relay = await relayAnswering([{ status: 404, body: { error: 'not_found', message: 'unknown payment' } }]);
    await expect(submitPayment(pay(relay), { tx: '0100' }, fast)).rejects.toMatchObject({ code: 'not_found' });
    const relay2 = await (async () => {
      await new Promise((r) => server!.close(r));
      return relayAnswering([{ status: 418, body: {} }]);
    })();
    await expect(submitPayment(pay(relay2), { tx: '0100' }, fast)).rejects.toMatchObject({ code: 'relay_error', httpStatus: 418 });
    expect(seen).toHaveLength(1);
  });

  it('never submits after issued + timeout, and refuses an http relay without allowHttp', async () => {
    const relay = await relayAnswering([{ status: 200, body: accepted }]);
    const old = pay(relay, { issued: new Date(Date.now() - 1000_000).toISOString(), timeout: 900 });
    await expect(submitPayment(old, { tx: '0100' }, fast)).rejects.toMatchObject({ code: 'expired' });
    await expect(submitPayment(pay(relay), { tx: '0100' }, { retry: fast.retry })).rejects.toMatchObject({ code: 'insecure_url' });
    expect(seen).toHaveLength(0);
  });

  it('stops retrying when the next attempt would come after the deadline', async () => {
    const relay = await relayAnswering([{ status: 503 }]);
    const soon = pay(relay, { issued: new Date(Date.now() - 898_000).toISOString(), timeout: 900 }); // 2 s left
    const e = await submitPayment(soon, { tx: '0100' }, { ...fast, retry: { attempts: 5, baseDelayMs: 5000 } }).catch((x) => x);
    expect(e.code).toBe('relay_unavailable');
    expect(seen).toHaveLength(1);
  });
});

describe('status', () => {
  it('polls /status through transient errors until confirmed', async () => {
    const relay = await relayAnswering((n) =>
      n === 1
        ? { status: 200, body: { id: 'pay-1', status: 'unpaid' } }
        : n === 2
          ? { status: 503 }
          : n < 4
            ? { status: 200, body: accepted }
            : { status: 200, body: confirmed },
    );
    const statuses: string[] = [];
    const s = await waitForStatus(relay, 'pay-1', {
      ...fast,
      deadline: Date.now() + 30_000,
      intervalMs: 1,
      onStatus: (x) => statuses.push(x.status),
    });
    expect(s.status).toBe('confirmed');
    expect(statuses).toEqual(['unpaid', 'accepted', 'confirmed']);
    expect(seen.every((r) => r.path === '/relay/status' && r.body.id === 'pay-1')).toBe(true);
  });

  it('ends at the deadline with the last status, and on 404', async () => {
    const relay = await relayAnswering([{ status: 200, body: accepted }]);
    let t = 0;
    const e = await waitForStatus(relay, 'pay-1', { ...fast, now: () => (t += 1000), deadline: 5000, intervalMs: 1 }).catch((x) => x);
    expect(e).toMatchObject({ code: 'deadline', detail: { status: 'accepted' } });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.length).toBeLessThanOrEqual(5);
    await new Promise((r) => server!.close(r));
    const gone = await relayAnswering([{ status: 404, body: { error: 'not_found', message: 'x' } }]);
    await expect(paymentStatus(gone, 'nope', fast)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('backoff', () => {
  it('doubles the delay, caps it and adds up to jitter × delay', () => {
    const p = { baseDelayMs: 100, maxDelayMs: 1000, jitter: 0.5 };
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, p, () => 0))).toEqual([100, 200, 400, 800, 1000]);
    expect([1, 2, 3].map((n) => backoffDelay(n, p, () => 0.999))).toEqual([150, 300, 600]);
    expect(backoffDelay(2, p, () => 0.5)).toBe(250);
  });
});

describe('payUri', () => {
  it('sends nothing when the user does not confirm, and pays when they do', async () => {
    const { secp256k1 } = await import('@noble/curves/secp256k1.js');
    const { REGTEST, encodeWif, pubkeyToAddress } = await import('../../lib/doge');
    const { payUri } = await import('../../lib/wallet');
    const { signed, RELAY_H15 } = await import('../helpers/connect-payment');
    const key = new Uint8Array(32).fill(21);
    const me = pubkeyToAddress(secp256k1.getPublicKey(key, true), REGTEST);
    const env = signed(makePayment({ relay: 'https://relay.example/relay' }));
    const calls: string[] = [];
    const fake = (async (url: string, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${url}`);
      return url.endsWith('/dc/pay-1') ? Response.json(env) : Response.json(accepted);
    }) as unknown as typeof fetch;
    const uri = `dogeconnect:relay.example/dc/pay-1?h=${Buffer.from(RELAY_H15).toString('base64url')}`;
    const opts = {
      fetch: fake,
      network: REGTEST,
      keys: [encodeWif(key, true, REGTEST)],
      utxos: [{ txid: '11'.repeat(32), vout: 0, amount: 100n * 100_000_000n, address: me }],
    };
    await expect(payUri(uri, { ...opts, confirm: () => false })).rejects.toMatchObject({ code: 'cancelled' });
    expect(calls).toEqual(['GET https://relay.example/dc/pay-1']);
    const r = await payUri(uri, { ...opts, confirm: (v) => v.total === '22.05', refund: me });
    expect(r.submitted.status).toBe('accepted');
    expect(calls.at(-1)).toBe('POST https://relay.example/relay/pay');
  });
});
