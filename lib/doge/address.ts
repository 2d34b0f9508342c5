/**
 * Base58Check P2PKH / P2SH addresses.
 * @module
 */
import { base58checkDecode, base58checkEncode } from './base58';
import { concatBytes, hash160 } from './bytes';
import { AddressError } from './errors';
import type { Network } from './network';
import { classifyScript, p2pkhScript, p2shScript } from './script';

export type AddressType = 'p2pkh' | 'p2sh';

export interface DecodedAddress {
  readonly type: AddressType;
  readonly hash160: Uint8Array;
}

/** Encode a 20-byte hash as an address of `type` on `network`. */
export function encodeAddress(type: AddressType, hash: Uint8Array, network: Network): string {
  if (!(hash instanceof Uint8Array) || hash.length !== 20) throw new AddressError('length', 'address hash must be 20 bytes');
  const version = type === 'p2pkh' ? network.pubKeyHash : network.scriptHash;
  return base58checkEncode(concatBytes(Uint8Array.of(version), hash));
}

/** Decode an address for `network`. Throws {@link AddressError} with a specific code. */
export function decodeAddress(str: string, network: Network): DecodedAddress {
  if (typeof str !== 'string') throw new AddressError('type', 'address must be a string');
  const payload = base58checkDecode(str);
  if (!payload) throw new AddressError('base58', 'invalid base58 or checksum');
  if (payload.length !== 21) throw new AddressError('length', `address payload is ${payload.length} bytes, expected 21`);
  const version = payload[0];
  const hash = payload.slice(1);
  if (version === network.pubKeyHash) return { type: 'p2pkh', hash160: hash };
  if (version === network.scriptHash) return { type: 'p2sh', hash160: hash };
  throw new AddressError('version', `version byte 0x${version!.toString(16).padStart(2, '0')} is not a ${network.name} address`);
}

export function isValidAddress(str: unknown, network: Network): boolean {
  try {
    decodeAddress(str as string, network);
    return true;
  } catch {
    return false;
  }
}

/** scriptPubKey paying to `address`. */
export function addressToScript(address: string, network: Network): Uint8Array {
  const { type, hash160: h } = decodeAddress(address, network);
  return type === 'p2pkh' ? p2pkhScript(h) : p2shScript(h);
}

/** Address of a P2PKH / P2SH scriptPubKey, or `null` for anything else (P2PK included). */
export function scriptToAddress(script: Uint8Array, network: Network): string | null {
  const info = classifyScript(script);
  if (info.type === 'p2pkh' || info.type === 'p2sh') return encodeAddress(info.type, info.hash160, network);
  return null;
}

/** P2PKH address of a serialised public key (33 or 65 bytes, as given). */
export function pubkeyToAddress(pubkey: Uint8Array, network: Network): string {
  return encodeAddress('p2pkh', hash160(pubkey), network);
}
