// Input lookup over RPC (ChainBackend.lookupInputs): `gettxout` sees the UTXO set and the mempool,
// so no -txindex is needed; an outpoint it does not find is probed once more to tell a spent
// output from a missing one.
import type { InputLookup, Outpoint } from '../backend';
import { koinuFromRpc } from './client';
import { arr, obj, outputCount, str } from './answers';
import { itemResult, type RpcNode } from './node';

/** Outpoints looked up per batch request (Core runs one batch on one RPC thread). */
const LOOKUP_BATCH = 500;

export async function lookupInputs(node: RpcNode, outpoints: Outpoint[]): Promise<InputLookup[]> {
  const out: InputLookup[] = [];
  for (let i = 0; i < outpoints.length; i += LOOKUP_BATCH) out.push(...(await lookupChunk(node, outpoints.slice(i, i + LOOKUP_BATCH))));
  return out;
}

async function lookupChunk(node: RpcNode, outpoints: Outpoint[]): Promise<InputLookup[]> {
  const first = await node.batch(outpoints.map((o) => ({ method: 'gettxout', params: [o.txid, o.vout, true] })));
  const results: (InputLookup | null)[] = first.map((item) => {
    const r = itemResult(item);
    if (r === null) return null;
    const o = obj(r, 'gettxout');
    return {
      state: 'unspent',
      value: koinuFromRpc(o.value),
      script: str(obj(o.scriptPubKey, 'gettxout.scriptPubKey'), 'hex', 'gettxout.scriptPubKey').toLowerCase(),
    };
  });
  const unresolved = outpoints.map((o, i) => ({ o, i })).filter(({ i }) => results[i] === null);
  if (unresolved.length > 0) {
    const states = await spentOrMissing(
      node,
      unresolved.map(({ o }) => o),
    );
    unresolved.forEach(({ i }, k) => {
      results[i] = { state: states[k] };
    });
  }
  return results as InputLookup[];
}

/**
 * Spent or missing? Per outpoint, three probes in one batch:
 *  1. gettxout without the mempool: present => in the chain's UTXO set, spent by a mempool tx.
 *  2. getrawtransaction: the tx is in the mempool (or -txindex, or Dogecoin's deprecated
 *     fallback for txs with unspent outputs) => spent if vout < its output count.
 *  3. gettransaction (the node's wallet, if any and if single): same rule on its hex.
 * Otherwise 'missing'. Without -txindex a confirmed tx whose outputs are all spent looks
 * 'missing': Core keeps no index to find it. The relay refuses it either way (400
 * invalid_tx, the payment stays payable); only the reason text differs.
 */
async function spentOrMissing(node: RpcNode, outpoints: Outpoint[]): Promise<('spent' | 'missing')[]> {
  const probes = await node.batch(
    outpoints.flatMap((o) => [
      { method: 'gettxout', params: [o.txid, o.vout, false] },
      { method: 'getrawtransaction', params: [o.txid, true] },
      { method: 'gettransaction', params: [o.txid] },
    ]),
  );
  return outpoints.map((o, k) => {
    const [chain, raw, wallet] = probes.slice(3 * k, 3 * k + 3);
    // Probe errors (-5 not found, -18/-19 no/ambiguous wallet, -32601 wallet disabled) are
    // all "not found here".
    if (chain.ok && chain.result !== null) return 'spent';
    if (raw.ok) {
      const vouts = arr(obj(raw.result, 'getrawtransaction').vout, 'getrawtransaction.vout').length;
      return o.vout < vouts ? 'spent' : 'missing';
    }
    if (wallet.ok) {
      const n = outputCount(obj(wallet.result, 'gettransaction').hex);
      return n !== null && o.vout < n ? 'spent' : 'missing';
    }
    return 'missing';
  });
}
