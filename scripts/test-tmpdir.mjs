// Where `npm test` puts its temporary files. Every app, database cluster, chain node and browser
// profile the suite starts lives in a temporary directory: PGlite stores start as a 41 MB,
// 1,195-file copy of the migrated template (tests/helpers/pglite-template.ts), and nodes and
// databases fsync as they write. On this machine's ext4 disk one copy and removal of that
// template costs 1.3 s of kernel time; on the RAM-backed /dev/shm, 0.12 s. Eight integration
// files took 32 s (15 s of it in the kernel) against 24–30 s (6–8 s) with TMPDIR on /dev/shm,
// and the whole vitest run 795 s against 889 s.
// Nothing in the suite needs its files to outlive a reboot, and a tmpfs is a real filesystem:
// the apps read, write, fsync and rename there as they would on disk.
//
// So the run gets its own directory on /dev/shm when that is a writable tmpfs with room to
// spare, and removes it when it ends. A TMPDIR the developer set is left alone, as is a machine
// without /dev/shm (the suite then uses the system's temporary directory, as before).
import { accessSync, constants, mkdtempSync, chmodSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';

const SHM = '/dev/shm';
/** Free space the suite wants before it moves there (its vitest phase kept at most 304 MB there). */
const MIN_FREE_BYTES = 4 * 1024 ** 3;

/** A fresh directory for the run's TMPDIR, or null to keep the environment's. */
export function ramTmpdir(env = process.env) {
  if (env.TMPDIR?.trim()) return null;
  try {
    accessSync(SHM, constants.W_OK | constants.X_OK);
    const fs = statfsSync(SHM);
    if (fs.bavail * fs.bsize < MIN_FREE_BYTES) return null;
    const dir = mkdtempSync(join(SHM, 'counter-test-'));
    // As /tmp: tests start PostgreSQL as the `postgres` user in a directory of their own here.
    chmodSync(dir, 0o1777);
    return dir;
  } catch {
    return null;
  }
}

export function removeTmpdir(dir) {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
