// DATA_DIR holds the database (relay secret key, webhook secret, password hashes) and the
// chain files: no other local user may read it (docs/security.md). The directory is created
// 0700 (an existing one is chmod-ed to 0700), what is already in it loses its group and other
// permissions, and the process umask becomes 077 so that every file created afterwards,
// files the app writes itself are 0600 and directories 0700.
//
// PGlite (PostgreSQL under Emscripten) sets some modes itself: the data directory it unpacks on
// first start is 0666 whatever the umask, and it rewrites a few files (pg_internal.init) 0644
// on each start. openDb() therefore tightens its tree again once PGlite has opened it and when
// it closes. In between, anything PGlite creates sits under DATA_DIR, which is 0700: no other
// local user can reach it.
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_UMASK = 0o077;

/** Sets the process umask to 077 (no-op in a worker thread, where Node cannot change it). */
export function privateUmask(): void {
  try {
    process.umask(PRIVATE_UMASK);
  } catch {
    // worker threads share the main thread's umask, which the main thread has set
  }
}

/** Removes group and other permissions from `dir` and everything under it. */
export function makePrivate(dir: string): void {
  tighten(dir, 0);
}

function tighten(path: string, depth: number): void {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return; // gone meanwhile
  }
  if (st.isSymbolicLink()) return;
  if ((st.mode & 0o077) !== 0) chmodSync(path, st.mode & 0o700);
  if (st.isDirectory() && depth < 16) for (const e of readdirSync(path)) tighten(join(path, e), depth + 1);
}

/** Makes `dir` (and its parents as needed) private to this user; returns it. */
export function secureDataDir(dir: string): string {
  privateUmask();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  tighten(dir, 0);
  return dir;
}
