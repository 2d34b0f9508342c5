// Fetching and verifying the Connect Envelope (docs/protocol.md#verifying-an-envelope):
//  1. the QR hash check: SHA-256(pubkey)[0:15] equals the decoded h (man-in-the-middle guard);
//  2. pubkey 32 bytes, sig 64 bytes, version "1.0";
//  3. BIP-340 Schnorr over SHA-256(SHA-256(payload bytes));
//  4. the payload JSON against the wallet's Connect Payment schema, type "payment" (lenient
//     where relays in the wild are sloppy at no risk to the user: see payment-schema.ts);
//  5. now < issued + timeout.
// Unknown or non-namespaced meta keys are ignored (dropped), never a reason to refuse.
import { verifyEnvelope, EnvelopeError, META_KEY_RE, type ConnectEnvelope, type ConnectPayment, type ConnectPaymentUri } from '../connect';
import { WalletError } from './errors';
import { parseWalletPayment } from './payment-schema';
import { envelopeFetchUrl, requireSecureUrl, type UrlOptions } from './qr';
import { withRetries, type RetryEnv, type RetryPolicy } from './retry';

export interface VerifiedPayment {
  payment: ConnectPayment;
  /** The relay's 32-byte x-only public key. */
  pubkey: Uint8Array;
  /** Unix ms after which the wallet must not pay: issued + timeout. */
  expiresAt: number;
  envelope: ConnectEnvelope;
}

export interface VerifyOptions extends UrlOptions {
  /** Clock, for tests (default Date.now). */
  now?: () => number;
}

/** Keep only namespaced string meta entries: wallets ignore what they do not recognise. */
function sanitizeMeta(json: unknown): unknown {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return json;
  const p = json as Record<string, unknown>;
  if (!('meta' in p)) return p;
  const meta: Record<string, string> = {};
  if (p.meta !== null && typeof p.meta === 'object' && !Array.isArray(p.meta)) {
    for (const [k, v] of Object.entries(p.meta as Record<string, unknown>)) if (META_KEY_RE.test(k) && typeof v === 'string') meta[k] = v;
  }
  return { ...p, meta };
}

/** The latest instant a JavaScript Date can hold (Unix ms). */
const MAX_DATE_MS = 8.64e15;

/**
 * The deadline of a payment: issued + timeout, in Unix ms, capped at the latest valid Date (some
 * relays send timeouts of 9999999999999 s, "never", which would otherwise be an Invalid Date).
 */
export function paymentDeadline(p: Pick<ConnectPayment, 'issued' | 'timeout'>): number {
  return Math.min(Date.parse(p.issued) + p.timeout * 1000, MAX_DATE_MS);
}

/** Throws WalletError 'expired' when the payment's timeout has passed. */
export function assertNotExpired(p: Pick<ConnectPayment, 'issued' | 'timeout'>, now: number = Date.now()): void {
  const deadline = paymentDeadline(p);
  if (!(now < deadline))
    throw new WalletError(
      'expired',
      `the payment expired at ${new Date(deadline).toISOString()}; a wallet must not pay after issued + timeout`,
    );
}

/**
 * Verify an envelope against the QR code's h. Throws EnvelopeError for every authenticity or
 * schema failure (codes bad_hash, bad_pubkey_length, bad_sig_length, bad_signature, bad_version,
 * bad_payment…), WalletError 'expired' past the timeout, 'insecure_url' for an http relay.
 */
export function verifyPaymentEnvelope(envelope: unknown, qrHash15: Uint8Array, opts: VerifyOptions = {}): VerifiedPayment {
  if (!(qrHash15 instanceof Uint8Array) || qrHash15.length !== 15) throw new TypeError('qrHash15 must be the 15 bytes decoded from h');
  const v = verifyEnvelope(envelope, { expectedHash15: qrHash15 });
  const r = parseWalletPayment(sanitizeMeta(v.payment));
  if (!r.success) {
    const issues = r.error.issues.map((i) => ({ path: i.path, message: i.message }));
    throw new EnvelopeError('bad_payment', `invalid payment: ${issues[0].path.join('.')}: ${issues[0].message}`, issues);
  }
  const payment = r.data;
  assertNotExpired(payment, (opts.now ?? Date.now)());
  requireSecureUrl(payment.relay, 'the relay URL', opts);
  return { payment, pubkey: v.pubkey, expiresAt: paymentDeadline(payment), envelope: envelope as ConnectEnvelope };
}

export interface FetchOptions extends VerifyOptions {
  fetch?: typeof fetch;
  retry?: RetryPolicy;
  retryEnv?: RetryEnv;
  /** Per-request timeout, ms (default 10 s). */
  timeoutMs?: number;
}

/**
 * Fetch the envelope named by a DogeConnect QR code, retrying a few times on network failures,
 * transient statuses and undecodable bodies (docs/protocol.md#verifying-an-envelope), then verify it. A verification failure
 * is final: a forged envelope does not become genuine by asking again.
 */
export async function fetchPayment(qr: ConnectPaymentUri, opts: FetchOptions = {}): Promise<VerifiedPayment> {
  const url = envelopeFetchUrl(qr, opts);
  requireSecureUrl(url, 'the envelope URL', opts);
  const f = opts.fetch ?? fetch;
  const envelope = await withRetries<unknown>(
    async () => {
      let res: Response;
      try {
        res = await f(url, {
          method: 'GET',
          headers: { Accept: 'application/json' },
          signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
        });
      } catch (e) {
        return { retry: new WalletError('fetch_failed', `could not fetch the envelope: ${(e as Error).message}`, { cause: e }) };
      }
      if (res.status === 404) return { fail: new WalletError('not_found', 'the relay does not know this payment', { httpStatus: 404 }) };
      if (!res.ok)
        return { retry: new WalletError('fetch_failed', `the envelope fetch answered HTTP ${res.status}`, { httpStatus: res.status }) };
      try {
        const body: unknown = JSON.parse(await res.text());
        if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Error('not a JSON object');
        return { done: body };
      } catch (e) {
        return { retry: new WalletError('fetch_failed', `the envelope does not decode: ${(e as Error).message}`, { cause: e }) };
      }
    },
    opts.retry,
    opts.retryEnv,
  );
  return verifyPaymentEnvelope(envelope, qr.hash15, opts);
}
