// `npm test`: the lint gate (`npm run lint`: ESLint and Prettier's check) and the type check
// (`tsc --noEmit`), each counted as one test and run beside the rest at low priority
// (scripts/test-checks.mjs); build once, then vitest (unit + integration, PGlite and PostgreSQL, litecoind,
// dogecoind) and Playwright (real Chromium), and close with one line summed over all three:
//   N passed, N failed, N skipped
// TEST_PARALLEL=1 runs vitest and Playwright side by side, Playwright's output kept in
// test-results/playwright.log and printed whole after vitest's. On this 2-core machine that took
// 33.6 min against about 35 one after the other, and it loads the timing-sensitive tests (bursts
// against rate limits, leases) more, so one after the other stays the default.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildIfStale } from './build-if-stale.mjs';
import { backgroundCheck } from './test-checks.mjs';
import { playwrightFailures, vitestFailures } from './test-failures.mjs';
import { ramTmpdir, removeTmpdir } from './test-tmpdir.mjs';

const root = process.cwd();
const bin = (n) => join(root, 'node_modules', '.bin', n);
const results = join(root, 'test-results');
mkdirSync(results, { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' };
// The run's temporary files on a RAM-backed filesystem when there is one (scripts/test-tmpdir.mjs).
const tmp = ramTmpdir(env);
if (tmp) {
  env.TMPDIR = tmp;
  console.log(`temporary files in ${tmp}`);
}
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = []; // printed above the totals (scripts/test-failures.mjs)

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Runs a command to its end; its output goes to the terminal, or to `logFile` when given. */
function run(cmd, args, logFile) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, stdio: logFile ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    if (logFile) {
      const log = createWriteStream(logFile);
      child.stdout.pipe(log, { end: false });
      child.stderr.pipe(log, { end: false });
      child.on('close', (code) => log.end(() => resolve(code ?? 1)));
    } else {
      child.on('close', (code) => resolve(code ?? 1));
    }
  });
}

function countVitest(status, vr) {
  if (vr) {
    totals.passed += vr.numPassedTests ?? 0;
    totals.failed += vr.numFailedTests ?? 0;
    totals.skipped += (vr.numPendingTests ?? 0) + (vr.numTodoTests ?? 0);
    // A file that failed to load has no test results but a failed suite: count it.
    totals.failed += (vr.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0).length;
    failures.push(...vitestFailures(vr, root));
  }
  if (status !== 0 && (!vr || (vr.numFailedTests ?? 0) === 0)) {
    totals.failed += vr ? 0 : 1;
    if (vr && (vr.numFailedTestSuites ?? 0) === 0) totals.failed += 1; // runner error outside tests
    if (!vr || (vr.numFailedTestSuites ?? 0) === 0) failures.push(`vitest exited ${status} outside any test`);
  }
}

function countPlaywright(status, pr) {
  if (pr?.stats) {
    totals.passed += (pr.stats.expected ?? 0) + (pr.stats.flaky ?? 0);
    totals.failed += pr.stats.unexpected ?? 0;
    totals.skipped += pr.stats.skipped ?? 0;
    if (status !== 0 && (pr.stats.unexpected ?? 0) === 0) totals.failed += 1;
    if ((pr.errors ?? []).length) totals.failed += pr.errors.length;
    failures.push(...playwrightFailures(pr));
    if (status !== 0 && (pr.stats.unexpected ?? 0) === 0 && !(pr.errors ?? []).length)
      failures.push(`playwright exited ${status} outside any test`);
  } else if (status !== 0) {
    totals.failed += 1;
    failures.push(`playwright exited ${status} without a report`);
  }
}

/** A static check's verdict (the lint gate, the type check): one test, passed or failed. */
function countCheck(r, label) {
  if (r.output.trim()) process.stdout.write(r.output.endsWith('\n') ? r.output : r.output + '\n');
  console.log(`${r.name}: ${r.code === 0 ? 'passed' : 'FAILED'} in ${r.seconds.toFixed(1)} s (beside the tests, at low priority)`);
  if (r.code === 0) totals.passed += 1;
  else {
    totals.failed += 1;
    failures.push(label);
  }
}

// The lint gate starts first and the type check once the build has written the route types it
// checks (.next/types); both run beside the tests at the lowest priority (scripts/test-checks.mjs).
// Beside the build at the same priority, Turbopack's compile had taken 98 s instead of 31 s and
// the lint 164 s instead of 59 s; at nice 19 the build keeps the cores it wants.
async function main() {
  const checks = [{ check: backgroundCheck('lint', 'npm', ['run', '--silent', 'lint'], env), label: 'npm run lint' }];
  try {
    if (buildIfStale(root, { typecheck: false }) !== 0) {
      console.error('next build failed');
      totals.failed += 1;
      failures.push('next build');
      return;
    }
    checks.push({ check: backgroundCheck('typecheck', bin('tsc'), ['--noEmit'], env), label: 'tsc --noEmit' });
    await tests();
  } finally {
    for (const { check, label } of checks) countCheck(await check.done, label);
  }
}

async function tests() {
  const vjson = join(results, 'vitest.json');
  const pjson = join(results, 'playwright.json');
  const plog = join(results, 'playwright.log');
  for (const f of [vjson, pjson, plog]) rmSync(f, { force: true });
  const vitest = () => run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vjson}`]);
  const serial = process.env.TEST_PARALLEL !== '1';
  const playwright = () => run(bin('playwright'), ['test'], serial ? undefined : plog);

  let vStatus, pStatus;
  if (serial) {
    vStatus = await vitest();
    pStatus = await playwright();
  } else {
    const p = playwright();
    vStatus = await vitest();
    console.log('\nPlaywright (test-results/playwright.log):');
    pStatus = await p;
    if (existsSync(plog)) process.stdout.write(readFileSync(plog));
  }
  countVitest(vStatus, readJson(vjson));
  countPlaywright(pStatus, readJson(pjson));
}

try {
  await main();
} finally {
  removeTmpdir(tmp);
}
if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
