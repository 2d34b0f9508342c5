// Following the chain: the backends (rpc, spv, devnet), the wallet tracker, rescans and the facts a transaction carries.
// What other folders use of lib/chain: they import it from here (.dependency-cruiser.cjs, lib-through-index).
export { type BlockTxSummary, isBackendUnavailable, type ChainBackend, type InputLookup, type BlockSummary } from './backend';
export { trackBlockConnected, trackBlockDisconnected } from './wallet-tracker';
export { syncWatchAddresses, registerWalletAddress, forgetUsedIndexes } from './watch-addresses';
export { applyBirthday, rescanStep, RescanRefused, requestRescan, setBirthday, seedBirthdayFromEnv } from './rescan';
export { type TxFacts, parentsFirst } from './tx-facts';
export { getState, K, readWalletHistory, type WalletHistoryStatus } from './rescan-state';
export { followChain } from './follower';
export { publishChainState } from './chain-state';
export { createChainBackend } from './create-backend';
export { asDevnet } from './devnet/backend';
