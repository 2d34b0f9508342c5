// Script checks for the devnet chain: legacy (pre-segwit) signature hashes and P2PKH spends, as
// Dogecoin Core verifies them (SIGHASH_ALL; DER ECDSA over secp256k1, low-S as policy). Pure.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ByteWriter, concatBytes, equalBytes, hash160, sha256d } from '../doge/bytes';
import { classifyScript, decodeScript } from '../doge/script';
import { encodeTx, type RawTx } from '../doge/tx';

export const SIGHASH_ALL = 0x01;

/** SignatureHash for a legacy input: other scriptSigs emptied, this one set to `scriptCode`. */
export function legacySighash(tx: RawTx, index: number, scriptCode: Uint8Array, hashType: number): Uint8Array {
  const copy: RawTx = {
    ...tx,
    inputs: tx.inputs.map((inp, j) => ({ ...inp, scriptSig: j === index ? scriptCode : new Uint8Array(0) })),
  };
  const type = new ByteWriter().u32le(hashType >>> 0).finish();
  return sha256d(concatBytes(encodeTx(copy), type));
}

/** Why an input's script does not verify, or null when it does. Only P2PKH prevouts are standard here. */
export function checkP2pkhSpend(tx: RawTx, index: number, prevScript: Uint8Array): string | null {
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
  const msg = legacySighash(tx, index, prevScript, hashType);
  let ok = false;
  try {
    ok = secp256k1.verify(der, msg, pubkey, { prehash: false, format: 'der', lowS: true });
  } catch {
    ok = false;
  }
  return ok ? null : `input ${index}: signature verification failed`;
}
