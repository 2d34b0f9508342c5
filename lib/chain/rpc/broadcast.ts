// Broadcast over RPC (ChainBackend.broadcast): `sendrawtransaction`, and the node's reject reason
// mapped to the backend's codes across Core versions (double spend, missing inputs, already known).
import { fromHex, hashToHex, isHex, parseTx, txidOf } from '../../doge';
import type { BroadcastResult, Outpoint } from '../backend';
import { RPC_CODES, RpcError } from './client';
import { hash, obj } from './answers';
import { lookupInputs } from './inputs';
import type { RpcNode } from './node';

// Reject reasons, across Core versions: Dogecoin 1.14 says "Missing inputs", Core 0.21
// "bad-txns-inputs-missingorspent", 0.19/0.20 "missing-inputs". A failed replacement attempt
// (BIP125, Litecoin and newer Dogecoin) conflicts with a mempool tx: a double spend as well.
const DOUBLE_SPEND = /txn-mempool-conflict|bad-txns-spends-conflicting-tx|replacement/i;
const MISSING_INPUTS = /missing.?inputs|missingorspent|inputs-spent/i;
const ALREADY_KNOWN = /already in block ?chain|txn-already-in-mempool|txn-already-known/i;

/** Core prefixes reject reasons with the numeric reject code in some versions ("66: min relay fee not met"). */
function rejectReason(message: string): string {
  return message.replace(/^\d+:\s*/, '');
}

export async function broadcast(node: RpcNode, txHex: string): Promise<BroadcastResult> {
  if (typeof txHex !== 'string' || txHex.length === 0 || !isHex(txHex)) {
    return { ok: false, code: 'rejected', reason: 'transaction is not hex' };
  }
  try {
    const txid = await node.guard(() => send(node, txHex));
    return { ok: true, txid: hash(txid, 'sendrawtransaction') };
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    const reason = rejectReason(err.message);
    if (err.code === RPC_CODES.VERIFY_ALREADY_IN_CHAIN || ALREADY_KNOWN.test(reason)) {
      const txid = txidOfHex(txHex);
      if (txid) return { ok: true, txid };
      return { ok: false, code: 'already_known', reason };
    }
    if (DOUBLE_SPEND.test(reason)) return { ok: false, code: 'double_spend', reason };
    if (MISSING_INPUTS.test(reason)) return classifyMissing(node, txHex, reason);
    return { ok: false, code: 'rejected', reason };
  }
}

/** sendrawtransaction without a fee ceiling (the relay applies its own fee rule). */
async function send(node: RpcNode, txHex: string): Promise<string> {
  try {
    // Core >= 0.19: maxfeerate (0 = no limit).
    return await node.client.call<string>('sendrawtransaction', [txHex, 0]);
  } catch (err) {
    // Dogecoin Core 1.14 takes `allowhighfees` (bool) and answers a number with -3.
    if (err instanceof RpcError && err.code === RPC_CODES.TYPE_ERROR) {
      return await node.client.call<string>('sendrawtransaction', [txHex, true]);
    }
    throw err;
  }
}

/** The txid of a hex tx we could not broadcast, when it decodes (Dogecoin txs are legacy). */
function txidOfHex(txHex: string): string | null {
  try {
    parseTx(txHex);
    return txidOf(fromHex(txHex));
  } catch {
    return null;
  }
}

/**
 * Core says "missing or spent": ask which, so double spends are reported as such.
 * First, the tx may itself be confirmed with all its outputs spent (Core only answers "already
 * in block chain" while one of them is unspent): with -txindex, or when the node's wallet
 * knows the tx, that is found and reported as success. Otherwise it reads as a double spend.
 */
async function classifyMissing(node: RpcNode, txHex: string, reason: string): Promise<BroadcastResult> {
  let inputs: Outpoint[];
  let txid: string;
  try {
    inputs = parseTx(txHex).inputs.map((i) => ({ txid: hashToHex(i.prevTxid), vout: i.vout }));
    txid = txidOf(fromHex(txHex));
  } catch {
    return { ok: false, code: 'missing_inputs', reason };
  }
  const known = await node.batch([
    { method: 'getrawtransaction', params: [txid, true] },
    { method: 'gettransaction', params: [txid] },
  ]);
  const confirmed = known.some(
    (k) => k.ok && typeof obj(k.result, 'tx').confirmations === 'number' && (obj(k.result, 'tx').confirmations as number) > 0,
  );
  if (confirmed) return { ok: true, txid };
  const states = await lookupInputs(node, inputs);
  const spentAt = states.findIndex((s) => s.state === 'spent');
  if (spentAt >= 0) {
    const o = inputs[spentAt];
    return { ok: false, code: 'double_spend', reason: `input ${o.txid}:${o.vout} is already spent (${reason})` };
  }
  return { ok: false, code: 'missing_inputs', reason };
}
