// The `rpc` chain backend: Dogecoin Core over JSON-RPC (docs/architecture.md#chain-backends). Full validation is the
// node's; this module only translates. It keeps no state and runs no loops: the chain worker
// polls tip()/blockHashAt()/block().
//
// Works without -txindex:
// - blocks come from `getblock <hash> 2` (transactions with details) plus
//   `getblockheader <hash> false` (the first 80 bytes: Dogecoin appends AuxPoW there);
// - inputs come from `gettxout` (UTXO set + mempool).
//
// Unreachability (connection refused, timeout, auth/HTTP failures, warm-up) surfaces as
// BackendUnavailableError from every method. Other RPC errors are RpcError and mean a bug or an
// unexpected node, except where a method documents a mapping (blockHashAt, inMempool, broadcast).
import type { NetworkName } from '../../doge/network';
import type { ChainBackend } from '../backend';
import { RpcUnavailableError, createRpcClient, type RpcClient } from './client';
import { TxAnnouncements, type AnnouncementOptions } from './announcements';
import { obj, str } from './answers';
import { rpcNode, type RpcNode } from './node';
import { tip, blockHashAt, block } from './blocks';
import { lookupInputs } from './inputs';
import { broadcast } from './broadcast';
import { RpcMempoolWatch } from './mempool';
import { RpcRbfAncestry } from './ancestry';
import { shapeOfRaw } from '../tx-facts';

export interface RpcBackendOptions {
  /** `http://user:pass@host:port` (DOGE_RPC_URL). */
  url: string;
  /** When set, start() checks that the node runs this chain (if the node is reachable). */
  network?: NetworkName;
  /** Per-call timeout, default 10 s. */
  timeoutMs?: number;
  /** Injected client (tests). Default: createRpcClient({ url, timeoutMs }). */
  client?: RpcClient;
  /** The same node's P2P listener, for its tx announcements (lib/chain/rpc/announcements.ts). */
  p2p?: AnnouncementOptions;
}

/** Core's chain names (getblockchaininfo.chain) by our network names. */
const CORE_CHAIN: Record<NetworkName, string> = { mainnet: 'main', testnet: 'test', regtest: 'regtest' };

/** The backend: each concern lives in its own file (blocks, inputs, broadcast, mempool); this wires them. */
export function createRpcBackend(opts: RpcBackendOptions): ChainBackend {
  const node = rpcNode(opts.client ?? createRpcClient({ url: opts.url, timeoutMs: opts.timeoutMs }));
  const ancestry = new RpcRbfAncestry(node);
  const announced = opts.p2p ? new TxAnnouncements(opts.p2p, (txs) => ancestry.facts(txs)) : null;
  const mempool = new RpcMempoolWatch(node, announced, ancestry);
  return {
    name: 'rpc',
    canLookupInputs: true,
    async start() {
      announced?.start();
      if (opts.network) await checkChain(node, opts.network);
    },
    async stop() {
      announced?.stop();
    },
    ...(announced ? {
      onMempoolTx: (wake: () => void) => announced.queue.onPush(wake),
      takePushedTxs: () => mempool.takeAnnounced(),
    } : {}),
    tip: () => tip(node),
    blockHashAt: (height) => blockHashAt(node, height),
    block: (blockHash) => block(node, blockHash),
    lookupInputs: (outpoints) => lookupInputs(node, outpoints),
    broadcast: (txHex) => broadcast(node, txHex),
    inMempool: (txid) => mempool.inMempool(txid),
    mempoolNewTxs: () => mempool.newTxs(),
    mempoolTxFacts: async (raw) => (await ancestry.facts([shapeOfRaw(raw)]))[0]!,
    mempoolDropped: (txs, processedTip, graceMs) => mempool.dropped(txs, processedTip, graceMs),
    async peers() {
      await node.call('getnetworkinfo');
      return 1;
    },
  };
}

/** The node must run the configured chain; a node that is down at boot is retried by the worker later. */
async function checkChain(node: RpcNode, network: NetworkName): Promise<void> {
  let info: unknown;
  try {
    info = await node.client.call('getblockchaininfo');
  } catch (err) {
    if (err instanceof RpcUnavailableError) return;
    throw err;
  }
  const chain = str(obj(info, 'getblockchaininfo'), 'chain', 'getblockchaininfo');
  if (chain !== CORE_CHAIN[network]) {
    throw new Error(`RPC node at ${node.client.endpoint} runs chain "${chain}", but DOGE_NETWORK is ${network}`);
  }
}
