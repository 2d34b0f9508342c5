import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { encodeBase64UrlNoPad } from './base64';
import { constantTimeEqual } from './bytes';
import { isRfc3339 } from './fields';

// Opaque relay_token: "v1." + base64url(HMAC-SHA256(secret, DOMAIN + id + "\n" + issued)),
// where issued is normalised to Date.toISOString() (millisecond UTC), so a Date and any RFC 3339
// string for the same instant give the same token. The wallet echoes it verbatim.

const PREFIX = 'v1.';
const DOMAIN = 'counter-relay-token/v1\n';
/** Minimum HMAC key length in bytes. */
export const RELAY_TOKEN_MIN_SECRET = 16;
/** Longest token verifyRelayToken will look at (a v1 token is 46 characters). */
const MAX_TOKEN_LENGTH = 256;

function canonicalIssued(issued: Date | string): string | undefined {
  let d: Date;
  if (issued instanceof Date) d = issued;
  else if (isRfc3339(issued)) d = new Date(issued);
  else return undefined;
  const t = d.getTime();
  return Number.isFinite(t) ? d.toISOString() : undefined;
}

function validId(id: unknown): id is string {
  return typeof id === 'string' && id !== '' && !id.includes('\n');
}

function mac(secret: Uint8Array, id: string, issuedIso: string): string {
  return PREFIX + encodeBase64UrlNoPad(hmac(sha256, secret, utf8ToBytes(DOMAIN + id + '\n' + issuedIso)));
}

/**
 * Issue a relay token binding the payment id and issue time.
 * Throws TypeError on a secret shorter than 16 bytes, an empty id or one containing '\n',
 * or an issue time that is not a valid Date / RFC 3339 string.
 */
export function issueRelayToken(secret: Uint8Array, id: string, issued: Date | string): string {
  if (!(secret instanceof Uint8Array) || secret.length < RELAY_TOKEN_MIN_SECRET) {
    throw new TypeError(`relay token secret must be at least ${RELAY_TOKEN_MIN_SECRET} bytes`);
  }
  if (!validId(id)) throw new TypeError('payment id must be a non-empty string without newlines');
  const iso = canonicalIssued(issued);
  if (iso === undefined) throw new TypeError('issued must be a valid Date or RFC 3339 timestamp');
  return mac(secret, id, iso);
}

/**
 * Check a relay token in constant time (in the expected token's length). Never throws:
 * garbage of any type, a bad secret, id or time all give false.
 */
export function verifyRelayToken(secret: Uint8Array, id: string, issued: Date | string, token: unknown): boolean {
  try {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return false;
    const expected = issueRelayToken(secret, id, issued);
    return constantTimeEqual(utf8ToBytes(expected), utf8ToBytes(token));
  } catch {
    return false;
  }
}
