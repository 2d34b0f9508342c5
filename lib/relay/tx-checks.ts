// The relay's per-transaction checks (docs/relay.md). Pure.
import { decodeTx, addressToScript, toHex, type DecodedTx, type Network } from '../doge';
import type { InputLookup } from '../chain';
import type { ExpectedOutput } from '../payments';

export type TxCheck = { ok: true } | { ok: false; error: 'invalid_tx' | 'invalid_outputs'; message: string };

export function decodeSubmittedTx(
  hex: string,
  network: Network,
  maxSize: number,
): { ok: true; tx: DecodedTx } | { ok: false; message: string } {
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) return { ok: false, message: 'tx is not hex' };
  if (hex.length / 2 > maxSize) return { ok: false, message: `transaction is ${hex.length / 2} bytes; max_size is ${maxSize}` };
  try {
    const tx = decodeTx(hex, network);
    if (tx.isCoinbase) return { ok: false, message: 'a coinbase transaction cannot pay' };
    return { ok: true, tx };
  } catch (e) {
    return { ok: false, message: `transaction does not decode: ${(e as Error).message}` };
  }
}

/**
 * Every requested output must appear with the exact amount and script; each requested output
 * is matched to a distinct tx output. Extra outputs (change) are allowed.
 */
export function checkOutputs(tx: DecodedTx, expected: ExpectedOutput[], network: Network): TxCheck {
  const used = new Set<number>();
  for (const [i, want] of expected.entries()) {
    let found = -1;
    if (want.type === 'data') {
      found = tx.outputs.findIndex((o, n) => !used.has(n) && o.type === 'nulldata' && o.data === (want.data ?? '').toLowerCase());
      if (found < 0) return { ok: false, error: 'invalid_outputs', message: `output ${i}: no OP_RETURN output carries the requested data` };
    } else {
      const script = toHex(addressToScript(want.address!, network));
      found = tx.outputs.findIndex((o, n) => !used.has(n) && o.script === script && o.value === want.amount);
      if (found < 0) {
        const near = tx.outputs.find((o) => o.script === script);
        const detail = near ? `pays ${near.value} koinu instead of ${want.amount}` : 'is not paid';
        return { ok: false, error: 'invalid_outputs', message: `output ${i}: ${want.address} ${detail}` };
      }
    }
    used.add(found);
  }
  return { ok: true };
}

/** fee ≥ fee_per_kb × size / 1000, compared exactly in integers. */
export function checkFee(tx: DecodedTx, inputs: InputLookup[], feePerKb: bigint): TxCheck & { fee?: bigint } {
  let inSum = 0n;
  for (const l of inputs) if (l.state === 'unspent') inSum += l.value;
  const outSum = tx.outputs.reduce((s, o) => s + o.value, 0n);
  const fee = inSum - outSum;
  if (fee < 0n) return { ok: false, error: 'invalid_tx', message: 'outputs exceed inputs' };
  if (fee * 1000n < feePerKb * BigInt(tx.size)) {
    return {
      ok: false,
      error: 'invalid_tx',
      message: `fee ${fee} koinu is below fee_per_kb: ${tx.size} bytes need at least ${(feePerKb * BigInt(tx.size) + 999n) / 1000n} koinu`,
    };
  }
  return { ok: true, fee };
}

/** What a tx pays to an address (the sum of its outputs there) and the outpoints it spends ("txid:vout"). */
export function paidToAddress(txHex: string, address: string, network: Network): { value: bigint; inputs: string[] } {
  const tx = decodeTx(txHex, network);
  const script = toHex(addressToScript(address, network));
  const value = tx.outputs.reduce((s, o) => (o.script === script ? s + o.value : s), 0n);
  return { value, inputs: tx.inputs.map((i) => `${i.prevTxid}:${i.vout}`) };
}
