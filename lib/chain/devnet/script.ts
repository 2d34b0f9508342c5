// Script checks for the devnet chain: legacy (pre-segwit) signature hashes and P2PKH spends, as
// Dogecoin Core verifies them (SIGHASH_ALL; DER ECDSA over secp256k1, low-S as policy). Pure.
import { createHash, createPublicKey, verify as nodeVerify } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ByteWriter, concatBytes, equalBytes, hash160, sha256d, classifyScript, decodeScript, encodeTx, type RawTx } from '../../doge';

export const SIGHASH_ALL = 0x01;

/** The serialisation a legacy input signs: other scriptSigs emptied, this one set to `scriptCode`. */
function legacySighashPreimage(tx: RawTx, index: number, scriptCode: Uint8Array, hashType: number): Uint8Array {
  const copy: RawTx = {
    ...tx,
    inputs: tx.inputs.map((inp, j) => ({ ...inp, scriptSig: j === index ? scriptCode : new Uint8Array(0) })),
  };
  const type = new ByteWriter().u32le(hashType >>> 0).finish();
  return concatBytes(encodeTx(copy), type);
}

/** SignatureHash for a legacy input: sha256d of its preimage. */
export function legacySighash(tx: RawTx, index: number, scriptCode: Uint8Array, hashType: number): Uint8Array {
  return sha256d(legacySighashPreimage(tx, index, scriptCode, hashType));
}

/** DER SubjectPublicKeyInfo prefixes for secp256k1 public keys (compressed, uncompressed). */
const SPKI_PREFIX: Record<number, Buffer> = {
  33: Buffer.from('3036301006072a8648ce3d020106052b8104000a032200', 'hex'),
  65: Buffer.from('3056301006072a8648ce3d020106052b8104000a034200', 'hex'),
};

/** An ECDSA check still to run: `sig` (strict DER, low S: already checked) over sha256d(preimage) by `pubkey`. */
export interface SigCheck {
  /** The signature as r‖s (64 bytes). */
  compact: Uint8Array;
  der: Uint8Array;
  preimage: Uint8Array;
  pubkey: Uint8Array;
}

/** The DER SubjectPublicKeyInfo OpenSSL takes for a secp256k1 key, or null for another length. */
export function spkiOf(pubkey: Uint8Array): Uint8Array | null {
  const prefix = SPKI_PREFIX[pubkey.length];
  if (!prefix) return null;
  // Its own buffer (not a slice of Node's shared pool): it is posted to the signature worker,
  // which would otherwise receive a copy of the whole pool.
  const out = new Uint8Array(prefix.length + pubkey.length);
  out.set(prefix);
  out.set(pubkey, prefix.length);
  return out;
}

/**
 * The OpenSSL half of a signature check (node:crypto): true/false, or null when OpenSSL
 * refuses the key (not on the curve, or a build without secp256k1) and noble must decide.
 * OpenSSL hashes what it is given once, so it gets sha256(preimage). Also run in the
 * signature worker (sig-verifier.ts), which has its own copy of these lines.
 */
function opensslVerify(spki: Uint8Array, preimage: Uint8Array, compact: Uint8Array): boolean | null {
  try {
    const key = createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
    const once = createHash('sha256').update(preimage).digest();
    return nodeVerify('sha256', once, { key, dsaEncoding: 'ieee-p1363' }, compact);
  } catch {
    return null;
  }
}

/** noble's verdict on a check (the fallback when OpenSSL refuses the key). */
export function nobleVerify(c: SigCheck): boolean {
  try {
    return secp256k1.verify(c.der, sha256d(c.preimage), c.pubkey, { prehash: false, format: 'der', lowS: true });
  } catch {
    return false;
  }
}

/**
 * ECDSA over sha256d(preimage), as noble's verify with strict DER and low-S, but the curve
 * arithmetic done by OpenSSL (node:crypto), about 3× faster than noble here: this check was
 * the largest single cost of a devnet broadcast in the `pay` benchmark's profile. Falls back to
 * noble when OpenSSL refuses the key, so the verdict is noble's.
 */
export function verifySigCheck(c: SigCheck): boolean {
  const spki = spkiOf(c.pubkey);
  const r = spki ? opensslVerify(spki, c.preimage, c.compact) : null;
  return r ?? nobleVerify(c);
}

const sigFailed = (index: number) => `input ${index}: signature verification failed`;

/**
 * Everything about a P2PKH spend but the curve arithmetic: why it fails, or the signature
 * check left to run (verifySigCheck, here or in the signature worker).
 */
export function p2pkhSpendCheck(tx: RawTx, index: number, prevScript: Uint8Array): string | SigCheck {
  const info = classifyScript(prevScript);
  if (info.type !== 'p2pkh') return `input ${index} spends a non-P2PKH output (${info.type}), not supported on devnet`;
  let ops;
  try {
    ops = decodeScript(tx.inputs[index].scriptSig);
  } catch {
    return `input ${index}: scriptSig does not parse`;
  }
  if (ops.length !== 2 || !ops[0].data || !ops[1].data) return `input ${index}: scriptSig is not <sig> <pubkey>`;
  const sigWithType = ops[0].data;
  const pubkey = ops[1].data;
  if (!equalBytes(hash160(pubkey), info.hash160)) return `input ${index}: public key does not match the output's key hash`;
  if (sigWithType.length < 9) return `input ${index}: signature too short`;
  const hashType = sigWithType[sigWithType.length - 1];
  if (hashType !== SIGHASH_ALL) return `input ${index}: only SIGHASH_ALL is accepted on devnet`;
  const der = sigWithType.subarray(0, sigWithType.length - 1);
  let sig;
  try {
    sig = secp256k1.Signature.fromBytes(der, 'der'); // strict DER, r and s in 1..n-1
  } catch {
    return sigFailed(index);
  }
  if (sig.hasHighS()) return sigFailed(index);
  return { compact: sig.toBytes('compact'), der, preimage: legacySighashPreimage(tx, index, prevScript, hashType), pubkey };
}

/** The verdict on a signature check's outcome: null (valid) or why not. */
export const sigVerdict = (index: number, ok: boolean): string | null => (ok ? null : sigFailed(index));

/** Why an input's script does not verify, or null when it does. Only P2PKH prevouts are standard here. */
export function checkP2pkhSpend(tx: RawTx, index: number, prevScript: Uint8Array): string | null {
  const c = p2pkhSpendCheck(tx, index, prevScript);
  return typeof c === 'string' ? c : sigVerdict(index, verifySigCheck(c));
}
