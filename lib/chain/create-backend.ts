// Chooses the chain backend from the configuration (CHAIN_BACKEND).
import type { Config } from '../config';
import type { ChainBackend } from './backend';
import { createRpcBackend } from './rpc/backend';
import { createDevnetBackend } from './devnet/backend';
import { SpvBackend } from './spv/backend';
import { join } from 'node:path';
import { getNetwork } from '../doge/network';
import { getDb } from '../db';

export function createChainBackend(cfg: Config): ChainBackend {
  switch (cfg.chainBackend) {
    case 'rpc':
      return createRpcBackend({ url: cfg.rpcUrl!, network: cfg.network });
    case 'spv':
      return new SpvBackend({
        network: getNetwork(cfg.network, cfg.genesisHash ? { genesisHash: cfg.genesisHash } : {}),
        peers: cfg.peers, checkpoint: cfg.checkpoint, db: getDb,
      });
    case 'devnet':
      return createDevnetBackend({
        network: getNetwork(cfg.network, cfg.genesisHash ? { genesisHash: cfg.genesisHash } : {}),
        dir: join(cfg.dataDir, 'devnet'),
        blockSeconds: cfg.devnetBlockSeconds,
      });
  }
}
