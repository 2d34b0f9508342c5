import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { dirname, isAbsolute, resolve } from 'node:path';

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
    // Two projects: unit files share their worker's module cache (pure functions, no server, no
    // process-wide state), which more than halves their time; integration files each get a fresh
    // process, since they set the environment the config reader caches and start databases.
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'integration', include: ['tests/integration/**/*.test.ts'] } },
    ],
    environment: 'node',
    // Code under test that runs in-process logs warnings and errors only, so the suite's output
    // stays readable (the apps tests start keep their own LOG_LEVEL and captured logs).
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    globalSetup: ['tests/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Test files run PGlite (PostgreSQL compiled to WebAssembly) in their own processes, each of
    // which compiles it anew; V8's optimising recompilation of its hot functions is wasted on a
    // process that lives seconds. Liftoff alone, as the app runs (scripts/app-node-options.mjs),
    // cut two PGlite-heavy files' CPU time by a third (36 → 25 s) and their wall time by 30 %.
    execArgv: ['--liftoff-only'],
    // Two cores: integration files start servers and databases; keep parallelism modest.
    maxWorkers: 2,
  },
});
