// `npm run bench`: runs every benchmark of docs/performance.md (one module each in bench/), writes
// bench/results/latest.json (CPU count, commit, each figure and ratio with its target) and
// prints a table. `--smoke` runs each for about a second with small data, written to
// bench/results/smoke.json and checked (bench/lib/smoke-check.mjs): it fails when a benchmark
// rots. `--only status,memory` (or `--only=…`) picks benchmarks.
import { writeFileSync, mkdirSync, existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { ROOT, ensureBuilt } from './lib/app.mjs';
import { smokeProblems } from './lib/smoke-check.mjs';

export const MODULES = [
  'status',
  'status-rpc',
  'envelope',
  'memory',
  'scrypt',
  'pay',
  'headers',
  'invoices',
  'live',
  'detect',
  'streams',
  'stores',
];

function commit() {
  try {
    const sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${sha}+dirty` : sha;
  } catch {
    return 'unknown';
  }
}

const verdict = (r) => {
  if (r.value === null || r.value === undefined) return 'n/a';
  if (r.target === null || r.target === undefined) return 'report';
  return (r.lowerIsBetter ? r.value <= r.target : r.value >= r.target) ? 'PASS' : 'MISS';
};

export async function runBenchmarks({ smoke = false, only = null, seconds = smoke ? 1 : 10, out } = {}) {
  await ensureBuilt();
  const results = {};
  for (const name of MODULES) {
    if (only && !only.includes(name)) continue;
    const mod = (await import(`./${name}.mjs`)).default;
    if (typeof mod.available === 'string') {
      results[name] = { description: mod.description, available: false, note: mod.available };
      console.log(`- ${name}: ${mod.available}`);
      continue;
    }
    console.log(`- ${name}: ${mod.description} …`);
    const started = Date.now();
    try {
      const r = await mod.run({ seconds, smoke });
      results[name] = { description: mod.description, available: true, seconds_taken: Math.round((Date.now() - started) / 1000), ...r };
      for (const x of r.ratios) x.verdict = verdict(x);
    } catch (e) {
      results[name] = { description: mod.description, available: true, error: String(e?.stack ?? e) };
      console.error(`  ${name} failed: ${e?.message ?? e}`);
    }
  }
  const date = new Date().toISOString();
  const sha = commit();
  for (const r of Object.values(results)) Object.assign(r, { date, commit: sha });
  const file = out ?? join(ROOT, 'bench', 'results', smoke ? 'smoke.json' : 'latest.json');
  // A partial run (--only) keeps the other benchmarks' last results, each with its own date and
  // commit, so latest.json always holds a figure for every benchmark.
  if (only && existsSync(file)) {
    try {
      const previous = JSON.parse(readFileSync(file, 'utf8'));
      for (const [name, r] of Object.entries(previous.results ?? {})) {
        if (!(name in results) && MODULES.includes(name)) results[name] = { date: previous.date, commit: previous.commit, ...r };
      }
    } catch {
      /* an unreadable previous file is replaced */
    }
  }
  const ordered = Object.fromEntries(MODULES.filter((n) => n in results).map((n) => [n, results[n]]));
  const report = {
    date,
    commit: sha,
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? '',
    node: process.version,
    smoke,
    seconds_per_run: seconds,
    results: ordered,
  };
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  printTable(report);
  console.log(`\nwritten to ${file}`);
  return report;
}

export function printTable(report) {
  const rows = [['benchmark', 'ratio', 'value', 'target', 'verdict']];
  for (const [name, r] of Object.entries(report.results)) {
    if (!r.available) rows.push([name, '—', 'not yet available', '', 'TODO']);
    else if (r.error) rows.push([name, '—', 'error (see json)', '', 'ERROR']);
    else
      for (const x of r.ratios)
        rows.push([name, x.name, String(x.value), x.target === null ? '—' : `${x.lowerIsBetter ? '≤' : '≥'} ${x.target}`, x.verdict]);
  }
  const w = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(`\n${report.cpus} CPUs, node ${report.node}, commit ${report.commit.slice(0, 12)}${report.smoke ? ' (smoke run)' : ''}`);
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(w[i])).join('  '));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const smoke = args.includes('--smoke');
  // `--only=a,b` or `--only a,b`; the same for --seconds.
  const opt = (name) => {
    const i = args.findIndex((a) => a === name || a.startsWith(name + '='));
    if (i < 0) return null;
    const v = args[i].includes('=') ? args[i].slice(name.length + 1) : args[i + 1];
    if (!v || v.startsWith('--')) throw new Error(`${name} needs a value`);
    return v;
  };
  const only = opt('--only')?.split(',') ?? null;
  const unknown = only?.filter((n) => !MODULES.includes(n)) ?? [];
  if (unknown.length) throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${MODULES.join(', ')}`);
  const secs = opt('--seconds');
  const report = await runBenchmarks({ smoke, only, ...(secs ? { seconds: Number(secs) } : {}) });
  const failed = Object.values(report.results).some((r) => r.error);
  // A smoke run checks its own report (bench/lib/smoke-check.mjs), so a benchmark that rots fails it.
  const problems = smoke && !only ? smokeProblems(report, MODULES) : [];
  for (const p of problems) console.error(`smoke: ${p}`);
  process.exit(failed || problems.length ? 1 : 0);
}
