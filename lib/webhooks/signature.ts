// Webhook signatures (docs/api.md#webhooks): the X-Counter-Signature header is
//   t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
// The timestamp is signed together with the body so a captured request cannot be replayed
// outside the tolerance window. Receivers verify against the raw bytes they received, never
// against a re-serialised JSON value.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Counter-Signature';
export const DEFAULT_TOLERANCE_SEC = 300;

const HEX64 = /^[0-9a-fA-F]{64}$/;
const UNIX_SECONDS = /^\d{1,15}$/;

function mac(secret: string, t: number, rawBody: string | Uint8Array): Buffer {
  return createHmac('sha256', secret).update(`${t}.`, 'utf8').update(rawBody).digest();
}

/**
 * The X-Counter-Signature header value for `rawBody` sent at unix time `t` (seconds).
 * Throws on an empty secret or a timestamp that is not a non-negative integer: both are
 * programming errors, and signing with an empty key would make the signature worthless.
 */
export function signWebhook(secret: string, rawBody: string, t: number): string {
  if (typeof secret !== 'string' || secret.length === 0) throw new TypeError('webhook secret must be a non-empty string');
  if (!Number.isSafeInteger(t) || t < 0) throw new TypeError('webhook timestamp must be a non-negative integer (unix seconds)');
  return `t=${t},v1=${mac(secret, t, rawBody).toString('hex')}`;
}

export interface VerifyOptions {
  /** Current unix time in seconds. */
  now: number;
  /** Maximum allowed |now - t| in seconds (clock skew either way). Default 300. */
  toleranceSec?: number;
}

interface ParsedHeader {
  t: number;
  v1: string[];
}

/** Parses "t=..,v1=..[,v1=..]"; whitespace and unknown schemes are tolerated. Null if unusable. */
function parseSignatureHeader(header: string): ParsedHeader | null {
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== null || !UNIX_SECONDS.test(value)) return null; // duplicate or malformed: ambiguous
      t = Number(value);
    } else if (key === 'v1' && HEX64.test(value)) {
      v1.push(value.toLowerCase());
    }
  }
  if (t === null || v1.length === 0) return null;
  return { t, v1 };
}

/**
 * True when `header` carries a v1 signature of `rawBody` under `secret` whose timestamp is
 * within the tolerance of `now`. Several v1 entries are allowed (any may match). Constant-time
 * comparison; returns false, never throws, on any malformed input.
 */
export function verifyWebhookSignature(
  secret: string,
  rawBody: string | Uint8Array,
  header: string | string[] | null | undefined,
  opts: VerifyOptions,
): boolean {
  try {
    if (typeof secret !== 'string' || secret.length === 0) return false;
    if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) return false;
    const text = Array.isArray(header) ? header.join(',') : header;
    if (typeof text !== 'string' || text.length === 0 || text.length > 4096) return false;
    const tolerance = opts?.toleranceSec ?? DEFAULT_TOLERANCE_SEC;
    const now = opts?.now;
    if (typeof now !== 'number' || !Number.isFinite(now) || !(tolerance >= 0)) return false;
    const parsed = parseSignatureHeader(text);
    if (!parsed || Math.abs(now - parsed.t) > tolerance) return false;
    const expected = mac(secret, parsed.t, rawBody);
    let ok = false;
    for (const hex of parsed.v1) {
      if (timingSafeEqual(expected, Buffer.from(hex, 'hex'))) ok = true;
    }
    return ok;
  } catch {
    return false;
  }
}
