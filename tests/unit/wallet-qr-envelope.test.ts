// Wallet SDK: reading the QR code (docs/protocol.md#payment-qr-uris, URI vectors) and verifying envelopes.
import { fixturePath } from '../helpers/fixtures';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bytesToHex } from '@noble/hashes/utils.js';
import { encodeBase64 } from '../../lib/connect/base64';
import {
  EnvelopeError,
  UriError,
  WalletError,
  fetchPayment,
  paymentDisplay,
  readConnectQr,
  readPaymentQr,
  verifyPaymentEnvelope,
  envelopeFetchUrl,
  PLACEHOLDER_ICON,
} from '../../lib/wallet';
import { RELAY_H15, RELAY_PUBKEY, SHOP_ADDRESS, makePayment, signed } from '../helpers/connect-payment';

const V = JSON.parse(readFileSync(fixturePath('dogeconnect-uri-vectors.json'), 'utf8'));
const H = 'AAAAAAAAAAAAAAAAAAAA'; // 15 zero bytes, URL-safe Base64

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
  return 'no error';
}

describe('reading the QR code', () => {
  it('parses the vector URIs', () => {
    for (const v of V.parse_valid) {
      const p = readPaymentQr(v.uri);
      expect(p.kind === 'connect', v.name).toBe(v.expect.is_connect_uri);
      if (v.expect.amount) expect(p.amount).toBe(v.expect.amount);
      if (p.kind === 'connect') {
        expect(p.trimmedUrl).toBe(v.expect.connect_url);
        expect(p.envelopeUrl).toBe('https://' + v.expect.connect_url);
        if (v.expect.pubkey_hash15_hex) expect(bytesToHex(p.hash15)).toBe(v.expect.pubkey_hash15_hex);
      }
    }
  });

  it('refuses every invalid vector as a DogeConnect payment; dc or h alone falls back to a plain payment', () => {
    const expected: Record<string, string> = {
      'wrong scheme': 'bad_scheme',
      'bad base64 h': 'bad_h',
      'dc without h': 'not_connect',
      'h without dc': 'not_connect',
    };
    for (const v of V.parse_invalid) {
      expect(
        code(() => readConnectQr(v.uri)),
        v.name,
      ).toBe(expected[v.name]);
    }
    const fallback = readPaymentQr(V.parse_invalid.find((v: { name: string }) => v.name === 'dc without h').uri);
    expect(fallback).toMatchObject({ kind: 'plain', address: 'DPD7uK4B1kRmbfGmytBhG1DZjaMWNfbpwY', amount: '1' });
    expect(readPaymentQr(`dogecoin:DPD7uK4B1kRmbfGmytBhG1DZjaMWNfbpwY?amount=1&dc=&h=${H}`).kind).toBe('plain');
    expect(readPaymentQr('dogecoin:DPD7uK4B1kRmbfGmytBhG1DZjaMWNfbpwY?amount=1&dc=example.com%2Fdc%2F1&h=').kind).toBe('plain');
  });

  it('applies the h rules (Base64, 15 bytes) to both forms, with typed errors', () => {
    expect(code(() => readPaymentQr('dogecoin:DPD7uK4B1kRmbfGmytBhG1DZjaMWNfbpwY?dc=example.com&h=!!!'))).toBe('bad_h');
    expect(code(() => readPaymentQr('dogecoin:DPD7uK4B1kRmbfGmytBhG1DZjaMWNfbpwY?dc=example.com&h=AAAAAAAAAAAAAAAAAAA'))).toBe('h_length'); // 14 bytes
    expect(code(() => readPaymentQr('dogecoin:DPD7uK4B1kRmbfGmytBhG1DZjaMWNfbpwY?dc=example.com&h=AAAAAAAAAAAAAAAAAAAAAAAA'))).toBe(
      'h_length',
    ); // 18 bytes
    expect(code(() => readPaymentQr('dogeconnect:example.com/dc/1?h=%%%'))).toBe('bad_encoding');
    expect(code(() => readPaymentQr('dogeconnect:example.com/dc/1?h=AAAA'))).toBe('h_length');
    // standard Base64 with '+' and '/' is accepted too (docs/protocol.md#payment-qr-uris)
    expect(readPaymentQr('dogeconnect:example.com/dc/1?h=72b+LVh5K/mm7zyN9PXO').kind).toBe('connect');
    expect(() => readPaymentQr('dogeconnect:example.com/dc/1?h=!!!')).toThrow(UriError);
  });

  it('needs both the path and h on the dedicated scheme', () => {
    expect(code(() => readPaymentQr(`dogeconnect:?h=${H}`))).toBe('missing_path');
    expect(code(() => readPaymentQr('dogeconnect:example.com/dc/1'))).toBe('missing_h');
    expect(code(() => readPaymentQr('dogeconnect:example.com/dc/1?h='))).toBe('missing_h');
    const p = readConnectQr(`dogeconnect:example.com/dc/1?h=${H}`);
    expect(p.envelopeUrl).toBe('https://example.com/dc/1');
  });

  it('prefixes https://, http:// only with the explicit allowHttp option', () => {
    const p = readConnectQr(`dogecoin:${SHOP_ADDRESS}?amount=1&dc=127.0.0.1%3A3000%2Fdc%2Fabc&h=${H}`);
    expect(envelopeFetchUrl(p)).toBe('https://127.0.0.1:3000/dc/abc');
    expect(envelopeFetchUrl(p, { allowHttp: true })).toBe('http://127.0.0.1:3000/dc/abc');
  });
});

describe('verifying the envelope', () => {
  const payment = makePayment();
  const env = signed(payment);

  it('accepts a genuine envelope and ignores unknown meta keys', () => {
    const v = verifyPaymentEnvelope(
      signed(makePayment({ meta: { 'com.example.table': '7', weird: 'x', 'org.x.n': 5 as unknown as string } })),
      RELAY_H15,
    );
    expect(v.payment.meta).toEqual({ 'com.example.table': '7' });
    expect(bytesToHex(v.pubkey)).toBe(bytesToHex(RELAY_PUBKEY));
    expect(verifyPaymentEnvelope(env, RELAY_H15).payment.total).toBe('22.05');
  });

  it('refuses an h that does not match the relay key', () => {
    const other = new Uint8Array(RELAY_H15);
    other[14] ^= 1;
    expect(code(() => verifyPaymentEnvelope(env, other))).toBe('bad_hash');
  });

  it('refuses a tampered payload and a tampered signature', () => {
    const tampered = { ...makePayment(), total: '0.05' };
    const forgedPayload = { ...env, payload: encodeBase64(new TextEncoder().encode(JSON.stringify(tampered))) };
    expect(code(() => verifyPaymentEnvelope(forgedPayload, RELAY_H15))).toBe('bad_signature');
    const sig = env.sig.slice(0, -2) + (env.sig.endsWith('00') ? '01' : '00');
    expect(code(() => verifyPaymentEnvelope({ ...env, sig }, RELAY_H15))).toBe('bad_signature');
    // signed by another key that the QR does not name
    expect(code(() => verifyPaymentEnvelope(signed(makePayment(), new Uint8Array(32).fill(4)), RELAY_H15))).toBe('bad_hash');
  });

  it('refuses wrong pubkey and signature lengths', () => {
    expect(code(() => verifyPaymentEnvelope({ ...env, pubkey: '02' + env.pubkey }, RELAY_H15))).toBe('bad_pubkey_length');
    expect(code(() => verifyPaymentEnvelope({ ...env, pubkey: env.pubkey.slice(2) }, RELAY_H15))).toBe('bad_pubkey_length');
    expect(code(() => verifyPaymentEnvelope({ ...env, sig: env.sig + '00' }, RELAY_H15))).toBe('bad_sig_length');
    expect(code(() => verifyPaymentEnvelope({ ...env, sig: env.sig.slice(2) }, RELAY_H15))).toBe('bad_sig_length');
  });

  it('checks the version, the type and the payload schema', () => {
    expect(code(() => verifyPaymentEnvelope({ ...env, version: '2.0' }, RELAY_H15))).toBe('bad_version');
    expect(code(() => verifyPaymentEnvelope(signed({ ...makePayment(), type: 'invoice' }), RELAY_H15))).toBe('bad_payment');
    expect(code(() => verifyPaymentEnvelope(signed({ ...makePayment(), outputs: [] }), RELAY_H15))).toBe('bad_payment');
    expect(code(() => verifyPaymentEnvelope(signed({ ...makePayment(), total: '1.123456789' }), RELAY_H15))).toBe('bad_payment');
    expect(() => verifyPaymentEnvelope(signed({ ...makePayment(), fee_per_kb: 'x' }), RELAY_H15)).toThrow(EnvelopeError);
  });

  it('refuses a payment past issued + timeout', () => {
    const old = makePayment({ issued: new Date(Date.now() - 901_000).toISOString(), timeout: 900 });
    expect(code(() => verifyPaymentEnvelope(signed(old), RELAY_H15))).toBe('expired');
    const fresh = makePayment({ issued: new Date(Date.now() - 890_000).toISOString(), timeout: 900 });
    expect(verifyPaymentEnvelope(signed(fresh), RELAY_H15).payment.id).toBe('pay-1');
    expect(code(() => verifyPaymentEnvelope(signed(fresh), RELAY_H15, { now: () => Date.now() + 11_000 }))).toBe('expired');
  });

  it('refuses an http:// relay unless allowHttp', () => {
    const local = signed(makePayment({ relay: 'http://127.0.0.1:3000/relay' }));
    expect(code(() => verifyPaymentEnvelope(local, RELAY_H15))).toBe('insecure_url');
    expect(verifyPaymentEnvelope(local, RELAY_H15, { allowHttp: true }).payment.relay).toBe('http://127.0.0.1:3000/relay');
  });

  it('fetches with retries on network and decode failures, but not on a forged envelope', async () => {
    const qr = readConnectQr(`dogeconnect:relay.example/dc/pay-1?h=${encodeURIComponent(Buffer.from(RELAY_H15).toString('base64url'))}`);
    const answers: (() => Response)[] = [
      () => {
        throw new TypeError('fetch failed');
      },
      () => new Response('<html>oops', { status: 200 }),
      () => new Response('', { status: 502 }),
      () => Response.json(env),
    ];
    const urls: string[] = [];
    const fake = (async (url: string) => {
      urls.push(url);
      return answers.shift()!();
    }) as unknown as typeof fetch;
    const v = await fetchPayment(qr, { fetch: fake, retry: { attempts: 4, baseDelayMs: 1 } });
    expect(v.payment.id).toBe('pay-1');
    expect(urls).toEqual(Array(4).fill('https://relay.example/dc/pay-1'));

    let calls = 0;
    const forged = (async () => {
      calls++;
      return Response.json({ ...env, sig: '00'.repeat(64) });
    }) as unknown as typeof fetch;
    await expect(fetchPayment(qr, { fetch: forged, retry: { baseDelayMs: 1 } })).rejects.toMatchObject({ code: 'bad_signature' });
    expect(calls).toBe(1);

    let tries = 0;
    const down = (async () => {
      tries++;
      throw new TypeError('ECONNREFUSED');
    }) as unknown as typeof fetch;
    await expect(fetchPayment(qr, { fetch: down, retry: { attempts: 3, baseDelayMs: 1 } })).rejects.toBeInstanceOf(WalletError);
    expect(tries).toBe(3);
  });
});

describe('display model', () => {
  it('uses placeholders for missing optional fields and flags signing lines', () => {
    const v = verifyPaymentEnvelope(signed(makePayment()), RELAY_H15);
    const d = paymentDisplay(v.payment);
    expect(d.vendor).toMatchObject({ name: 'Coffee Shop', icon: PLACEHOLDER_ICON, iconIsPlaceholder: true, address: '—' });
    expect(d.orderReference).toBe('—');
    expect(d.orderId).toBe('INV-1');
    expect(d.total).toBe('22.05');
    expect(d.totalKoinu).toBe(2_205_000_000n);
    expect(d.lines.map((l) => [l.name, l.prominent, l.total])).toEqual([
      ['Coffee', false, '18.95'],
      ['Service', false, '1'],
      ['Loyalty stamp', true, null],
    ]);
    expect(d.lines[0].icon).toBe(PLACEHOLDER_ICON);
    expect(d.signsData).toBe(true);
    expect(d.outputs[1]).toEqual({ type: 'data', address: null, amount: null, data: '68656c6c6f' });
    expect(d.fiat).toBeNull();
    const plain = paymentDisplay(
      verifyPaymentEnvelope(
        signed(
          makePayment({
            items: [],
            outputs: [{ address: SHOP_ADDRESS, amount: '1' }],
            vendor_icon: 'https://x.example/i.png',
            fiat_total: '5.00',
            fiat_currency: 'USD',
          }),
        ),
        RELAY_H15,
      ).payment,
    );
    expect(plain.signsData).toBe(false);
    expect(plain.vendor).toMatchObject({ icon: 'https://x.example/i.png', iconIsPlaceholder: false });
    expect(plain.fiat).toEqual({ total: '5.00', tax: null, currency: 'USD' });
  });
});
