// Wallet SDK against relays in the wild (tests/fixtures/wallet-relays, hand-written after Fractal's
// relay and the Go library): lenient wherever that costs the user nothing, strict on signature,
// h, outputs and amounts. Counter's relay-side schemas stay strict (checked here too).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { bytesToHex } from '@noble/hashes/utils.js';
import { ConnectPaymentSchema, PaymentStatusSchema, decodeH, parsePaymentUri, signEnvelope } from '../../lib/connect';
import { encodeBase64 } from '../../lib/connect/base64';
import { decodeTx, MAINNET } from '../../lib/doge';
import { parseKoinu } from '../../lib/money';
import {
  buildPaymentTx,
  classifyRelayAnswer,
  paymentDisplay,
  readConnectQr,
  readPaymentQr,
  statusView,
  submitPayment,
  verifyPaymentEnvelope,
  waitForStatus,
  WalletError,
  type RelayOutcome,
} from '../../lib/wallet';
import { readFixture } from '../helpers/fixtures';

const P = readFixture('wallet-relays/payloads.json');
const ENV = readFixture<Record<string, { version: string; payload: string; pubkey: string; sig: string }>>('wallet-relays/envelopes.json');
const ST = readFixture('wallet-relays/statuses.json');
const H15 = decodeH(P.h);
const SECRET = Uint8Array.from(Buffer.from(P.relay_secret_hex, 'hex'));
type Case = { name: string; payload: Record<string, unknown> & { id: string; issued: string }; expect: Record<string, unknown> };
/** A copy of a case's payload that a test edits before re-signing it (the fields those tests touch). */
type EditablePayload = {
  total: unknown;
  outputs: Record<string, unknown>[];
  items: Record<string, unknown>[];
};
const cases: Case[] = P.cases;
const byName = (n: string) => cases.find((c) => c.name === n)!;
/** A clock inside every case's validity window (the Go-library case has a 900 s timeout). */
const at = (c: Case) => ({ now: () => Date.parse(c.payload.issued) + 60_000 });
const code = (fn: () => unknown) => {
  try {
    fn();
    return 'no error';
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
};
const resign = (payload: object) => signEnvelope(payload, SECRET, new Uint8Array(32)).envelope;

describe('envelopes from relays in the wild', () => {
  it('the fixtures are what they say: the signed payload is the hand-written one, under the fixture key', () => {
    for (const c of cases) {
      const env = ENV[c.name];
      expect(env.pubkey).toBe(P.relay_pubkey_hex);
      expect(JSON.parse(Buffer.from(env.payload, 'base64').toString('utf8'))).toEqual(c.payload);
    }
  });

  for (const c of cases) {
    it(`${c.name}: verified and shown as the relay meant it`, () => {
      const v = verifyPaymentEnvelope(ENV[c.name], H15, at(c));
      const d = paymentDisplay(v.payment);
      expect(d.vendor.name).toBe(c.expect.vendor);
      expect(d.total).toBe(c.expect.total);
      expect(d.pays).toBe(c.expect.pays);
      expect(d.totalMatchesOutputs).toBe(true);
      expect(d.signsData).toBe(c.expect.signsData);
      expect(
        d.lines.map((l) => ({ type: l.type, name: l.name, prominent: l.prominent, count: l.count, unit: l.unit, total: l.total })),
      ).toEqual(c.expect.lines);
      expect(d.outputs).toEqual(c.expect.outputs);
      expect(Number.isNaN(new Date(d.expiresAt).getTime())).toBe(false); // timeout 9999999999999 s is "never", still a Date
    });

    it(`${c.name}: the signed transaction pays exactly the shown outputs (plus change)`, () => {
      const v = verifyPaymentEnvelope(ENV[c.name], H15, at(c));
      const d = paymentDisplay(v.payment);
      const tx = buildPaymentTx(v.payment, {
        network: 'mainnet',
        keys: [P.payer.wif],
        utxos: [{ txid: '77'.repeat(32), vout: 1, amount: 1_000n * 100_000_000n, address: P.payer.address }],
      });
      const outs = decodeTx(tx.hex, MAINNET).outputs;
      expect(outs).toHaveLength(d.outputs.length + 1);
      d.outputs.forEach((o, i) => {
        if (o.type === 'data') expect(outs[i]).toMatchObject({ type: 'nulldata', data: o.data, value: 0n });
        else expect(outs[i]).toMatchObject({ address: o.address, value: parseKoinu(o.amount!) });
      });
      expect(outs.at(-1)).toMatchObject({ address: P.payer.address });
    });

    it(`${c.name}: Counter's relay-side schema still refuses it (strictness stays on the relay)`, () => {
      expect(ConnectPaymentSchema.safeParse(c.payload).success).toBe(false);
    });
  }

  it('refuses a bad signature and a wrong h on the same envelopes', () => {
    for (const c of cases) {
      const env = ENV[c.name];
      const sig = env.sig.slice(0, 10) + (env.sig[10] === '0' ? '1' : '0') + env.sig.slice(11);
      expect(
        code(() => verifyPaymentEnvelope({ ...env, sig }, H15, at(c))),
        c.name,
      ).toBe('bad_signature');
      const wrongH = new Uint8Array(H15);
      wrongH[0] ^= 0x80;
      expect(
        code(() => verifyPaymentEnvelope(env, wrongH, at(c))),
        c.name,
      ).toBe('bad_hash');
      // signed by a key the QR code does not name
      expect(
        code(() => verifyPaymentEnvelope(signEnvelope(c.payload, new Uint8Array(32).fill(8)).envelope, H15, at(c))),
        c.name,
      ).toBe('bad_hash');
    }
  });

  it('refuses outputs changed in transit: the signature covers them', () => {
    const c = byName('fractal-invoice-payment');
    const swapped = structuredClone(c.payload) as unknown as EditablePayload;
    swapped.outputs[0].address = P.payer.address;
    const forged = { ...ENV[c.name], payload: encodeBase64(new TextEncoder().encode(JSON.stringify(swapped))) };
    expect(code(() => verifyPaymentEnvelope(forged, H15, at(c)))).toBe('bad_signature');
  });

  it('refuses amounts that do not parse, even when validly signed, and signing items that carry money', () => {
    const c = byName('fractal-invoice-payment');
    const bad = (mut: (p: EditablePayload) => void) => {
      const p = structuredClone(c.payload) as unknown as EditablePayload;
      mut(p);
      return code(() => verifyPaymentEnvelope(resign(p), H15, at(c)));
    };
    expect(bad((p) => (p.outputs[0].amount = '150.000000001'))).toBe('bad_payment'); // 9 decimals
    expect(bad((p) => (p.outputs[0].amount = '1.5e2'))).toBe('bad_payment');
    expect(bad((p) => (p.outputs[0].amount = '0'))).toBe('bad_payment'); // a p2pkh output pays something
    expect(bad((p) => (p.outputs[0].amount = ''))).toBe('bad_payment');
    expect(bad((p) => (p.total = 'lots'))).toBe('bad_payment');
    expect(bad((p) => (p.total = '-1'))).toBe('bad_payment');
    expect(bad((p) => (p.items[0].unit = '50,0'))).toBe('bad_payment');
    expect(bad((p) => (p.outputs[1].data = 'abc'))).toBe('bad_payment'); // odd hex
    expect(bad((p) => ((p as { outputs: unknown }).outputs = null))).toBe('bad_payment');
    const m = byName('fractal-mint');
    const badMint = (mut: (p: EditablePayload) => void) => {
      const p = structuredClone(m.payload) as unknown as EditablePayload;
      mut(p);
      return code(() => verifyPaymentEnvelope(resign(p), H15, at(m)));
    };
    expect(badMint((p) => (p.items[0].total = '5'))).toBe('bad_payment');
    expect(badMint((p) => (p.items[0].unit = 'zero'))).toBe('bad_payment');
    expect(badMint((p) => (p.items[0].tax = '0.5'))).toBe('bad_payment');
    expect(badMint((p) => (p.items[0].unit = '0.00000000'))).toBe('no error');
  });

  it('shows when the vendor total is not what the outputs pay', () => {
    const c = byName('go-library-empty-items');
    const d = paymentDisplay(verifyPaymentEnvelope(resign({ ...c.payload, total: '20' }), H15, at(c)).payment);
    expect(d).toMatchObject({ total: '20', pays: '25', totalMatchesOutputs: false });
  });
});

describe('QR codes with amount=0 beside dc and h', () => {
  const dc = 'fractal.example%2Fdc%2Fmint%2F5f0c';
  it('the wallet ignores the amount (dc and h make it irrelevant)', () => {
    const p = readConnectQr(`dogecoin:DNgkJakQ1dzztBQ6otVVtVhn6RT7xZ9ZJQ?amount=0&dc=${dc}&h=${P.h}`);
    expect(p).toMatchObject({
      kind: 'connect',
      envelopeUrl: 'https://fractal.example/dc/mint/5f0c',
      address: 'DNgkJakQ1dzztBQ6otVVtVhn6RT7xZ9ZJQ',
    });
    expect(p.amount).toBeUndefined();
    expect(bytesToHex(p.hash15)).toBe(bytesToHex(H15));
    expect(readPaymentQr(`dogecoin:DNgkJakQ1dzztBQ6otVVtVhn6RT7xZ9ZJQ?amount=0.00000000&dc=${dc}&h=${P.h}`).kind).toBe('connect');
  });

  it('still refuses amounts that do not parse, and a zero amount on a plain payment', () => {
    expect(code(() => readPaymentQr(`dogecoin:DNgkJakQ1dzztBQ6otVVtVhn6RT7xZ9ZJQ?amount=abc&dc=${dc}&h=${P.h}`))).toBe('bad_amount');
    expect(code(() => readPaymentQr(`dogecoin:DNgkJakQ1dzztBQ6otVVtVhn6RT7xZ9ZJQ?amount=-1&dc=${dc}&h=${P.h}`))).toBe('bad_amount');
    expect(code(() => readPaymentQr('dogecoin:DNgkJakQ1dzztBQ6otVVtVhn6RT7xZ9ZJQ?amount=0'))).toBe('bad_amount');
    expect(code(() => readPaymentQr(`dogecoin:DNgkJakQ1dzztBQ6otVVtVhn6RT7xZ9ZJQ?amount=0&dc=${dc}&h=AAAA`))).toBe('h_length');
  });

  it("lib/connect's own parser (Counter's side) stays strict by default", () => {
    expect(code(() => parsePaymentUri(`dogecoin:DNgkJakQ1dzztBQ6otVVtVhn6RT7xZ9ZJQ?amount=0&dc=${dc}&h=${P.h}`))).toBe('bad_amount');
  });
});

describe('relay answers: what the SDK shows', () => {
  const ctx = { id: undefined as string | undefined, txid: ST.submitted_txid as string };
  for (const c of ST.cases) {
    it(c.name, () => {
      const id = c.body?.id && c.expect.kind !== 'unexpected' ? c.body.id : 'payment:0d4f7a2c';
      const o: RelayOutcome = classifyRelayAnswer({ status: c.http, json: c.body }, { ...ctx, id });
      expect(o.kind).toBe(c.expect.kind);
      if (o.kind === 'status') expect(statusView(o.status)).toMatchObject(c.expect.view);
      if (o.kind === 'declined') expect(o.reason).toBe(c.expect.reason);
    });
  }

  it("the sloppy 200s are exactly the ones Counter's strict relay-side schema refuses", () => {
    const sloppy = ST.cases.filter(
      (c: { http: number; name: string; expect: { kind: string }; body: { status?: string } }) =>
        c.http === 200 && c.expect.kind === 'status' && !c.name.includes('spec-shaped') && c.body.status !== 'unpaid',
    );
    expect(sloppy.length).toBe(4);
    for (const c of sloppy) expect(PaymentStatusSchema.safeParse(c.body).success, c.name).toBe(false);
  });

  it('a status without txid and no known submitted tx shows the txid as unknown, and lists what is missing', () => {
    const o = classifyRelayAnswer({ status: 200, json: { id: 'p', status: 'accepted', required: 6, confirmed: 0 } }, { id: 'p' });
    expect(o.kind).toBe('status');
    if (o.kind !== 'status') return;
    expect(o.status.unknown).toEqual(['txid', 'due_sec']);
    expect(statusView(o.status)).toMatchObject({ txid: null, dueSec: null, confirmations: 0, required: 6, paid: true });
    // the protocol-shaped object is still a PaymentStatus (placeholders), for code typed against the spec
    expect(o.status).toMatchObject({ status: 'accepted', txid: '', due_sec: 0 });
  });
});

describe('classification of refusals (docs/relay.md)', () => {
  const k = (status: number, json: unknown = null) => classifyRelayAnswer({ status, json }).kind;
  it('400 invalid_tx: this tx was refused, the payment is still open', () => {
    expect(k(400, { error: 'invalid_tx', message: 'missing or spent inputs' })).toBe('tx_rejected');
    expect(k(400, { error: 'invalid_tx', message: 'fee below fee_per_kb' })).toBe('tx_rejected');
  });
  it('other 400s are final refusals', () => {
    for (const error of ['invalid_outputs', 'expired', 'invalid_token', 'invalid_request', undefined])
      expect(k(400, { error, message: 'x' })).toBe('rejected');
    expect(k(400)).toBe('rejected');
  });
  it('403 and a declined status are final declines', () => {
    expect(k(403, { id: 'p', status: 'declined', reason: 'double spent' })).toBe('declined');
    expect(k(403)).toBe('declined');
    expect(k(200, { id: 'p', status: 'declined', reason: 'cancelled' })).toBe('declined');
  });
  it('500/502/503/504 and network failures are transient; 404 and anything else are not', () => {
    for (const s of [500, 502, 503, 504]) expect(k(s)).toBe('transient');
    expect(classifyRelayAnswer(new TypeError('fetch failed')).kind).toBe('transient');
    expect(k(404, { error: 'not_found', message: 'x' })).toBe('not_found');
    expect(k(418)).toBe('unexpected');
    expect(k(200, 'not json')).toBe('unexpected');
  });
});

describe('the relay client over HTTP against relay-shaped answers', () => {
  let server: Server | undefined;
  const seen: { path: string | undefined; body: unknown }[] = [];
  afterEach(async () => {
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    server = undefined;
  });
  async function relay(replies: { status: number; body?: unknown }[]): Promise<string> {
    seen.length = 0;
    server = createServer((req, res) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => {
        seen.push({ path: req.url, body: JSON.parse(data) });
        const r = replies[Math.min(seen.length - 1, replies.length - 1)];
        res.writeHead(r.status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
        res.end(r.body === undefined ? '' : JSON.stringify(r.body));
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/dc/relay`;
  }
  const c = byName('fractal-invoice-payment');
  const opts = { allowHttp: true, retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 } };
  const build = (relayUrl: string) => {
    const v = verifyPaymentEnvelope(resign({ ...c.payload, relay: relayUrl }), H15, { allowHttp: true });
    const tx = buildPaymentTx(v.payment, {
      network: 'mainnet',
      keys: [P.payer.wif],
      utxos: [{ txid: '77'.repeat(32), vout: 1, amount: 1_000n * 100_000_000n, address: P.payer.address }],
    });
    return { payment: v.payment, tx };
  };

  it('accepted without txid: the answer is shown with the txid of the submitted tx (computed from its bytes)', async () => {
    const url = await relay([{ status: 200, body: { id: c.payload.id, status: 'accepted', required: 6, confirmed: 0 } }]);
    const { payment, tx } = build(url);
    const s = await submitPayment(payment, { tx: tx.hex }, opts);
    expect(statusView(s)).toMatchObject({ status: 'accepted', txid: tx.txid, required: 6, confirmations: 0, dueSec: null, paid: true });
    expect(seen).toEqual([{ path: '/dc/relay/pay', body: { id: c.payload.id, tx: tx.hex } }]); // relay_token "" is not sent
  });

  it('confirmed below required, without due_sec, ends the wait: the status is trusted', async () => {
    const url = await relay([
      { status: 200, body: { id: c.payload.id, status: 'accepted', txid: 'ab'.repeat(32), required: 6, confirmed: 0, due_sec: 360 } },
      {
        status: 200,
        body: {
          id: c.payload.id,
          status: 'confirmed',
          txid: 'ab'.repeat(32),
          required: 6,
          confirmed: 1,
          confirmed_at: '2026-11-20T10:31:07Z',
        },
      },
    ]);
    const views: unknown[] = [];
    const s = await waitForStatus(url, c.payload.id, {
      ...opts,
      deadline: Date.now() + 10_000,
      intervalMs: 1,
      onStatus: (x) => views.push(statusView(x).dueSec),
    });
    expect(statusView(s)).toMatchObject({ status: 'confirmed', confirmations: 1, required: 6, dueSec: null, final: true });
    expect(views).toEqual([360, null]);
  });

  it('a declined status while waiting is shown, then ends the wait as final', async () => {
    const url = await relay([{ status: 200, body: { id: c.payload.id, status: 'declined', reason: 'marked invalid by the merchant' } }]);
    const seenStatus: string[] = [];
    const e = await waitForStatus(url, c.payload.id, {
      ...opts,
      deadline: Date.now() + 10_000,
      intervalMs: 1,
      onStatus: (x) => seenStatus.push(`${x.status}:${statusView(x).reason}`),
    }).catch((x) => x);
    expect(e).toMatchObject({ code: 'declined' });
    expect(seenStatus).toEqual(['declined:marked invalid by the merchant']);
    expect(seen).toHaveLength(1);
  });

  it('400 invalid_tx is tx_rejected after one attempt; 403 declined is final; 503 broadcast_failed is retried', async () => {
    let url = await relay([{ status: 400, body: { error: 'invalid_tx', message: 'missing or spent inputs' } }]);
    let e = await submitPayment(build(url).payment, { tx: build(url).tx.hex }, opts).catch((x) => x);
    expect(e).toBeInstanceOf(WalletError);
    expect(e).toMatchObject({ code: 'tx_rejected', httpStatus: 400, detail: 'invalid_tx' });
    expect(e.message).toMatch(/still open/);
    expect(seen).toHaveLength(1);
    await new Promise((r) => server!.close(r));

    url = await relay([{ status: 403, body: { id: c.payload.id, status: 'declined', reason: 'cancelled by the vendor' } }]);
    e = await submitPayment(build(url).payment, { tx: build(url).tx.hex }, opts).catch((x) => x);
    expect(e).toMatchObject({ code: 'declined', httpStatus: 403 });
    expect(seen).toHaveLength(1);
    await new Promise((r) => server!.close(r));

    url = await relay([
      { status: 503, body: { error: 'broadcast_failed', message: 'node busy' } },
      { status: 200, body: { id: c.payload.id, status: 'accepted', txid: 'cd'.repeat(32), required: 6, confirmed: 0, due_sec: 360 } },
    ]);
    const s = await submitPayment(build(url).payment, { tx: build(url).tx.hex }, opts);
    expect(s.status).toBe('accepted');
    expect(seen).toHaveLength(2);
  });
});
