// Fresh receive addresses for payments: 0/i from the store's watch-only xpub (i from an atomic
// counter), or the one fixed STORE_ADDRESS. Every address handed out is registered with the
// watch-only wallet so the chain worker watches it.
import type { Db } from '../../db';
import { readStore, takeAddressIndex } from '../../stores';
import { deriveAddress, parseXpub, type Network } from '../../doge';
// The watch-only wallet belongs to the chain layer (lib/chain never imports lib/relay).
import { registerWalletAddress } from '../../chain';
import { DomainError } from '../../errors';

export class NoReceivingWalletError extends DomainError {
  constructor() {
    super('conflict', 'no receiving wallet is configured: set STORE_XPUB or STORE_ADDRESS, or configure one in the back office');
    this.name = 'NoReceivingWalletError';
  }
}

export async function allocateReceiveAddress(
  db: Db,
  storeId: number,
  network: Network,
): Promise<{ address: string; index: number | null }> {
  const store = await readStore(db, storeId);
  if (store.storeXpub) {
    const xpub = parseXpub(store.storeXpub, network);
    const index = await takeAddressIndex(db, store.id);
    const address = deriveAddress(xpub, index, network, 0);
    await registerWalletAddress(db, store.id, address, network, 0, index);
    return { address, index };
  }
  if (store.storeAddress) {
    await registerWalletAddress(db, store.id, store.storeAddress, network, 0, 0);
    return { address: store.storeAddress, index: null };
  }
  throw new NoReceivingWalletError();
}

/** The store's seller address for invoices: first receive address (0/0) or STORE_ADDRESS. */
export function sellerAddress(store: { storeXpub: string; storeAddress: string }, network: Network): string {
  if (store.storeXpub) return deriveAddress(parseXpub(store.storeXpub, network), 0, network, 0);
  return store.storeAddress;
}
