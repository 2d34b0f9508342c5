import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { decodeBase64Loose, encodeBase64 } from './base64';
import { constantTimeEqual, hexToBytesOrUndefined, sha256d } from './bytes';
import { EnvelopeError } from './errors';
import { HASH15_LENGTH, pubkeyHash15 } from './keyhash';
import { payloadJson } from './payload-json';
import { ConnectPaymentSchema, ENVELOPE_VERSION, type ConnectEnvelope, type ConnectPayment } from './schemas';
import { schnorrPublicKey, schnorrSign, schnorrVerify } from './schnorr';

export type SignedEnvelope = {
  envelope: ConnectEnvelope;
  /** The exact signed JSON bytes (what `payload` encodes). */
  payloadBytes: Uint8Array;
};

/**
 * Sign a Connect Payment. payload = standard padded Base64 of the payment's JSON, written with
 * payloadJson (ASCII only, `> ? ~` escaped, so the Base64 text has no `+` or `/`);
 * sig = BIP-340 Schnorr over SHA-256(SHA-256(payload bytes)); pubkey = 32-byte x-only key, hex.
 * The payment is not validated here: validate it with ConnectPaymentSchema first.
 */
export function signEnvelope(payment: object, secretKey: Uint8Array, auxRand?: Uint8Array): SignedEnvelope {
  if (payment === null || typeof payment !== 'object' || Array.isArray(payment)) {
    throw new TypeError('payment must be a JSON object');
  }
  const payloadBytes = utf8ToBytes(payloadJson(payment));
  const sig = schnorrSign(sha256d(payloadBytes), secretKey, auxRand);
  return {
    envelope: {
      version: ENVELOPE_VERSION,
      payload: encodeBase64(payloadBytes),
      pubkey: bytesToHex(schnorrPublicKey(secretKey)),
      sig: bytesToHex(sig),
    },
    payloadBytes,
  };
}

export type VerifyEnvelopeOptions = {
  /** The 15 bytes decoded from the QR `h`; when given, SHA-256(pubkey)[0:15] must match. */
  expectedHash15?: Uint8Array;
};

export type VerifiedEnvelope = {
  /** JSON.parse of the payload (not schema-validated; see verifyPaymentEnvelope). */
  payment: unknown;
  payloadBytes: Uint8Array;
  pubkey: Uint8Array;
};

function field(env: Record<string, unknown>, name: string): string {
  const v = env[name];
  if (typeof v !== 'string') throw new EnvelopeError('bad_envelope', `envelope ${name} must be a string`);
  return v;
}

/**
 * Verify a Connect Envelope (docs/protocol.md#verifying-an-envelope): version, pubkey and sig lengths, the QR hash check,
 * the BIP-340 signature over SHA-256d(payload bytes), then JSON parsing.
 * Throws EnvelopeError; an invalid public key (not on the curve) is 'bad_signature'.
 */
export function verifyEnvelope(env: unknown, opts: VerifyEnvelopeOptions = {}): VerifiedEnvelope {
  if (env === null || typeof env !== 'object' || Array.isArray(env)) {
    throw new EnvelopeError('bad_envelope', 'envelope must be a JSON object');
  }
  const e = env as Record<string, unknown>;
  const version = field(e, 'version');
  if (version !== ENVELOPE_VERSION) throw new EnvelopeError('bad_version', `unsupported envelope version ${JSON.stringify(version)}`);
  const pubkey = hexToBytesOrUndefined(field(e, 'pubkey'));
  if (!pubkey) throw new EnvelopeError('bad_pubkey', 'pubkey is not hex');
  if (pubkey.length !== 32) throw new EnvelopeError('bad_pubkey_length', `pubkey must be 32 bytes, got ${pubkey.length}`);
  const sig = hexToBytesOrUndefined(field(e, 'sig'));
  if (!sig) throw new EnvelopeError('bad_sig', 'sig is not hex');
  if (sig.length !== 64) throw new EnvelopeError('bad_sig_length', `sig must be 64 bytes, got ${sig.length}`);
  const payloadBytes = decodeBase64Loose(field(e, 'payload'), ['standard']);
  if (!payloadBytes) throw new EnvelopeError('bad_payload_base64', 'payload is not standard Base64');
  if (opts.expectedHash15 !== undefined) {
    const expected = opts.expectedHash15;
    if (!(expected instanceof Uint8Array) || expected.length !== HASH15_LENGTH) {
      throw new TypeError('expectedHash15 must be 15 bytes');
    }
    if (!constantTimeEqual(expected, pubkeyHash15(pubkey))) {
      throw new EnvelopeError('bad_hash', 'relay public key does not match the QR code hash');
    }
  }
  if (!schnorrVerify(sig, sha256d(payloadBytes), pubkey)) {
    throw new EnvelopeError('bad_signature', 'envelope signature verification failed');
  }
  let payment: unknown;
  try {
    payment = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payloadBytes));
  } catch {
    throw new EnvelopeError('bad_payload_json', 'payload is not UTF-8 JSON');
  }
  return { payment, payloadBytes, pubkey };
}

/** verifyEnvelope, then validate the payload as a Connect Payment ('bad_payment' on failure). */
export function verifyPaymentEnvelope(
  env: unknown,
  opts: VerifyEnvelopeOptions = {},
): Omit<VerifiedEnvelope, 'payment'> & { payment: ConnectPayment } {
  const v = verifyEnvelope(env, opts);
  const r = ConnectPaymentSchema.safeParse(v.payment);
  if (!r.success) {
    const issues = r.error.issues.map((i) => ({ path: i.path, message: i.message }));
    const first = issues[0];
    throw new EnvelopeError('bad_payment', `invalid payment: ${first.path.join('.')}: ${first.message}`, issues);
  }
  return { ...v, payment: r.data };
}
