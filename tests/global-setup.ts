// Vitest global setup: make sure a production build of the current sources exists before any
// test starts the app server (the build is skipped when it is already fresh).
import { resolve } from 'node:path';

export default async function setup() {
  const { buildIfStale } = await import(resolve(__dirname, '../scripts/build-if-stale.mjs'));
  const status = buildIfStale(resolve(__dirname, '..'));
  if (status !== 0) throw new Error('next build failed');
}
