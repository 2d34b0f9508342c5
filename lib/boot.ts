// Process start-up, shared by `npm start` (via instrumentation.ts) and the standalone worker:
// open the database and migrate it, seed the store from the environment, make sure a relay key
// exists. Later stages (bootstrap credentials, chain worker) hook in here.
import { config, type Config } from './config';
import { getDb, type Db, makePrivate, secureDataDir } from './db';
import { log } from './log';
import { activeRelayKey } from './payments';
import { ensureBootstrapKey, claimOperator, ensureAdminUser, issueSetupCode } from './auth';
import { FIRST_STORE_ID, seedFirstStore } from './stores';

export async function seedStore(db: Db, cfg: Config): Promise<void> {
  await seedFirstStore(db, { storeXpub: cfg.storeXpub ?? undefined, storeAddress: cfg.storeAddress ?? undefined });
}

/**
 * ADMIN_EMAIL/ADMIN_PASSWORD create the owner; otherwise /setup needs the code we log here. The
 * account ADMIN_EMAIL names is the operator whenever it exists.
 */
async function ensureFirstAccount(db: Db, cfg: Config): Promise<void> {
  if (cfg.adminEmail && cfg.adminPassword) {
    await ensureAdminUser(db, cfg.adminEmail, cfg.adminPassword);
    return;
  }
  if (cfg.adminEmail) await claimOperator(db, cfg.adminEmail);
  const issued = await issueSetupCode(db);
  if (issued && 'issuedAt' in issued)
    log.warn('no account exists yet: open /setup and enter the one-time setup code logged just before, which is still valid', {
      setup_code_issued_at: issued.issuedAt.toISOString(),
      setup_url: `${cfg.publicUrl}/setup`,
    });
  else if (issued)
    log.warn('no account exists yet: open /setup and enter this one-time setup code', {
      setup_code: issued.code,
      setup_url: `${cfg.publicUrl}/setup`,
    });
}

const g = globalThis as { __counterBoot?: Promise<void> };

export function boot(): Promise<void> {
  if (!g.__counterBoot) {
    g.__counterBoot = (async () => {
      const cfg = config();
      // Before anything writes there (PGlite, chain files): DATA_DIR 0700, umask 077.
      secureDataDir(cfg.dataDir);
      (await import('./rates')).loadRateConfig(); // a bad RATE_* variable stops start-up, named
      const db = await getDb();
      await seedStore(db, cfg);
      await (await import('./chain')).seedBirthdayFromEnv(db, cfg.walletBirthday);
      const key = await activeRelayKey(db, FIRST_STORE_ID);
      if (cfg.bootstrapApiKey && (await ensureBootstrapKey(db, cfg.bootstrapApiKey)) === 'revoked') {
        log.warn('BOOTSTRAP_API_KEY was revoked in the back office and stays revoked; set a new secret to get a bootstrap key again');
      }
      await ensureFirstAccount(db, cfg);
      if (cfg.chainBackend === 'devnet') await (await import('./demo')).seedDemoCatalog(db, FIRST_STORE_ID);
      // PGlite has no autovacuum: vacuum before serving, then periodically (lib/db/maintenance.ts).
      await (await import('./db')).startPgliteMaintenance(db);
      if (cfg.worker === 'embedded') {
        const { staticContext } = await import('./app-context');
        const { startWorker } = await import('./worker');
        const s = staticContext();
        const w = startWorker({
          db,
          network: s.network,
          chain: s.chain,
          publicUrl: cfg.publicUrl,
          tickDelayMs: s.faults.tickDelayMs,
          leaseMs: cfg.workerLeaseMs,
        });
        for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => void w.stop().finally(() => process.exit(0)));
      }
      // PGlite rewrote a few files with its own modes while starting (lib/db/data-dir.ts).
      if (db.kind === 'pglite') makePrivate(cfg.dataDir);
      log.info('counter started', {
        network: cfg.network,
        backend: cfg.chainBackend,
        db: db.kind,
        relayPubkey: key.pubkey,
        publicUrl: cfg.publicUrl,
      });
    })();
  }
  return g.__counterBoot;
}
