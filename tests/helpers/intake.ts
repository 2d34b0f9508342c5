// The real intake paths of a tx, for the model-based test (tests/integration/payment-model.test.ts):
// each builds a tx's facts with the code that path runs in production, against a node the test
// plays (its mempool, parents included): the rpc backend's getrawmempool diff and its P2P
// announcement handler (over a scripted JSON-RPC client), spv's filtered-tx handler, and the
// block path (rpc's getblock reader). /relay/pay goes through the relay itself (payment-driver).
import { RpcMempoolWatch } from '@/lib/chain/rpc/mempool';
import { RpcRbfAncestry } from '@/lib/chain/rpc/ancestry';
import { TxAnnouncements } from '@/lib/chain/rpc/announcements';
import { txShape } from '@/lib/chain/rpc/answers';
import { rpcNode } from '@/lib/chain/rpc/node';
import { RpcError, RPC_CODES, koinuToRpc, type RpcCall, type RpcClient } from '@/lib/chain/rpc/client';
import { SpvBackend } from '@/lib/chain/spv/backend';
import { txFacts, type TxFacts } from '@/lib/chain/tx-facts';
import { REGTEST, decodeTx, fromHex } from '@/lib/doge';

export type Intake = 'rpc-diff' | 'rpc-p2p' | 'spv';
export const INTAKES: Intake[] = ['rpc-diff', 'rpc-p2p', 'spv'];

/** Dogecoin Core's verbose form of a tx (getrawtransaction 1, getblock 2). */
function verbose(hex: string) {
  const d = decodeTx(hex, REGTEST);
  return {
    txid: d.txid, size: d.size, hex,
    vin: d.inputs.map((i) => ({ txid: i.prevTxid, vout: i.vout, scriptSig: { hex: i.scriptSig }, sequence: i.sequence })),
    vout: d.outputs.map((o) => ({ n: o.n, value: koinuToRpc(o.value), scriptPubKey: { hex: o.script } })),
  };
}

/** A JSON-RPC client answering from `pool` (txid → hex, the node's mempool) the calls the mempool paths make. */
function scriptedNode(pool: Map<string, string>): RpcClient {
  const ancestors = (txid: string, out = new Set<string>()): Set<string> => {
    for (const i of decodeTx(pool.get(txid)!, REGTEST).inputs) {
      if (pool.has(i.prevTxid) && !out.has(i.prevTxid)) {
        out.add(i.prevTxid);
        ancestors(i.prevTxid, out);
      }
    }
    return out;
  };
  const answer = (method: string, params: unknown[] = []): unknown => {
    const txid = String(params[0]);
    if (method === 'getrawmempool') return [...pool.keys()];
    // The mempool watch's cheap change check (lib/chain/rpc/mempool.ts) before it lists.
    if (method === 'getmempoolinfo') return { size: pool.size, bytes: 0, usage: 0 };
    if (method === 'getbestblockhash') return '00'.repeat(32);
    if (!pool.has(txid)) throw new RpcError(RPC_CODES.INVALID_ADDRESS_OR_KEY, 'Transaction not in mempool', method);
    if (method === 'getrawtransaction') return verbose(pool.get(txid)!);
    if (method === 'getmempoolancestors') return [...ancestors(txid)];
    throw new Error(`the scripted node does not answer ${method}`);
  };
  return {
    endpoint: 'scripted',
    call: async <T>(method: string, params?: unknown[]) => answer(method, params) as T,
    batch: async (calls: RpcCall[]) => calls.map((c) => {
      try {
        return { ok: true as const, result: answer(c.method, c.params) };
      } catch (e) {
        return { ok: false as const, error: e as RpcError };
      }
    }),
  };
}

/**
 * The facts of `hex` as `path` builds them. `parents`: unconfirmed txs the node holds (hex); spv
 * is handed only those `filterSaw` (its filter matched them), as a peer would relay them.
 */
export async function intake(path: Intake, hex: string, parents: string[], filterSaw: boolean): Promise<TxFacts> {
  const txid = decodeTx(hex, REGTEST).txid;
  const pool = new Map([...parents, hex].map((h) => [decodeTx(h, REGTEST).txid, h]));
  if (path === 'spv') {
    const spv = new SpvBackend({ network: REGTEST, peers: [], checkpoint: null, db: async () => { throw new Error('not used'); } });
    const onTx = (spv as unknown as { onTx(p: Uint8Array): void }).onTx.bind(spv);
    if (filterSaw) for (const p of parents) onTx(fromHex(p));
    onTx(fromHex(hex));
    return spv.takePushedTxs().find((t) => t.txid === txid)!;
  }
  const node = rpcNode(scriptedNode(pool));
  const ancestry = new RpcRbfAncestry(node);
  if (path === 'rpc-diff') return (await new RpcMempoolWatch(node, undefined, ancestry).newTxs()).find((t) => t.txid === txid)!;
  const ann = new TxAnnouncements({ magic: REGTEST.magic, peer: '127.0.0.1:1', defaultPort: REGTEST.port }, (txs) => ancestry.facts(txs));
  (ann as unknown as { onTx(p: Uint8Array): void }).onTx(fromHex(hex));
  for (let i = 0; i < 100 && !ann.queue.has(txid); i++) await new Promise((r) => setImmediate(r));
  return ann.queue.drain().find((t) => t.txid === txid)!;
}

/** A tx as a block brings it (rpc's getblock reader): its facts, mined. */
export const minedFacts = (hex: string): TxFacts => txFacts(txShape(verbose(hex), 0).tx, 'mined');
