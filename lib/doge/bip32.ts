/**
 * BIP32 extended keys with Dogecoin version bytes (dgub/dgpv on mainnet, tpub/tprv on
 * testnet and regtest), for watch-only address derivation.
 * @module
 */
import { HARDENED_OFFSET, HDKey, type Versions } from '@scure/bip32';
import { pubkeyToAddress } from './address';
import { base58checkDecode } from './base58';
import { Bip32Error } from './errors';
import type { Network } from './network';

export { HDKey, HARDENED_OFFSET };

export function hdVersions(network: Network): Versions {
  return { public: network.bip32.public, private: network.bip32.private };
}

function wrap<T>(fn: () => T, code: 'key' | 'path' | 'hardened' = 'key'): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof Bip32Error) throw e;
    throw new Bip32Error(code, e instanceof Error ? e.message : String(e));
  }
}

/** Parse a public or private extended key whose version bytes belong to `network`. */
export function parseExtendedKey(str: string, network: Network): HDKey {
  const raw = typeof str === 'string' ? base58checkDecode(str) : null;
  if (!raw) throw new Bip32Error('format', 'invalid base58 or checksum');
  if (raw.length !== 78) throw new Bip32Error('format', `extended key is ${raw.length} bytes, expected 78`);
  const version = new DataView(raw.buffer, raw.byteOffset, 4).getUint32(0, false);
  const isPrivate = version === network.bip32.private;
  if (!isPrivate && version !== network.bip32.public)
    throw new Bip32Error('version', `version 0x${version.toString(16).padStart(8, '0')} is not a ${network.name} extended key`);
  if (isPrivate !== (raw[45] === 0)) throw new Bip32Error('key', 'key data does not match the version bytes');
  return wrap(() => HDKey.fromExtendedKey(str, hdVersions(network)));
}

/** Parse an extended public key (dgub / tpub) for `network`; private keys are refused. */
export function parseXpub(str: string, network: Network): HDKey {
  const raw = typeof str === 'string' ? base58checkDecode(str) : null;
  if (raw && raw.length === 78 && new DataView(raw.buffer, raw.byteOffset, 4).getUint32(0, false) === network.bip32.private)
    throw new Bip32Error('private', 'an extended private key was given where a public one is expected');
  return parseExtendedKey(str, network);
}

export function isValidXpub(str: unknown, network: Network): boolean {
  try {
    parseXpub(str as string, network);
    return true;
  } catch {
    return false;
  }
}

/** Serialise the public half of `key` (dgub / tpub, per the key's versions). */
export function serializeXpub(key: HDKey): string {
  return key.publicExtendedKey;
}

/** Parse a non-hardened path ("m/0/5", "0/5", or "" for the key itself) into indexes. */
export function parsePublicPath(path: string): number[] {
  if (typeof path !== 'string') throw new Bip32Error('path', 'path must be a string');
  const rest = path.replace(/^[mM](\/|$)/, '');
  if (rest === '') return [];
  return rest.split('/').map((p) => {
    if (/^\d+['hH]$/.test(p)) throw new Bip32Error('hardened', `hardened step ${p} cannot be derived from a public key`);
    if (!/^\d+$/.test(p)) throw new Bip32Error('path', `bad path step "${p}"`);
    const n = Number(p);
    if (n >= HARDENED_OFFSET) throw new Bip32Error('hardened', `index ${p} is hardened`);
    return n;
  });
}

/** Public (non-hardened) derivation; works on public and private keys, returns a public key. */
export function derivePublic(key: HDKey, path: string | readonly number[]): HDKey {
  const steps = typeof path === 'string' ? parsePublicPath(path) : path;
  // A private key is first copied without its private half, so no child carries one. A public
  // key's children are derived from it directly: the copy only checked its point again, 9 % of
  // each address's cost when a wallet's addresses are derived one by one (0.665 → 0.606 ms,
  // lib/chain/watch-addresses.ts). Every step makes a new key either way.
  let k =
    key.privateKey === null && steps.length > 0
      ? key
      : wrap(
          () =>
            new HDKey({
              versions: key.versions,
              depth: key.depth,
              index: key.index,
              parentFingerprint: key.parentFingerprint,
              chainCode: key.chainCode!,
              publicKey: key.publicKey!,
            }),
        );
  for (const i of steps) {
    if (!Number.isInteger(i) || i < 0 || i >= HARDENED_OFFSET) throw new Bip32Error('hardened', `index ${i} is not a non-hardened index`);
    k = wrap(() => k.deriveChild(i));
  }
  return k;
}

/** P2PKH address of `key`'s own public key. */
export function hdKeyToAddress(key: HDKey, network: Network): string {
  return pubkeyToAddress(key.publicKey!, network);
}

/** Receive (`chain` 0) or change (`chain` 1) address `index` under an account xpub: `chain/index`. */
export function deriveAddress(xpub: HDKey, index: number, network: Network, chain = 0): string {
  return hdKeyToAddress(derivePublic(xpub, [chain, index]), network);
}

/** `count` consecutive addresses from `start` on `chain`. */
export function deriveAddresses(xpub: HDKey, network: Network, start: number, count: number, chain = 0): string[] {
  const branch = derivePublic(xpub, [chain]);
  const out: string[] = [];
  for (let i = start; i < start + count; i++) out.push(hdKeyToAddress(derivePublic(branch, [i]), network));
  return out;
}

/** Master key from a seed, with `network`'s version bytes (tests / devnet wallets). */
export function hdFromSeed(seed: Uint8Array, network: Network): HDKey {
  return wrap(() => HDKey.fromMasterSeed(seed, hdVersions(network)));
}

/** Any derivation, hardened included (needs a private key for hardened steps). */
export function derivePath(key: HDKey, path: string): HDKey {
  return wrap(() => key.derive(path), 'path');
}
