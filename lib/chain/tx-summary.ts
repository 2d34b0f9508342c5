// A serialized transaction as the chain worker sees it (BlockTxSummary): txid, the outpoints
// it spends (none for a coinbase), and its outputs with their scripts.
import { hashToHex, sha256d, toHex } from '../doge/bytes';
import { parseTx } from '../doge/tx';
import type { BlockTxSummary } from './backend';

export function summarizeTx(raw: Uint8Array): BlockTxSummary {
  const tx = parseTx(raw);
  const coinbase = tx.inputs.length === 1 && tx.inputs[0]!.prevTxid.every((b) => b === 0);
  return {
    txid: hashToHex(sha256d(raw)),
    inputs: coinbase ? [] : tx.inputs.map((i) => ({ txid: hashToHex(i.prevTxid), vout: i.vout })),
    outputs: tx.outputs.map((o, n) => ({ n, value: o.value, script: toHex(o.script) })),
    raw,
  };
}
