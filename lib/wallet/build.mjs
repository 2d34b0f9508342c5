// Builds the wallet SDK package: tsc (tsconfig.build.json) compiles lib/wallet and the lib/connect,
// lib/doge and lib/money modules it imports into dist/ (dist/wallet, dist/connect, ...), so the
// package is self-contained. The sources use extensionless relative imports (the app's bundler
// resolution); Node's ESM loader needs full paths, so the emitted .js and .d.ts files get them here.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.build.json')], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.(js|d\.ts)$/.test(name)) yield p;
  }
}

/** './errors' -> './errors.js', '../money' -> '../money/index.js' (checked against the emitted files). */
function withExtension(file, spec) {
  const base = resolve(dirname(file), spec);
  if (existsSync(base + '.js')) return spec + '.js';
  if (existsSync(join(base, 'index.js'))) return spec + '/index.js';
  throw new Error(`${file}: cannot resolve ${spec} in the build output`);
}

const SPEC = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"]*?)\2/g;
for (const f of files(dist)) {
  const src = readFileSync(f, 'utf8');
  const out = src.replace(SPEC, (m, lead, q, spec) => (/\.js$/.test(spec) ? m : `${lead}${q}${withExtension(f, spec)}${q}`));
  if (out !== src) writeFileSync(f, out);
}
console.log(`built ${dist}`);
