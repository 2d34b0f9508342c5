// `npm run screenshots`: takes the pictures in README.md and docs/ from the running app (the specs
// named in scripts/screenshot-sources.mjs start it on a seeded catalog and a real chain, and copy
// their shots over docs/), then records each picture's fingerprint in docs/screenshots.json.
// Needs a build (`npm run build`). tests/unit/screenshots-fresh.test.ts fails when a page changed
// after its picture was taken.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprint, MANIFEST, SCREENSHOTS } from './screenshot-sources.mjs';

const root = process.cwd();
const specs = [...new Set(Object.values(SCREENSHOTS).map((s) => s.spec))];
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
for (const s of Object.values(SCREENSHOTS)) env[s.env] = '1';
const run = spawnSync(join(root, 'node_modules', '.bin', 'playwright'), ['test', ...specs], { stdio: 'inherit', env });
if (run.status !== 0) {
  console.error('screenshots: a spec failed; docs/screenshots.json is left as it was');
  process.exit(1);
}
const manifest = Object.fromEntries(Object.keys(SCREENSHOTS).map((name) => [name, fingerprint(root, name)]));
writeFileSync(join(root, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
console.log(`screenshots: ${Object.keys(manifest).length} pictures taken, fingerprints in ${MANIFEST}`);
