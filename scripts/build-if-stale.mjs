// Builds the Next.js app unless .next already holds a build of the current sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';

function walk(dir, out) {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    // dist/: build output (lib/wallet's npm package build), not a source of the app
    if (e.name === 'node_modules' || e.name === 'generated' || e.name === 'dist' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
}

/** A fingerprint of everything that goes into the build. */
export function sourceStamp(root) {
  const files = [];
  for (const d of ['app', 'lib', 'public', 'prisma', 'i18n', 'messages']) walk(join(root, d), files);
  for (const f of ['next.config.js', 'package-lock.json', 'instrumentation.ts', 'tsconfig.json', 'proxy.ts']) {
    if (existsSync(join(root, f))) files.push(join(root, f));
  }
  const h = createHash('sha256');
  for (const f of files.sort()) {
    const s = statSync(f);
    h.update(`${f}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return h.digest('hex');
}

/**
 * `typecheck: false` leaves out Next.js's type-check pass (next.config.js): for a caller that runs
 * `tsc --noEmit` itself once the build is done (scripts/test.mjs).
 */
export function buildIfStale(root = process.cwd(), { typecheck = true } = {}) {
  const stampFile = join(root, '.next', 'counter-build-stamp');
  const stamp = sourceStamp(root);
  const fresh = existsSync(join(root, '.next', 'BUILD_ID')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp;
  if (fresh) return 0;
  console.log('counter: building the app (no build for the current sources)…');
  const r = spawnSync(join(root, 'node_modules', '.bin', 'next'), ['build'], {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...(typecheck ? {} : { COUNTER_BUILD_TYPECHECK: '0' }) },
  });
  if (r.status !== 0) return r.status ?? 1;
  writeFileSync(stampFile, stamp);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(buildIfStale());
