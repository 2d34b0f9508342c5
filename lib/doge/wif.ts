/**
 * Wallet Import Format private keys (for tests, devnet and the demo wallet).
 * @module
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base58checkDecode, base58checkEncode } from './base58';
import { concatBytes } from './bytes';
import { AddressError } from './errors';
import type { Network } from './network';
import { pubkeyToAddress } from './address';

export interface DecodedWif {
  readonly privateKey: Uint8Array;
  /** The key's public key is to be used in compressed (33-byte) form. */
  readonly compressed: boolean;
}

/** Decode a WIF for `network`. Throws {@link AddressError}. */
export function decodeWif(str: string, network: Network): DecodedWif {
  if (typeof str !== 'string') throw new AddressError('type', 'WIF must be a string');
  const payload = base58checkDecode(str);
  if (!payload) throw new AddressError('base58', 'invalid base58 or checksum');
  if (payload.length !== 33 && payload.length !== 34)
    throw new AddressError('length', `WIF payload is ${payload.length} bytes, expected 33 or 34`);
  if (payload[0] !== network.wif)
    throw new AddressError('version', `version byte 0x${payload[0]!.toString(16).padStart(2, '0')} is not a ${network.name} WIF`);
  const compressed = payload.length === 34;
  if (compressed && payload[33] !== 0x01) throw new AddressError('key', 'bad compression flag');
  const privateKey = payload.slice(1, 33);
  if (!secp256k1.utils.isValidSecretKey(privateKey)) throw new AddressError('key', 'secret key out of range');
  return { privateKey, compressed };
}

export function isValidWif(str: unknown, network: Network): boolean {
  try {
    decodeWif(str as string, network);
    return true;
  } catch {
    return false;
  }
}

export function encodeWif(privateKey: Uint8Array, compressed: boolean, network: Network): string {
  if (!secp256k1.utils.isValidSecretKey(privateKey)) throw new AddressError('key', 'secret key out of range');
  const parts = [Uint8Array.of(network.wif), privateKey];
  if (compressed) parts.push(Uint8Array.of(0x01));
  return base58checkEncode(concatBytes(...parts));
}

/** Public key of a WIF key, in the form its compression flag selects. */
export function wifToPublicKey(key: DecodedWif): Uint8Array {
  return secp256k1.getPublicKey(key.privateKey, key.compressed);
}

/** P2PKH address controlled by a WIF key. */
export function wifToAddress(str: string, network: Network): string {
  return pubkeyToAddress(wifToPublicKey(decodeWif(str, network)), network);
}
