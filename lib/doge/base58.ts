/**
 * Base58Check (4-byte double-SHA256 checksum) as used by addresses, WIF and BIP32 keys.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';

const coder = createBase58check(sha256);

export function base58checkEncode(payload: Uint8Array): string {
  return coder.encode(payload);
}

/** Decoded payload (version byte(s) included), or `null` on bad characters or checksum. */
export function base58checkDecode(str: string): Uint8Array | null {
  if (typeof str !== 'string' || str.length === 0 || str.length > 200) return null;
  try {
    return coder.decode(str);
  } catch {
    return null;
  }
}
