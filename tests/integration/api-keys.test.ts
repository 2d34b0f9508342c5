import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMigratedDb, type Db } from '@/lib/db';
import { seedDataDir } from '../helpers/stores';
import {
  authenticateApiKey,
  bearerToken,
  createApiKey,
  ensureBootstrapKey,
  hashApiKey,
  hasScope,
  revokeApiKey,
  roleScopes,
} from '@/lib/auth';

let db: Db;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'counter-keys-'));
  await seedDataDir(dir);
  db = await openMigratedDb({ dataDir: dir });
});
afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('API keys', () => {
  it('parses only well-formed bearer headers', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer  abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
    expect(bearerToken('Bearer')).toBeNull();
    expect(bearerToken('Bearer a b')).toBeNull();
    expect(bearerToken(null)).toBeNull();
  });

  it('stores only the hash, authenticates the secret, and enforces scopes and revocation', async () => {
    const k = await createApiKey(db, { storeId: 1, name: 'till', scopes: ['payments:write', 'payments:read'] });
    expect(k.secret).toMatch(/^ck_[A-Za-z0-9_-]{43}$/);
    const row = await db.prisma.apiKey.findUniqueOrThrow({ where: { id: k.id } });
    expect(row.keyHash).toBe(hashApiKey(k.secret));
    expect(JSON.stringify(row)).not.toContain(k.secret.slice(10));
    const p = await authenticateApiKey(db, k.secret);
    expect(p).toEqual({ keyId: k.id, storeId: 1, scopes: ['payments:write', 'payments:read'] });
    expect(hasScope(p, 'payments:write')).toBe(true);
    expect(hasScope(p, 'node:wallet')).toBe(false);
    expect(await authenticateApiKey(db, k.secret + 'x')).toBeNull();
    expect(await authenticateApiKey(db, '')).toBeNull();
    expect(await revokeApiKey(db, 1, k.id)).toBe(true);
    expect(await authenticateApiKey(db, k.secret)).toBeNull();
    expect(await revokeApiKey(db, 1, k.id)).toBe(false);
  });

  it('rejects unknown scopes and empty scope lists', async () => {
    await expect(createApiKey(db, { storeId: 1, name: 'x', scopes: ['root'] })).rejects.toThrow(/unknown scope/);
    await expect(createApiKey(db, { storeId: 1, name: 'x', scopes: [] })).rejects.toThrow(/at least one/);
  });

  it('seeds the bootstrap key with the owner role scopes, follows a changed secret, and refuses short ones', async () => {
    const a = 'bootstrap-secret-aaaaaaaaaaaaaaaa';
    await ensureBootstrapKey(db, a);
    await ensureBootstrapKey(db, a); // idempotent
    expect((await authenticateApiKey(db, a))?.scopes).toEqual([...roleScopes('owner')]); // owner-scoped: no payments:outputs
    expect((await authenticateApiKey(db, a))?.scopes).not.toContain('payments:outputs');
    const b = 'bootstrap-secret-bbbbbbbbbbbbbbbb';
    await ensureBootstrapKey(db, b);
    expect(await authenticateApiKey(db, a)).toBeNull();
    expect(await authenticateApiKey(db, b)).not.toBeNull();
    await expect(ensureBootstrapKey(db, 'short')).rejects.toThrow(/at least/);
  });
});
