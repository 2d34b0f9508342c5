// Stores: the one reader and writer of a store's settings (docs/architecture.md#layers).
export {
  FIRST_STORE_ID, StoreNotFoundError, WalletInUseError, findStore, readStore, updateStore, takeAddressIndex, storeWallets, seedFirstStore,
  type StoreRow,
} from './settings';
