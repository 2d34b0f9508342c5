// `npm test`: ESLint (`npm run lint`; its verdict counts as one test), then build once, run vitest
// (unit + integration, PGlite and PostgreSQL, litecoind), then Playwright in real Chromium, and
// close with one line summed over all three:
//   N passed, N failed, N skipped
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildIfStale } from './build-if-stale.mjs';

const root = process.cwd();
const bin = (n) => join(root, 'node_modules', '.bin', n);
const results = join(root, 'test-results');
mkdirSync(results, { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' };
const totals = { passed: 0, failed: 0, skipped: 0 };
let hardFailure = false;

// ESLint first: it is quick (its cache keeps unchanged files' results), and a failure does not stop the rest.
const lintStart = process.hrtime.bigint();
const lint = spawnSync('npm', ['run', '--silent', 'lint'], { stdio: 'inherit', env });
const lintSec = Number(process.hrtime.bigint() - lintStart) / 1e9;
console.log(`eslint: ${lint.status === 0 ? 'passed' : 'FAILED'} in ${lintSec.toFixed(1)} s`);
if (lint.status === 0) totals.passed += 1;
else totals.failed += 1;

if (buildIfStale(root) !== 0) {
  console.error('next build failed');
  totals.failed += 1;
  hardFailure = true;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

if (!hardFailure) {
  // vitest
  const vjson = join(results, 'vitest.json');
  rmSync(vjson, { force: true });
  const v = spawnSync(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vjson}`], { stdio: 'inherit', env });
  const vr = readJson(vjson);
  if (vr) {
    totals.passed += vr.numPassedTests ?? 0;
    totals.failed += vr.numFailedTests ?? 0;
    totals.skipped += (vr.numPendingTests ?? 0) + (vr.numTodoTests ?? 0);
    // A file that failed to load has no test results but a failed suite: count it.
    const brokenFiles = (vr.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0).length;
    totals.failed += brokenFiles;
  }
  if (v.status !== 0 && (!vr || (vr.numFailedTests ?? 0) === 0)) {
    totals.failed += vr ? 0 : 1;
    if (vr && (vr.numFailedTestSuites ?? 0) === 0) totals.failed += 1; // runner error outside tests
  }

  // Playwright
  const pjson = join(results, 'playwright.json');
  rmSync(pjson, { force: true });
  const p = spawnSync(bin('playwright'), ['test'], { stdio: 'inherit', env });
  const pr = readJson(pjson);
  if (pr?.stats) {
    totals.passed += (pr.stats.expected ?? 0) + (pr.stats.flaky ?? 0);
    totals.failed += pr.stats.unexpected ?? 0;
    totals.skipped += pr.stats.skipped ?? 0;
    if (p.status !== 0 && (pr.stats.unexpected ?? 0) === 0) totals.failed += 1;
    if ((pr.errors ?? []).length) totals.failed += pr.errors.length;
  } else if (p.status !== 0) {
    totals.failed += 1;
  }
}

console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
