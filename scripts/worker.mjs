// `npm run worker`: the chain worker alone, without Next.js (docs/operations.md#several-processes). Several may run
// against one PostgreSQL: one is active (lease row), the others stand by and take over when it
// dies. lib/ is TypeScript: jiti (a runtime dependency) transpiles it on the fly (scripts/worker-jiti.mjs).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { workerJiti } from './worker-jiti.mjs';

const root = process.cwd();
if (existsSync(join(root, '.env')) && typeof process.loadEnvFile === 'function') process.loadEnvFile(join(root, '.env'));
process.env.WORKER = 'embedded'; // this process exists to run it

const jiti = workerJiti(root);
const { boot } = await jiti.import(join(root, 'lib', 'boot.ts'));
try {
  await boot();
} catch (err) {
  console.error('worker failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
}
