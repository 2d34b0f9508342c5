import { schnorr } from '@noble/curves/secp256k1.js';

/** BIP-340 x-only public key (32 bytes) of a 32-byte secret key. Throws on an invalid key. */
export function schnorrPublicKey(secretKey: Uint8Array): Uint8Array {
  return schnorr.getPublicKey(secretKey);
}

/**
 * BIP-340 Schnorr signature (64 bytes) of `message` (any length). `auxRand` is the 32-byte
 * auxiliary randomness; when omitted, fresh random bytes are used.
 */
export function schnorrSign(message: Uint8Array, secretKey: Uint8Array, auxRand?: Uint8Array): Uint8Array {
  return schnorr.sign(message, secretKey, auxRand);
}

/**
 * BIP-340 verification. Never throws: wrong lengths, a public key that is not a valid
 * x coordinate, or out-of-range signature values all give false.
 */
export function schnorrVerify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (!(signature instanceof Uint8Array) || signature.length !== 64) return false;
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32) return false;
  if (!(message instanceof Uint8Array)) return false;
  try {
    return schnorr.verify(signature, message, publicKey);
  } catch {
    return false;
  }
}
