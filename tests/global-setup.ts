// Vitest global setup: make sure a production build of the current sources exists before any
// test starts the app server (the build is skipped when it is already fresh).
// COUNTER_SKIP_BUILD=1 skips it for a targeted run of files that never start the app (unit tests,
// library-level integration tests): a developer's loop need not wait for `next build`.
import { resolve } from 'node:path';

export default async function setup() {
  // The migrated PGlite template every test store and app starts from (tests/helpers/pglite-template.ts),
  // built once here rather than by two workers at once.
  const { pgliteTemplate } = await import(resolve(__dirname, 'helpers/pglite-template.ts'));
  await pgliteTemplate();
  if (process.env.COUNTER_SKIP_BUILD === '1') return;
  const { buildIfStale } = await import(resolve(__dirname, '../scripts/build-if-stale.mjs'));
  const status = buildIfStale(resolve(__dirname, '..'));
  if (status !== 0) throw new Error('next build failed');
}
