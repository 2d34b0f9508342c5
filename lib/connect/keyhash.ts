import { sha256 } from '@noble/hashes/sha2.js';
import { decodeBase64Loose, encodeBase64UrlNoPad } from './base64';
import { UriError } from './errors';

/** Length of the QR `h` value in bytes. */
export const HASH15_LENGTH = 15;

/** First 15 bytes of SHA-256 of the relay's 32-byte x-only public key (the QR `h`, decoded). */
export function pubkeyHash15(pubkey32: Uint8Array): Uint8Array {
  if (!(pubkey32 instanceof Uint8Array) || pubkey32.length !== 32) {
    throw new TypeError('relay public key must be 32 bytes (x-only)');
  }
  return sha256(pubkey32).slice(0, HASH15_LENGTH);
}

/** `h` as emitted in URIs: URL-safe Base64 without padding (20 characters). */
export function encodeH(hash15: Uint8Array): string {
  if (!(hash15 instanceof Uint8Array) || hash15.length !== HASH15_LENGTH) {
    throw new TypeError('h must be 15 bytes');
  }
  return encodeBase64UrlNoPad(hash15);
}

/**
 * Decode an `h` value: URL-safe or standard Base64, padded or not.
 * Throws UriError 'bad_h' when it is not Base64, 'h_length' when it is not exactly 15 bytes.
 */
export function decodeH(h: string): Uint8Array {
  const bytes = decodeBase64Loose(h, ['urlsafe', 'standard']);
  if (!bytes) throw new UriError('bad_h', 'h is not valid Base64');
  if (bytes.length !== HASH15_LENGTH) {
    throw new UriError('h_length', `h must decode to ${HASH15_LENGTH} bytes, got ${bytes.length}`);
  }
  return bytes;
}
