import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { dirname, isAbsolute, resolve } from 'node:path';
import { SharedAppLastSequencer } from './tests/shared-app-sequencer';

// lib/wallet is also an npm package (lib/wallet/package.json, whose "exports" name the built
// dist/). Vite resolves a directory import through a package.json's "exports", so without this
// `../../lib/wallet` and `@/lib/wallet` would load a stale build instead of the sources.
const ROOT = fileURLToPath(new URL('./', import.meta.url));
const WALLET_DIR = resolve(ROOT, 'lib/wallet');
const walletSources = {
  name: 'wallet-sdk-sources',
  enforce: 'pre' as const,
  resolveId(source: string, importer?: string) {
    const target = source.startsWith('@/')
      ? resolve(ROOT, source.slice(2))
      : isAbsolute(source)
        ? resolve(source)
        : importer && source.startsWith('.')
          ? resolve(dirname(importer), source)
          : null;
    return target === WALLET_DIR ? resolve(WALLET_DIR, 'index.ts') : null;
  },
};

export default defineConfig({
  plugins: [walletSources],
  // The wallet's own entry first: Vite applies aliases before any plugin's resolveId.
  resolve: {
    alias: [
      { find: /^@\/lib\/wallet\/?$/, replacement: resolve(WALLET_DIR, 'index.ts') },
      { find: '@', replacement: ROOT },
    ],
  },
  test: {
    // Two projects, `npm run test:unit` and `npm run test:integration`. Both share their worker
    // processes and module cache between files (isolate: false). A fresh process per file (a
    // fork, vitest's start-up, every import again) cost the two projects 1,290 CPU-s and 808 s,
    // against 1,161 CPU-s and 739 s shared (one machine, one after the other).
    // What that asks of an integration file: its apps, nodes and databases are its own (free
    // ports, temporary directories, each stopped in afterAll), and an environment variable it
    // sets is set in a hook and put back after (webhook-delivery, web-hardening-lib).
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'integration', include: ['tests/integration/**/*.test.ts'], isolate: false } },
    ],
    environment: 'node',
    // Code under test that runs in-process logs warnings and errors only, so the suite's output
    // stays readable (the apps tests start keep their own LOG_LEVEL and captured logs).
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    globalSetup: ['tests/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // The files on the worker's shared app run last in their project (tests/shared-app-sequencer.ts).
    sequence: { sequencer: SharedAppLastSequencer },
    // Test files run PGlite (PostgreSQL compiled to WebAssembly) in their own processes, each of
    // which compiles it anew; V8's optimising recompilation of its hot functions is wasted on a
    // process that lives seconds. Liftoff alone, as the app runs (scripts/app-node-options.mjs),
    // cut two PGlite-heavy files' CPU time by a third (36 → 25 s) and their wall time by 30 %.
    execArgv: ['--liftoff-only'],
    // Three files at a time on two cores. Much of an integration file's time is waiting on a
    // clock it does not own: a node's announcement delay, a block, a lease, a timeout under test.
    // With three the cores still stood idle 18 % of the time (vmstat every 5 s), and the two
    // projects took 628 s, every test passing; with two, in `npm test` the hour before (the lint
    // and type check beside them at nice 19, which take only cycles the tests leave), 701 s
    // (1 December 2026). More than three would crowd the files whose tests are about timing (bursts
    // against rate limits, leases).
    maxWorkers: 3,
  },
});
