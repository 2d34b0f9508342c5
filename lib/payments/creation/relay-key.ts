// The relay's BIP-340 signing key. Exactly one key is active;
// rotating retires the old one (kept for audit) and makes a fresh one. Secrets never leave
// this module except to sign.
import { schnorr } from '@noble/curves/secp256k1.js';
import type { Db } from '../../db';
import { inStore } from '../../stores';

export interface RelayKeyMaterial {
  id: number;
  pubkey: string; // 32-byte x-only, hex
  secretKey: Uint8Array;
}

function newKey() {
  const secretKey = schnorr.utils.randomSecretKey();
  // token_key held the HMAC key of relay tokens, which Counter no longer issues (docs/relay.md):
  // new keys store it empty.
  return { secretKey, tokenKey: new Uint8Array(0), pubkey: Buffer.from(schnorr.getPublicKey(secretKey)).toString('hex') };
}

function toMaterial(row: { id: number; pubkey: string; secretKey: Uint8Array }): RelayKeyMaterial {
  return { id: row.id, pubkey: row.pubkey, secretKey: new Uint8Array(row.secretKey) };
}

/** The store's active relay key, created on first use. Safe under concurrent callers (unique index per store). */
export async function activeRelayKey(db: Db, storeId: number): Promise<RelayKeyMaterial> {
  const existing = await db.prisma.relayKey.findFirst({ where: { active: true, ...inStore(storeId) } });
  if (existing) return toMaterial(existing);
  const k = newKey();
  try {
    return toMaterial(await db.prisma.relayKey.create({ data: { ...k, active: true, ...inStore(storeId) } }));
  } catch {
    // Another process created it first: the partial unique index allows one active key a store.
    return toMaterial(await db.prisma.relayKey.findFirstOrThrow({ where: { active: true, ...inStore(storeId) } }));
  }
}

/** Retires the store's active key and activates a new one, atomically. Returns the new public key. */
export async function rotateRelayKey(db: Db, storeId: number): Promise<string> {
  const k = newKey();
  await db.prisma.$transaction([
    db.prisma.relayKey.updateMany({ where: { active: true, ...inStore(storeId) }, data: { active: false, retiredAt: new Date() } }),
    db.prisma.relayKey.create({ data: { ...k, active: true, ...inStore(storeId) } }),
  ]);
  return k.pubkey;
}
