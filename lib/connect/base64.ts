import { base64, base64nopad, base64url, base64urlnopad } from '@scure/base';

export type Base64Alphabet = 'standard' | 'urlsafe';

/** Standard padded Base64 (RFC 4648 §4), as used for the envelope payload. */
export function encodeBase64(bytes: Uint8Array): string {
  return base64.encode(bytes);
}

/** URL-safe Base64 without padding (RFC 4648 §5), as used for `h` and relay tokens. */
export function encodeBase64UrlNoPad(bytes: Uint8Array): string {
  return base64urlnopad.encode(bytes);
}

/**
 * Decode Base64 in any of the allowed alphabets, with or without correct '=' padding.
 * Returns undefined on any error: characters outside one alphabet (mixing '+' and '-' is
 * rejected), wrong padding, an impossible length, or non-zero trailing bits (non-canonical).
 */
export function decodeBase64Loose(s: string, allowed: readonly Base64Alphabet[]): Uint8Array | undefined {
  if (typeof s !== 'string') return undefined;
  const m = /^([A-Za-z0-9+/_-]*)(={0,2})$/.exec(s);
  if (!m) return undefined;
  const [, body, pad] = m;
  const hasStd = /[+/]/.test(body);
  const hasUrl = /[-_]/.test(body);
  if (hasStd && hasUrl) return undefined;
  const alphabet: Base64Alphabet = hasUrl ? 'urlsafe' : 'standard';
  // characters common to both alphabets decode the same either way
  if (!allowed.includes(alphabet) && (hasStd || hasUrl)) return undefined;
  if (!allowed.length) return undefined;
  if (pad && (body.length + pad.length) % 4 !== 0) return undefined;
  if (body.length % 4 === 1) return undefined;
  try {
    if (pad) return alphabet === 'urlsafe' ? base64url.decode(s) : base64.decode(s);
    return alphabet === 'urlsafe' ? base64urlnopad.decode(body) : base64nopad.decode(body);
  } catch {
    return undefined;
  }
}
