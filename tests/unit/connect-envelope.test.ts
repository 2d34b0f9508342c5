import { FIXTURES_DIR } from '../helpers/fixtures';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import {
  EnvelopeError,
  decodeH,
  pubkeyHash15,
  schnorrPublicKey,
  schnorrSign,
  schnorrVerify,
  sha256d,
  signEnvelope,
  verifyEnvelope,
  verifyPaymentEnvelope,
  type EnvelopeErrorCode,
} from '../../lib/connect';

const FIXTURES = FIXTURES_DIR;

type Bip340Row = {
  index: number;
  secretKey: string;
  publicKey: string;
  auxRand: string;
  message: string;
  signature: string;
  result: boolean;
  comment: string;
};
const rows: Bip340Row[] = readFileSync(path.join(FIXTURES, 'bip340-test-vectors.csv'), 'utf8')
  .trim()
  .split(/\r?\n/)
  .slice(1)
  .map((line) => {
    const c = line.split(',');
    return {
      index: Number(c[0]),
      secretKey: c[1],
      publicKey: c[2],
      auxRand: c[3],
      message: c[4],
      signature: c[5],
      result: c[6] === 'TRUE',
      comment: c.slice(7).join(','),
    };
  });

describe('BIP-340 test vectors', () => {
  it('fixture has 19 rows, 9 TRUE and 10 FALSE', () => {
    expect(rows).toHaveLength(19);
    expect(rows.filter((r) => r.result)).toHaveLength(9);
  });
  const signRows = rows.filter((r) => r.secretKey !== '');
  it.each(signRows)('sign row $index reproduces the signature and public key', (r) => {
    const sk = hexToBytes(r.secretKey);
    expect(bytesToHex(schnorrPublicKey(sk))).toBe(r.publicKey.toLowerCase());
    const sig = schnorrSign(hexToBytes(r.message), sk, hexToBytes(r.auxRand));
    expect(bytesToHex(sig)).toBe(r.signature.toLowerCase());
  });
  it.each(rows)('verify row $index gives $result ($comment)', (r) => {
    let result: boolean | undefined;
    expect(() => {
      result = schnorrVerify(hexToBytes(r.signature), hexToBytes(r.message), hexToBytes(r.publicKey));
    }).not.toThrow();
    expect(result).toBe(r.result);
  });
  it('schnorrVerify returns false (never throws) on wrong lengths', () => {
    const r = rows[1];
    const sig = hexToBytes(r.signature);
    const pub = hexToBytes(r.publicKey);
    const msg = hexToBytes(r.message);
    expect(schnorrVerify(sig, msg, pub)).toBe(true);
    expect(schnorrVerify(sig.slice(0, 63), msg, pub)).toBe(false);
    expect(schnorrVerify(sig, msg, pub.slice(1))).toBe(false);
    expect(schnorrVerify(sig, msg, new Uint8Array([2, ...pub]))).toBe(false);
    expect(schnorrVerify(sig, 'x' as unknown as Uint8Array, pub)).toBe(false);
  });
});

const SK = hexToBytes('b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d9045190cfef');
const PUB = schnorrPublicKey(SK);
const AUX = new Uint8Array(32).fill(7);
const PAYMENT = {
  type: 'payment',
  id: 'pay_1',
  issued: '2025-01-02T03:04:05.000Z',
  timeout: 900,
  relay: 'https://example.com/relay',
  fee_per_kb: '0.01',
  max_size: 100000,
  vendor_name: 'Café ☕',
  total: '12.25',
  items: [{ type: 'item', id: 'a', name: 'A', count: 1, unit: '12.25', total: '12.25' }],
  outputs: [{ type: 'p2pkh', address: 'DPD7uK4B1kRmbfGmytBhG1DZjaMWNfbpwY', amount: '12.25' }],
};

function expectEnvelopeError(fn: () => unknown, code: EnvelopeErrorCode) {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(EnvelopeError);
  expect((err as EnvelopeError).code).toBe(code);
}
const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
const flipHex = (hex: string, i: number) => hex.slice(0, i) + (parseInt(hex[i], 16) ^ 1).toString(16) + hex.slice(i + 1);

describe('signEnvelope', () => {
  const { envelope, payloadBytes } = signEnvelope(PAYMENT, SK, AUX);
  it('payload is standard padded Base64 of the JSON text with non-ASCII and > ? ~ escaped (docs/relay.md)', () => {
    const text = new TextDecoder().decode(payloadBytes);
    expect(text).toBe(JSON.stringify(PAYMENT).replace('Café ☕', 'Caf\\u00e9 \\u2615'));
    expect(JSON.parse(text)).toEqual(PAYMENT);
    expect(envelope.payload).toBe(Buffer.from(text, 'ascii').toString('base64'));
    expect(envelope.version).toBe('1.0');
  });
  it('pubkey is the 32-byte x-only key in lowercase hex', () => {
    expect(envelope.pubkey).toBe('dff1d77f2a671c5f36183726db2341be58feae1da2deced843240f7b502ba659');
  });
  it('sig is BIP-340 over SHA-256(SHA-256(payload bytes)), deterministic for a given aux_rand', () => {
    const msg = sha256(sha256(payloadBytes));
    expect(bytesToHex(sha256d(payloadBytes))).toBe(bytesToHex(msg));
    expect(envelope.sig).toBe(bytesToHex(schnorrSign(msg, SK, AUX)));
    expect(schnorrVerify(hexToBytes(envelope.sig), msg, PUB)).toBe(true);
    // not a signature over the single hash or the raw bytes
    expect(schnorrVerify(hexToBytes(envelope.sig), sha256(payloadBytes), PUB)).toBe(false);
    expect(signEnvelope(PAYMENT, SK, AUX).envelope.sig).toBe(envelope.sig);
  });
  it('uses fresh randomness when aux_rand is omitted, and still verifies', () => {
    const a = signEnvelope(PAYMENT, SK).envelope;
    const b = signEnvelope(PAYMENT, SK).envelope;
    expect(a.sig).not.toBe(b.sig);
    expect(() => verifyEnvelope(a)).not.toThrow();
  });
  it('rejects a non-object payment', () => {
    expect(() => signEnvelope([] as unknown as object, SK)).toThrow(TypeError);
    expect(() => signEnvelope(null as unknown as object, SK)).toThrow(TypeError);
  });
});

describe('verifyEnvelope', () => {
  const { envelope, payloadBytes } = signEnvelope(PAYMENT, SK, AUX);
  const h = pubkeyHash15(PUB);

  it('round-trips: returns the parsed payment, the exact bytes and the pubkey', () => {
    const v = verifyEnvelope(envelope, { expectedHash15: h });
    expect(v.payment).toEqual(PAYMENT);
    expect(bytesToHex(v.payloadBytes)).toBe(bytesToHex(payloadBytes));
    expect(bytesToHex(v.pubkey)).toBe(bytesToHex(PUB));
  });
  it('accepts uppercase hex and unpadded payload Base64', () => {
    const env = {
      ...envelope,
      pubkey: envelope.pubkey.toUpperCase(),
      sig: envelope.sig.toUpperCase(),
      payload: envelope.payload.replace(/=+$/, ''),
    };
    expect(verifyEnvelope(env).payment).toEqual(PAYMENT);
  });
  it('pubkeyHash15 is SHA-256(pubkey)[0:15] and matches the fixture vector', () => {
    expect(bytesToHex(h)).toBe(bytesToHex(sha256(PUB).slice(0, 15)));
    const fx = hexToBytes('6c52b17752f469c5411b977ba64725d40174d16e780b709b2aff68e0f5abfc50');
    expect(bytesToHex(pubkeyHash15(fx))).toBe('ef66fe2d58792bf9a6ef3c8df4f5ce');
    expect(() => pubkeyHash15(fx.slice(1))).toThrow(TypeError);
  });

  it('tampered payload byte => bad_signature', () => {
    const bytes = payloadBytes.slice();
    bytes[10] ^= 0x01;
    expectEnvelopeError(() => verifyEnvelope({ ...envelope, payload: b64(bytes) }), 'bad_signature');
  });
  it('tampered sig => bad_signature', () => {
    for (const i of [0, 63, 64, 127]) {
      expectEnvelopeError(() => verifyEnvelope({ ...envelope, sig: flipHex(envelope.sig, i) }), 'bad_signature');
    }
  });
  it('other valid pubkey => bad_signature (no h check) or bad_hash (with h)', () => {
    const other = bytesToHex(schnorrPublicKey(new Uint8Array(32).fill(9)));
    expectEnvelopeError(() => verifyEnvelope({ ...envelope, pubkey: other }), 'bad_signature');
    expectEnvelopeError(() => verifyEnvelope({ ...envelope, pubkey: other }, { expectedHash15: h }), 'bad_hash');
  });
  it('a pubkey that is not on the curve => bad_signature, not a crash', () => {
    const notOnCurve = 'eefdea4cdb677750a420fee807eacf21eb9898ae79b9768766e4faa04a2d4a34';
    expectEnvelopeError(() => verifyEnvelope({ ...envelope, pubkey: notOnCurve }), 'bad_signature');
    expectEnvelopeError(() => verifyEnvelope({ ...envelope, pubkey: 'ff'.repeat(32) }), 'bad_signature');
  });
  it('tampered h => bad_hash', () => {
    const wrong = h.slice();
    wrong[14] ^= 0x80;
    expectEnvelopeError(() => verifyEnvelope(envelope, { expectedHash15: wrong }), 'bad_hash');
    expect(() => verifyEnvelope(envelope, { expectedHash15: decodeH('72b-LVh5K_mm7zyN9PXO') })).toThrow(EnvelopeError);
    expect(() => verifyEnvelope(envelope, { expectedHash15: h.slice(0, 14) })).toThrow(TypeError);
  });
  it.each([
    [{ version: '1.1' }, 'bad_version'],
    [{ version: '1' }, 'bad_version'],
    [{ version: 1 }, 'bad_envelope'],
    [{ pubkey: undefined }, 'bad_envelope'],
    [{ pubkey: 'zz'.repeat(32) }, 'bad_pubkey'],
    [{ pubkey: 'abc' }, 'bad_pubkey'],
    [{ pubkey: 'ab'.repeat(31) }, 'bad_pubkey_length'],
    [{ pubkey: '02' + 'ab'.repeat(32) }, 'bad_pubkey_length'],
    [{ sig: 'gg'.repeat(64) }, 'bad_sig'],
    [{ sig: 'ab'.repeat(63) }, 'bad_sig_length'],
    [{ sig: 'ab'.repeat(65) }, 'bad_sig_length'],
    [{ payload: 'e30-' }, 'bad_payload_base64'],
    [{ payload: 'e30===' }, 'bad_payload_base64'],
    [{ payload: 'e3 0=' }, 'bad_payload_base64'],
    [{ payload: 12 }, 'bad_envelope'],
  ] as const)('structural error %j => %s', (patch, code) => {
    expectEnvelopeError(() => verifyEnvelope({ ...envelope, ...patch }), code);
  });
  it('non-object envelopes => bad_envelope', () => {
    for (const e of [null, undefined, 'x', 1, [envelope]]) expectEnvelopeError(() => verifyEnvelope(e), 'bad_envelope');
  });
  it('validly signed non-JSON or non-UTF-8 payload => bad_payload_json', () => {
    for (const bytes of [utf8ToBytes('{"type":'), new Uint8Array([0x22, 0xff, 0x22])]) {
      const sig = bytesToHex(schnorrSign(sha256d(bytes), SK, AUX));
      const env = { version: '1.0', payload: b64(bytes), pubkey: bytesToHex(PUB), sig };
      expectEnvelopeError(() => verifyEnvelope(env), 'bad_payload_json');
    }
  });
});

describe('verifyPaymentEnvelope', () => {
  it('returns the schema-validated payment', () => {
    const { envelope } = signEnvelope(PAYMENT, SK, AUX);
    const v = verifyPaymentEnvelope(envelope, { expectedHash15: pubkeyHash15(PUB) });
    expect(v.payment.total).toBe('12.25');
    expect(v.payment.outputs[0].type).toBe('p2pkh');
  });
  it('a validly signed but invalid payment => bad_payment with issues', () => {
    const { envelope } = signEnvelope({ ...PAYMENT, total: '0' }, SK, AUX);
    let err: EnvelopeError | undefined;
    try {
      verifyPaymentEnvelope(envelope);
    } catch (e) {
      err = e as EnvelopeError;
    }
    expect(err?.code).toBe('bad_payment');
    expect(err?.issues?.some((i) => i.path.join('.') === 'total')).toBe(true);
  });
  it('signature is checked before the payment is parsed', () => {
    const { envelope } = signEnvelope({ ...PAYMENT, total: '0' }, SK, AUX);
    expectEnvelopeError(() => verifyPaymentEnvelope({ ...envelope, sig: flipHex(envelope.sig, 5) }), 'bad_signature');
  });
});
