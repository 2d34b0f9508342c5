// Keys for tests: a store's watch-only account key (BIP44 account 0 on testnet/regtest,
// m/44'/1'/0') from a seed of 32 equal bytes. Each test file picks its own byte, so two files'
// stores never share addresses; the same byte always gives the same key.
import { derivePath, hdFromSeed, serializeXpub, REGTEST, type Network } from '../../lib/doge';

export const ACCOUNT_PATH = "m/44'/1'/0'";

/** The HD account key (with its private key) from the seed `fill` × 32. */
export const testAccount = (fill: number, network: Network = REGTEST) =>
  derivePath(hdFromSeed(new Uint8Array(32).fill(fill), network), ACCOUNT_PATH);

/** The account's extended public key (tpub…), as STORE_XPUB takes it. */
export const testXpub = (fill: number, network: Network = REGTEST): string => serializeXpub(testAccount(fill, network));

/**
 * A mainnet account key (dgub…): BIP32 test vector 1's m/0' (tests/fixtures/doge-bip32-vectors.json),
 * for stores whose tests never pay it on a chain.
 */
export const DGUB = 'dgub8nnbYqHETn61ajXkw8Z8cHasQNrPnQpb85448DY2ie7PmNecxAm6BjTnhNCvZY3qJk1MKZ9Z5HQasQ83ARb99nmduT7dunvxgcvBFVHuvrq';
