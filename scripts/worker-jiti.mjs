// How the standalone worker (scripts/worker.mjs) loads lib/, which is TypeScript: jiti transpiles
// each module on first use and keeps the result in a cache. The cache lives in the checkout's
// node_modules/.cache/jiti, beside Prisma's, rather than in the system's temporary directory:
// a fresh machine's first start transpiles some 220 modules, about 9 CPU-seconds, and two
// workers started at once on a busy machine took long enough to miss a test's 90 s start
// deadline. `warmWorkerModules` transpiles them ahead, as the test suite's global setup does.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createJiti } from 'jiti';

/** A jiti for `root` (the checkout), with the `@/` alias of tsconfig.json and the checkout's cache. */
export function workerJiti(root) {
  const fsCache = join(root, 'node_modules', '.cache', 'jiti');
  try {
    mkdirSync(fsCache, { recursive: true });
  } catch {
    // A read-only node_modules: jiti falls back to transpiling in memory.
  }
  return createJiti(join(root, 'scripts', 'worker.mjs'), { alias: { '@': root }, fsCache });
}

/** What lib/boot.ts loads, statically and by its dynamic imports, for a worker. */
export const WORKER_MODULES = [
  'boot.ts',
  'chain/index.ts',
  'db/index.ts',
  'demo/index.ts',
  'rates/index.ts',
  'app-context.ts',
  'worker.ts',
];

/** Transpiles the worker's modules into the cache by importing them (nothing starts). */
export async function warmWorkerModules(root) {
  const jiti = workerJiti(root);
  for (const m of WORKER_MODULES) await jiti.import(join(root, 'lib', m));
}
