// Web hardening against the real database layer (embedded PGlite): secrets on disk are private
// to the app's user, webhook URLs that point inside are refused when saved, and a revoked
// BOOTSTRAP_API_KEY stays revoked when the process seeds it again (as every start does).
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, statSync, chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMigratedDb, type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { updateSettings, readSettings } from '@/lib/backoffice/settings';
import { BackofficeError } from '@/lib/backoffice/errors';
import { authenticateApiKey, ensureBootstrapKey, revokeApiKey, BOOTSTRAP_KEY_ID } from '@/lib/auth';
import { NETWORKS } from '@/lib/doge';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'counter-hardening-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every path under `root` (itself included) that group or others may read, write or enter. */
export function openToOthers(root: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = statSync(p);
    if (st.mode & 0o077) out.push(`${p} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
  };
  walk(root);
  return out;
}

describe('DATA_DIR is private (docs/security.md)', () => {
  it('PGlite files (WAL included) and the directories are not group/other-readable, whatever the umask was', async () => {
    const old = process.umask(0o000); // the worst case: a umask that lets everyone read
    try {
      const root = tempDir();
      const dataDir = join(root, 'data');
      const db = await openMigratedDb({ dataDir });
      await db.prisma.appState.create({ data: { key: 'x', value: 'secret' } });
      await db.close();
      expect(readdirSync(join(dataDir, 'pglite'))).toContain('pg_wal');
      expect(openToOthers(dataDir)).toEqual([]);
    } finally {
      process.umask(old);
    }
  }, 120_000);

  it('an existing world-readable DATA_DIR (and what is in it) is tightened on open', async () => {
    const old = process.umask(0o000);
    try {
      const dataDir = join(tempDir(), 'data');
      mkdirSync(join(dataDir, 'old'), { recursive: true, mode: 0o777 });
      writeFileSync(join(dataDir, 'old', 'relay.key'), 'k', { mode: 0o666 });
      chmodSync(dataDir, 0o777);
      const db = await openMigratedDb({ dataDir });
      await db.close();
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(openToOthers(dataDir)).toEqual([]);
    } finally {
      process.umask(old);
    }
  }, 120_000);
});

describe('webhook URLs are refused when saved if they point inside (SSRF)', () => {
  let db: Db;
  afterAll(async () => db?.close());
  it.each([
    'http://127.0.0.1:3000/hook',
    'http://[::1]/hook',
    'http://0x7f000001/hook',
    'http://2130706433/hook',
    'http://0177.0.0.1/hook',
    'http://127.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.5/hook',
    'http://[fd00::1]/hook',
    'http://localhost/hook',
  ])('%s: 400 naming webhook_url', async (url) => {
    const prev = process.env.WEBHOOK_ALLOW_PRIVATE;
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    try {
      if (!db) {
        db = await openTestDb();
        await db.prisma.store.create({ data: { id: 1 } });
      }
      const err = await updateSettings(db, 1, NETWORKS.regtest, { webhook_url: url }).catch((e) => e);
      expect(err).toBeInstanceOf(BackofficeError);
      expect(err).toMatchObject({ code: 'invalid_request', field: 'webhook_url' });
      expect(err.message).toMatch(/^webhook_url: .*loopback, private, link-local or metadata/);
      expect((await readSettings(db, 1)).webhook_url).toBe('');
      // The operator's explicit opt-in lets it through.
      process.env.WEBHOOK_ALLOW_PRIVATE = '1';
      expect((await updateSettings(db, 1, NETWORKS.regtest, { webhook_url: url })).webhook_url).toBe(url);
      await updateSettings(db, 1, NETWORKS.regtest, { webhook_url: '' });
    } finally {
      if (prev === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE;
      else process.env.WEBHOOK_ALLOW_PRIVATE = prev;
    }
  });
});

describe('BOOTSTRAP_API_KEY revocation is durable (docs/security.md)', () => {
  it('is not re-created by the next start, nor after switching to another secret and back', async () => {
    const db = await openTestDb();
    try {
      const a = 'bootstrap-secret-aaaaaaaaaaaaaaaa';
      const b = 'bootstrap-secret-bbbbbbbbbbbbbbbb';
      expect(await ensureBootstrapKey(db, a)).toBe('active');
      expect(await authenticateApiKey(db, a)).not.toBeNull();
      expect(await revokeApiKey(db, 1, BOOTSTRAP_KEY_ID)).toBe(true);
      expect(await ensureBootstrapKey(db, a)).toBe('revoked'); // what the next start does
      expect(await authenticateApiKey(db, a)).toBeNull();
      expect(await ensureBootstrapKey(db, b)).toBe('active'); // a new secret is a new key
      expect(await authenticateApiKey(db, b)).not.toBeNull();
      expect(await ensureBootstrapKey(db, a)).toBe('revoked'); // and the old one stays dead
      expect(await authenticateApiKey(db, a)).toBeNull();
    } finally {
      await db.close();
    }
  });
});
