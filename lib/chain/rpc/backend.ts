// The `rpc` chain backend: Dogecoin Core over JSON-RPC (docs/architecture.md#chain-backends). Full validation is the
// node's; this module only translates. The chain worker polls tip()/blockHashAt()/block(); the
// only loops here watch the mempool between its ticks while the backend is started (the node's
// P2P announcements and the fast mempool poll, docs/live.md).
//
// Works without -txindex:
// - blocks come from `getblock <hash> 2` (transactions with details) plus
//   `getblockheader <hash> false` (the first 80 bytes: Dogecoin appends AuxPoW there);
// - inputs come from `gettxout` (UTXO set + mempool).
//
// Unreachability (connection refused, timeout, auth/HTTP failures, warm-up) surfaces as
// BackendUnavailableError from every method. Other RPC errors are RpcError and mean a bug or an
// unexpected node, except where a method documents a mapping (blockHashAt, inMempool, broadcast).
import type { NetworkName } from '../../doge';
import type { ChainBackend } from '../backend';
import { RpcUnavailableError, createRpcClient, type RpcClient } from './client';
import { TxAnnouncements, type AnnouncementOptions } from './announcements';
import { obj, str } from './answers';
import { rpcNode, type RpcNode } from './node';
import { tip, blockHashAt, block } from './blocks';
import { lookupInputs } from './inputs';
import { broadcast } from './broadcast';
import { RpcMempoolWatch } from './mempool';
import { MempoolPoller } from './mempool-poll';
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
  /** The fast mempool poll's interval (DOGE_RPC_MEMPOOL_POLL_MS; lib/chain/rpc/mempool-poll.ts); 0 turns it off. */
  mempoolPollMs?: number;
}

/** DOGE_RPC_MEMPOOL_POLL_MS's default (docs/configuration.md). */
export const DEFAULT_MEMPOOL_POLL_MS = 250;

/** Core's chain names (getblockchaininfo.chain) by our network names. */
const CORE_CHAIN: Record<NetworkName, string> = { mainnet: 'main', testnet: 'test', regtest: 'regtest' };

/** The backend: each concern lives in its own file (blocks, inputs, broadcast, mempool); this wires them. */
export function createRpcBackend(opts: RpcBackendOptions): ChainBackend {
  const node = rpcNode(opts.client ?? createRpcClient({ url: opts.url, timeoutMs: opts.timeoutMs }));
  const ancestry = new RpcRbfAncestry(node);
  const announced = opts.p2p ? new TxAnnouncements(opts.p2p, (txs) => ancestry.facts(txs)) : null;
  // One queue for both push paths: a tx the poll found is not fetched again when announced.
  const mempool = new RpcMempoolWatch(node, announced?.queue, ancestry);
  const pollMs = opts.mempoolPollMs ?? DEFAULT_MEMPOOL_POLL_MS;
  const poller = new MempoolPoller(mempool, pollMs);
  return {
    name: 'rpc',
    canLookupInputs: true,
    async start() {
      announced?.start();
      if (opts.network) await checkChain(node, opts.network);
      poller.start();
    },
    async stop() {
      announced?.stop();
      poller.stop();
    },
    ...(announced || pollMs > 0
      ? {
          onMempoolTx: (wake: () => void) => mempool.queue.onPush(wake),
          takePushedTxs: () => mempool.takeQueued(),
        }
      : {}),
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
