// Vitest global setup: make sure a production build of the current sources exists before any
// test starts the app server (the build is skipped when it is already fresh).
// COUNTER_SKIP_BUILD=1 skips it for a targeted run of files that never start the app (unit tests,
// library-level integration tests): a developer's loop need not wait for `next build`.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Transpiles the standalone worker's modules into its jiti cache (scripts/worker-jiti.mjs), in a
 * child process beside the template's build: on a fresh checkout the tests that start workers
 * would otherwise each pay for it, two at once, against their start deadlines.
 */
function warmWorkerModules(root: string): Promise<void> {
  const script = `import(${JSON.stringify(pathToFileURL(resolve(root, 'scripts/worker-jiti.mjs')).href)})
    .then((m) => m.warmWorkerModules(${JSON.stringify(root)}))
    .then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });`;
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('close', (code) => {
      // Not fatal: a worker still transpiles what it lacks when it starts.
      if (code !== 0) console.warn(`warming the worker's modules failed (exit ${code})`);
      done();
    });
  });
}

export default async function setup() {
  const root = resolve(__dirname, '..');
  // The migrated PGlite template every test store and app starts from (tests/helpers/pglite-template.ts),
  // built once here rather than by two workers at once.
  const { pgliteTemplate } = await import(resolve(__dirname, 'helpers/pglite-template.ts'));
  await Promise.all([pgliteTemplate(), warmWorkerModules(root)]);
  if (process.env.COUNTER_SKIP_BUILD === '1') return;
  const { buildIfStale } = await import(resolve(__dirname, '../scripts/build-if-stale.mjs'));
  const status = buildIfStale(root);
  if (status !== 0) throw new Error('next build failed');
}
