// Reading Dogecoin Core's JSON answers (amounts already exact strings): shape checks that throw a
// TypeError naming the field, and the verbose transaction → its shape (tx-facts.ts).
import { encodeTx, fromHex, isHex, parseTxAt, txidOf, type RawTxInput } from '../../doge';
import type { TxShape } from '../tx-facts';
import { koinuFromRpc } from './client';

export type Json = Record<string, unknown>;

export function obj(v: unknown, what: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new TypeError(`unexpected RPC answer: ${what} is not an object`);
  return v as Json;
}
export function arr(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw new TypeError(`unexpected RPC answer: ${what} is not an array`);
  return v;
}
export function str(o: Json, key: string, what: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new TypeError(`unexpected RPC answer: ${what}.${key} is not a string`);
  return v;
}
export function int(o: Json, key: string, what: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new TypeError(`unexpected RPC answer: ${what}.${key} is not an integer`);
  return v;
}
export function hash(v: string, what: string): string {
  if (!isHex(v, 32)) throw new TypeError(`unexpected RPC answer: ${what} is not a 32-byte hex hash`);
  return v.toLowerCase();
}

/**
 * One verbose transaction (getblock verbosity 2, getrawtransaction verbose) as a TxShape; the
 * caller builds its facts (tx-facts.ts). Read from the JSON, not the hex: Litecoin's txs carry
 * witness data, which the Dogecoin parser refuses.
 */
export function txShape(raw: unknown, i: number): { tx: TxShape; size: number } {
  const what = `tx[${i}]`;
  const t = obj(raw, what);
  const inputs: TxShape['inputs'] = [];
  let coinbase = false;
  for (const [j, vin] of arr(t.vin, `${what}.vin`).entries()) {
    const v = obj(vin, `${what}.vin[${j}]`);
    if ('coinbase' in v) {
      coinbase = true;
      continue;
    } // a coinbase input spends nothing
    const sig = v.scriptSig !== null && typeof v.scriptSig === 'object' ? (v.scriptSig as { hex?: unknown }).hex : undefined;
    inputs.push({
      txid: hash(str(v, 'txid', `${what}.vin[${j}]`), `${what}.vin[${j}].txid`),
      vout: int(v, 'vout', `${what}.vin[${j}]`),
      sequence: int(v, 'sequence', `${what}.vin[${j}]`),
      ...(typeof sig === 'string' && isHex(sig) ? { scriptSig: sig.toLowerCase() } : {}),
    });
  }
  const outputs = arr(t.vout, `${what}.vout`).map((vout, j) => {
    const o = obj(vout, `${what}.vout[${j}]`);
    return {
      n: int(o, 'n', `${what}.vout[${j}]`),
      value: koinuFromRpc(o.value),
      script: str(obj(o.scriptPubKey, `${what}.vout[${j}].scriptPubKey`), 'hex', `${what}.vout[${j}].scriptPubKey`).toLowerCase(),
    };
  });
  const txid = hash(str(t, 'txid', what), `${what}.txid`);
  const hex = typeof t.hex === 'string' && isHex(t.hex) ? fromHex(t.hex) : rebuiltRaw(t, txid, outputs);
  return {
    tx: { txid, coinbase, inputs, outputs, ...(hex ? { raw: hex } : {}) },
    size: int(t, 'size', what),
  };
}

/**
 * The serialized tx rebuilt from its JSON, for a node whose `getblock <hash> 2` has no `hex` per
 * transaction (Dogecoin Core 1.14): the watch-only wallet file serves the wallet's txs as bytes
 * (docs/node.md#node-text-api). Kept only when it hashes to the txid, so a tx the JSON does not
 * describe whole (witness data) has no bytes rather than wrong ones.
 */
function rebuiltRaw(t: Json, txid: string, outputs: { value: bigint; script: string }[]): Uint8Array | undefined {
  try {
    const inputs = arr(t.vin, 'vin').map((vin): RawTxInput => {
      const v = obj(vin, 'vin');
      const sequence = int(v, 'sequence', 'vin');
      if (typeof v.coinbase === 'string')
        return { prevTxid: new Uint8Array(32), vout: 0xffffffff, scriptSig: fromHex(v.coinbase), sequence };
      const scriptSig = fromHex(str(obj(v.scriptSig, 'vin.scriptSig'), 'hex', 'vin.scriptSig'));
      return { prevTxid: fromHex(str(v, 'txid', 'vin')).reverse(), vout: int(v, 'vout', 'vin'), scriptSig, sequence };
    });
    const raw = encodeTx({
      version: int(t, 'version', 'tx'),
      inputs,
      outputs: outputs.map((o) => ({ value: o.value, script: fromHex(o.script) })),
      locktime: int(t, 'locktime', 'tx'),
    });
    return txidOf(raw) === txid ? raw : undefined;
  } catch {
    return undefined; // a field missing or malformed: no bytes, as before
  }
}

/** How many outputs a serialized transaction has (null if it does not decode). */
export function outputCount(hex: unknown): number | null {
  if (typeof hex !== 'string' || !isHex(hex)) return null;
  try {
    // Witness data is accepted here only to count outputs: Litecoin's coinbases carry it.
    return parseTxAt(fromHex(hex), 0, { allowWitness: true }).tx.outputs.length;
  } catch {
    return null;
  }
}
