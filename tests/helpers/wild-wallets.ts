// Wallets as they exist in the wild, written here from their described behaviour (docs/relay.md), not
// from their code and not with lib/wallet: the tests use them to prove that Counter serves every
// customer, not just wallets built from its own SDK.
//
// - A DogeConnect wallet that decodes the envelope payload with a strict URL-safe Base64
//   decoder, which throws on '+' or '/' (as java.util.Base64.getUrlDecoder() does).
// - A DogeConnect wallet that never sends relay_token in its submission.
// - An ordinary wallet: it reads only the address and amount of a dogecoin: URI, ignoring dc/h.
import { schnorr } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';

export type PayloadDecoder = 'urlsafe-strict' | 'standard';
export type TokenPolicy = 'omit' | 'echo' | { send: string };

/** The decoder of the Android wallet: URL-safe alphabet only, '=' padding allowed, anything else throws. */
export function urlSafeStrictDecode(s: string): Uint8Array {
  for (const c of s) {
    if (!/[A-Za-z0-9_=-]/.test(c)) throw new Error(`Illegal base64 character ${c.charCodeAt(0).toString(16)}`);
  }
  const body = s.replace(/=+$/, '');
  if (body.includes('=') || body.length % 4 === 1) throw new Error('Illegal base64 length or padding');
  return new Uint8Array(Buffer.from(body, 'base64url'));
}

function standardDecode(s: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) throw new Error('not standard Base64');
  return new Uint8Array(Buffer.from(s, 'base64'));
}

const hexBytes = (h: string) => new Uint8Array(Buffer.from(h, 'hex'));
const sha256d = (b: Uint8Array) => sha256(sha256(b));

/** What a DogeConnect wallet reads from the QR text: the envelope URL and the 15-byte key hash. */
export function scanConnectQr(text: string, scheme = 'http://'): { envelopeUrl: string; h: Uint8Array } {
  const m = /^(dogecoin|dogeconnect):([^?]*)\?(.*)$/i.exec(text.trim());
  if (!m) throw new Error('not a payment URI');
  const params = new URLSearchParams(m[3]);
  const trimmed = m[1].toLowerCase() === 'dogeconnect' ? m[2] : params.get('dc');
  const h = params.get('h');
  if (!trimmed || !h) throw new Error('no DogeConnect envelope in this QR code');
  const hBytes = new Uint8Array(Buffer.from(h.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
  if (hBytes.length !== 15) throw new Error('h is not 15 bytes');
  return { envelopeUrl: scheme + decodeURIComponent(trimmed), h: hBytes };
}

/** An ordinary wallet: the address and the amount of a dogecoin: URI, nothing else. */
export function scanOrdinaryQr(text: string): { address: string; amount: string } {
  const m = /^dogecoin:([1-9A-HJ-NP-Za-km-z]+)(?:\?(.*))?$/.exec(text.trim());
  if (!m) throw new Error(`an ordinary wallet cannot read ${JSON.stringify(text.slice(0, 40))}`);
  const amount = new URLSearchParams(m[2] ?? '').get('amount');
  if (!amount || !/^\d+(\.\d{1,8})?$/.test(amount)) throw new Error('no amount');
  return { address: m[1], amount };
}

export interface WildPayment {
  id: string;
  relay: string;
  relay_token?: string;
  outputs: { type?: string; address?: string; amount?: string; data?: string }[];
  [k: string]: unknown;
}

/** Fetch the envelope, check the key hash and the signature, decode the payload as this wallet does. */
export async function fetchAndVerify(qrText: string, decoder: PayloadDecoder): Promise<{ payment: WildPayment; payloadBytes: Uint8Array }> {
  const { envelopeUrl, h } = scanConnectQr(qrText);
  const res = await fetch(envelopeUrl);
  if (res.status !== 200) throw new Error(`envelope fetch answered ${res.status}`);
  const env = (await res.json()) as { version: string; payload: string; pubkey: string; sig: string };
  if (env.version !== '1.0') throw new Error('unknown envelope version');
  const pubkey = hexBytes(env.pubkey);
  if (pubkey.length !== 32) throw new Error('pubkey is not 32 bytes');
  if (!Buffer.from(sha256(pubkey).slice(0, 15)).equals(Buffer.from(h))) throw new Error('relay key does not match h');
  const payloadBytes = decoder === 'urlsafe-strict' ? urlSafeStrictDecode(env.payload) : standardDecode(env.payload);
  if (!schnorr.verify(hexBytes(env.sig), sha256d(payloadBytes), pubkey)) throw new Error('bad envelope signature');
  const payment = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payloadBytes)) as WildPayment;
  return { payment, payloadBytes };
}

/** POST {relay}/pay as this wallet does; the status and JSON body. */
export async function submitAsWallet(
  payment: WildPayment,
  tx: string,
  token: TokenPolicy,
): Promise<{ status: number; body: { id?: string; status?: string; txid?: string; [field: string]: unknown } | null }> {
  const body: Record<string, string> = { id: payment.id, tx };
  if (token === 'echo' && payment.relay_token) body.relay_token = payment.relay_token;
  if (typeof token === 'object') body.relay_token = token.send;
  const r = await fetch(`${payment.relay}/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: await r.json().catch(() => null) };
}
