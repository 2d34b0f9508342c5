// Stores: the one reader and writer of a store's settings (docs/architecture.md#layers), and the
// one store-scoping rule every store-owned query follows.
export {
  FIRST_STORE_ID,
  WalletInUseError,
  findStore,
  readStore,
  updateStore,
  takeAddressIndex,
  storeWallets,
  storeCurrencies,
  isOnlyStore,
  storeNames,
  createStore,
  listStores,
  setStoreSuspended,
  type StoreSummary,
  seedFirstStore,
} from './settings';
export { inStore, storeIdOf, type StoreScope } from './scope';
