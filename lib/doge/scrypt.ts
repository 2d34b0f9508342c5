/**
 * The one scrypt call (Dogecoin/Litecoin proof-of-work hash). Native `node:crypto`; a browser
 * build would swap this file for `@noble/hashes/scrypt.js` with the same parameters.
 * @module
 */
import { scryptSync } from 'node:crypto';

/** scrypt(N=1024, r=1, p=1, dkLen=32) with `data` as both password and salt. */
export function scryptPowHash(data: Uint8Array): Uint8Array {
  const out = scryptSync(data, data, 32, { N: 1024, r: 1, p: 1 });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
