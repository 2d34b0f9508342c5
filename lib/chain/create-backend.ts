// Chooses the chain backend from the configuration (CHAIN_BACKEND).
import type { Config } from '../config';
import { BackendUnavailableError, type ChainBackend } from './backend';
import { createRpcBackend } from './rpc-backend';
import { createDevnetBackend } from './devnet-backend';
import { join } from 'node:path';
import { getNetwork } from '../doge/network';

/** Stands in for a backend that is not available in this build: every call is a 503. */
function unavailableBackend(name: ChainBackend['name'], why: string): ChainBackend {
  const fail = async (): Promise<never> => {
    throw new BackendUnavailableError(why);
  };
  return {
    name, canLookupInputs: false, start: async () => undefined, stop: async () => undefined,
    tip: fail, blockHashAt: fail, block: fail, lookupInputs: fail, broadcast: fail, inMempool: fail, peers: fail,
  };
}

export function createChainBackend(cfg: Config): ChainBackend {
  switch (cfg.chainBackend) {
    case 'rpc':
      return createRpcBackend({ url: cfg.rpcUrl!, network: cfg.network });
    case 'spv':
      return unavailableBackend('spv', 'the spv backend is not implemented yet: use CHAIN_BACKEND=rpc');
    case 'devnet':
      return createDevnetBackend({
        network: getNetwork(cfg.network, cfg.genesisHash ? { genesisHash: cfg.genesisHash } : {}),
        dir: join(cfg.dataDir, 'devnet'),
        blockSeconds: cfg.devnetBlockSeconds,
      });
  }
}
