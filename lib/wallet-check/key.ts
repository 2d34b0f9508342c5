// The wallet check's own key (docs/wallet-check.md#the-checks-key): one random seed, written once to
// DATA_DIR/wallet-check.key (mode 0600) and never served. It gives the check its receiving
// addresses (m/0/i, one fresh index per case) and the BIP-340 key that signs the check's
// envelopes, so that a run can make Counter sign nothing with a store's relay key and pay
// nothing to a store's wallet.
import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { schnorrPublicKey } from '../connect';
import { derivePublic, hdFromSeed, hdKeyToAddress, type HDKey, type Network } from '../doge';

export const KEY_FILE = 'wallet-check.key';

export interface CheckKey {
  /** The 32-byte BIP-340 secret key that signs the check's envelopes. */
  signingKey: Uint8Array;
  /** Its x-only public key, hex (what `h` commits to). */
  pubkey: string;
  /** The receiving address at index `i` of the check's external branch. */
  addressAt(i: number): string;
}

const cache = new Map<string, CheckKey>();

function readOrCreateSeed(dataDir: string): Uint8Array {
  const path = join(dataDir, KEY_FILE);
  if (existsSync(path)) {
    const hex = readFileSync(path, 'utf8').trim();
    if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${path} does not hold a 32-byte hex seed`);
    return hexToBytes(hex);
  }
  mkdirSync(dataDir, { recursive: true });
  const seed = new Uint8Array(randomBytes(32));
  // 'wx': two processes starting together cannot both write a seed; the loser reads the winner's.
  try {
    writeFileSync(path, bytesToHex(seed) + '\n', { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return readOrCreateSeed(dataDir);
    throw e;
  }
  return seed;
}

/** The check's key for this data directory and network, created on first use. */
export function checkKey(dataDir: string, network: Network): CheckKey {
  const id = `${dataDir}\u0000${network.name}`;
  const hit = cache.get(id);
  if (hit) return hit;
  const seed = readOrCreateSeed(dataDir);
  const signingKey = new Uint8Array(createHmac('sha256', seed).update('counter wallet-check envelope key').digest());
  const branch: HDKey = derivePublic(hdFromSeed(seed, network), [0]);
  const key: CheckKey = {
    signingKey,
    pubkey: bytesToHex(schnorrPublicKey(signingKey)),
    addressAt: (i) => hdKeyToAddress(derivePublic(branch, [i]), network),
  };
  cache.set(id, key);
  return key;
}
