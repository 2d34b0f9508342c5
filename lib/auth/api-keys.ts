// API keys: 256-bit random secrets shown once, stored only as SHA-256 hashes (a fast hash is
// right for high-entropy secrets; passwords use scrypt instead). Lookup is by hash, so a
// timing side channel reveals nothing about other keys.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db';
import { isScope, type Scope } from './scopes';
import { roleScopes } from './roles';

export const API_KEY_PREFIX = 'ck_';
export const BOOTSTRAP_KEY_ID = 'bootstrap';
export const MIN_BOOTSTRAP_KEY_LENGTH = 24;

export interface ApiPrincipal {
  keyId: string;
  /** The store the key acts for (docs/architecture.md#data). */
  storeId: number;
  scopes: Scope[];
}

export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function generateApiKeySecret(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** The short, non-secret part shown in the back office to tell keys apart. */
export function displayPrefix(secret: string): string {
  return secret.slice(0, API_KEY_PREFIX.length + 6);
}

/** Extracts the secret from `Authorization: Bearer <key>`; null when absent or malformed. */
export function bearerToken(header: string | null | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer[ ]+([!-~]{1,512})$/i.exec(header.trim());
  return m ? m[1] : null;
}

export async function createApiKey(
  db: Db,
  opts: { storeId: number; name: string; scopes: readonly string[]; createdBy?: string | null },
): Promise<{ id: string; secret: string; prefix: string; scopes: Scope[] }> {
  const scopes = [...new Set(opts.scopes)];
  const bad = scopes.filter((s) => !isScope(s));
  if (bad.length) throw new Error(`unknown scope: ${bad.join(', ')}`);
  if (scopes.length === 0) throw new Error('an API key needs at least one scope');
  const secret = generateApiKeySecret();
  const id = randomUUID();
  await db.prisma.apiKey.create({
    data: {
      id,
      storeId: opts.storeId,
      name: opts.name,
      prefix: displayPrefix(secret),
      keyHash: hashApiKey(secret),
      scopes,
      createdBy: opts.createdBy ?? null,
    },
  });
  return { id, secret, prefix: displayPrefix(secret), scopes: scopes as Scope[] };
}

export async function revokeApiKey(db: Db, storeId: number, id: string): Promise<boolean> {
  const r = await db.prisma.apiKey.updateMany({ where: { id, storeId, revokedAt: null }, data: { revokedAt: new Date() } });
  return r.count === 1;
}

const revokedBootstrapKey = (keyHash: string) => `bootstrap_revoked:${keyHash}`;

/**
 * Ensures the owner-scoped key (the owner role's scopes) from BOOTSTRAP_API_KEY exists with exactly that secret, unless
 * that secret was ever revoked (docs/security.md): a revoked bootstrap key stays revoked across
 * restarts. The revocation is remembered by the key's hash: in its own row while the secret is
 * configured, and in app_state once the operator moves to another secret, so switching back
 * does not revive it either. Returns 'revoked' when the key was left revoked.
 */
export async function ensureBootstrapKey(db: Db, secret: string): Promise<'active' | 'revoked'> {
  if (secret.length < MIN_BOOTSTRAP_KEY_LENGTH) {
    throw new Error(`BOOTSTRAP_API_KEY must be at least ${MIN_BOOTSTRAP_KEY_LENGTH} characters`);
  }
  const keyHash = hashApiKey(secret);
  const same = await db.prisma.apiKey.findUnique({ where: { keyHash }, select: { id: true, revokedAt: true } });
  if (same?.revokedAt) return 'revoked';
  if (same) {
    if (same.id === BOOTSTRAP_KEY_ID)
      await db.prisma.apiKey.update({ where: { id: BOOTSTRAP_KEY_ID }, data: { scopes: [...roleScopes('owner')] } });
    return 'active';
  }
  if (await db.prisma.appState.findUnique({ where: { key: revokedBootstrapKey(keyHash) } })) return 'revoked';
  const previous = await db.prisma.apiKey.findUnique({ where: { id: BOOTSTRAP_KEY_ID }, select: { keyHash: true, revokedAt: true } });
  if (previous?.revokedAt) {
    const key = revokedBootstrapKey(previous.keyHash);
    const value = previous.revokedAt.toISOString();
    await db.prisma.appState.upsert({ where: { key }, update: { value }, create: { key, value } });
  }
  const data = {
    name: 'Bootstrap (BOOTSTRAP_API_KEY)',
    prefix: displayPrefix(secret),
    keyHash,
    scopes: [...roleScopes('owner')],
    revokedAt: null,
  };
  await db.prisma.apiKey.upsert({ where: { id: BOOTSTRAP_KEY_ID }, update: data, create: { id: BOOTSTRAP_KEY_ID, ...data } });
  return 'active';
}

/** Resolves a bearer secret to its principal, or null for unknown or revoked keys. */
export async function authenticateApiKey(db: Db, secret: string | null): Promise<ApiPrincipal | null> {
  if (!secret) return null;
  // Plain SQL: this runs on every API request, and through the ORM the lookup cost ~1.1 ms
  // median on PGlite (several under load) against ~0.3 ms for the query itself.
  const rows = await db.query<{ id: string; store_id: number; scopes: unknown; revoked_at: unknown; last_used_at: unknown }>(
    `SELECT id, store_id, scopes, revoked_at, last_used_at FROM api_key WHERE key_hash = $1`,
    [hashApiKey(secret)],
  );
  const row = rows[0];
  if (!row || row.revoked_at !== null) return null;
  const now = Date.now();
  const lastUsed = row.last_used_at === null ? null : new Date(row.last_used_at as string | Date).getTime();
  if (lastUsed === null || now - lastUsed > 60_000) {
    // Best effort and throttled: bookkeeping must not slow down or fail the request.
    db.query(`UPDATE api_key SET last_used_at = $2 WHERE id = $1`, [row.id, new Date(now)]).catch(() => undefined);
  }
  const scopes = Array.isArray(row.scopes) ? row.scopes.map(String) : [];
  return { keyId: String(row.id), storeId: Number(row.store_id), scopes: scopes.filter(isScope) };
}

export function hasScope(p: ApiPrincipal | null, scope: Scope): boolean {
  return !!p && p.scopes.includes(scope);
}
