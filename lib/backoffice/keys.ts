// API keys and the relay key as the back office shows them: key secrets are shown once at
// creation and never again (only a prefix); the relay key shows its public key and rotates.
import { z } from 'zod';
import type { Db } from '../db';
import { createApiKey, revokeApiKey, SCOPES, BOOTSTRAP_KEY_ID } from '../auth';
import { activeRelayKey, rotateRelayKey } from '../payments';
import { BackofficeError, parseWith } from './errors';
import { recordAudit } from './audit';
import { printableName } from '../text';
import { inStore } from '../stores';

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  bootstrap: boolean;
}

const CreateKey = z
  .object({
    name: printableName(100),
    scopes: z.array(z.enum(SCOPES)).min(1, 'choose at least one scope').max(SCOPES.length),
  })
  .strict();

export async function listApiKeys(db: Db, storeId: number): Promise<ApiKeyView[]> {
  const rows = await db.prisma.apiKey.findMany({ where: inStore(storeId), orderBy: { createdAt: 'desc' }, take: 500 });
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    scopes: r.scopes,
    created_at: r.createdAt.toISOString(),
    last_used_at: r.lastUsedAt?.toISOString() ?? null,
    revoked_at: r.revokedAt?.toISOString() ?? null,
    bootstrap: r.id === BOOTSTRAP_KEY_ID,
  }));
}

/** Creates a key (any scopes, payments:outputs included); the secret is in this answer only, never in the audit log. */
export async function createApiKeyFor(db: Db, storeId: number, userId: string, input: unknown) {
  const p = parseWith(CreateKey, input);
  const k = await createApiKey(db, { storeId, name: p.name, scopes: p.scopes, createdBy: userId });
  await recordAudit(db.prisma, storeId, userId, 'api_key.create', { id: k.id, name: p.name, scopes: k.scopes });
  return { id: k.id, name: p.name, prefix: k.prefix, scopes: k.scopes, secret: k.secret };
}

export async function revokeKey(db: Db, storeId: number, id: string, actorId: string | null = null): Promise<void> {
  if (!(await revokeApiKey(db, storeId, id))) {
    // Another store's key is no such key (docs/architecture.md#data).
    const exists = await db.prisma.apiKey.findFirst({ where: { id, ...inStore(storeId) } });
    throw new BackofficeError(exists ? 'conflict' : 'not_found', exists ? 'this key is already revoked' : 'no such API key');
  }
  const k = await db.prisma.apiKey.findFirst({ where: { id, ...inStore(storeId) }, select: { name: true } });
  await recordAudit(db.prisma, storeId, actorId, 'api_key.revoke', { id, name: k?.name ?? '' });
}

export interface RelayKeyView {
  pubkey: string;
  created_at: string;
  retired: { pubkey: string; retired_at: string | null }[];
}

export async function relayKeyView(db: Db, storeId: number): Promise<RelayKeyView> {
  const active = await activeRelayKey(db, storeId);
  const rows = await db.prisma.relayKey.findMany({
    where: inStore(storeId),
    orderBy: { id: 'desc' },
    take: 6,
    select: { pubkey: true, active: true, createdAt: true, retiredAt: true },
  });
  const cur = rows.find((r) => r.pubkey === active.pubkey);
  return {
    pubkey: active.pubkey,
    created_at: (cur?.createdAt ?? new Date()).toISOString(),
    retired: rows
      .filter((r) => !r.active)
      .slice(0, 5)
      .map((r) => ({ pubkey: r.pubkey, retired_at: r.retiredAt?.toISOString() ?? null })),
  };
}

/** Retires the active relay key: new payments are signed with the new key; old ones stay valid. */
export async function rotateRelayKeyView(db: Db, storeId: number, actorId: string | null = null): Promise<RelayKeyView> {
  const before = (await activeRelayKey(db, storeId)).pubkey;
  await rotateRelayKey(db, storeId);
  const view = await relayKeyView(db, storeId);
  // Public keys only: the secret key never leaves the relay_key table.
  await recordAudit(db.prisma, storeId, actorId, 'relay_key.rotate', { pubkey: { from: before, to: view.pubkey } });
  return view;
}
