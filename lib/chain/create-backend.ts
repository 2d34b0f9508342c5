// Chooses the chain backend from the configuration (CHAIN_BACKEND).
import type { Config } from '../config';
import type { ChainBackend } from './backend';
import { createRpcBackend } from './rpc/backend';
import { createDevnetBackend } from './devnet/backend';
import { SpvBackend } from './spv/backend';
import { join } from 'node:path';
import { getNetwork } from '../doge';
import { getDb } from '../db';

/** The host of an http(s)://user:pass@host:port URL, bracketed when IPv6. */
function hostOf(url: string): string {
  const h = new URL(url).hostname;
  return h.includes(':') && !h.startsWith('[') ? `[${h}]` : h;
}

export function createChainBackend(cfg: Config): ChainBackend {
  switch (cfg.chainBackend) {
    case 'rpc': {
      // Tx announcements come from the same node's P2P port (docs/live.md): the first of
      // DOGE_PEERS when set, else the RPC host on the network's port; the fast mempool poll sees
      // txs a node that does not whitelist the app announces seconds late.
      const net = getNetwork(cfg.network, cfg.genesisHash ? { genesisHash: cfg.genesisHash } : {});
      const peer = cfg.peers[0] ?? `${hostOf(cfg.rpcUrl!)}:${net.port}`;
      return createRpcBackend({
        url: cfg.rpcUrl!,
        network: cfg.network,
        p2p: { magic: net.magic, peer, defaultPort: net.port },
        mempoolPollMs: cfg.rpcMempoolPollMs,
      });
    }
    case 'spv':
      return new SpvBackend({
        network: getNetwork(cfg.network, cfg.genesisHash ? { genesisHash: cfg.genesisHash } : {}),
        peers: cfg.peers,
        checkpoint: cfg.checkpoint,
        db: getDb,
      });
    case 'devnet':
      return createDevnetBackend({
        network: getNetwork(cfg.network, cfg.genesisHash ? { genesisHash: cfg.genesisHash } : {}),
        dir: join(cfg.dataDir, 'devnet'),
        blockSeconds: cfg.devnetBlockSeconds,
      });
  }
}
