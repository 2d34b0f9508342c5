// What failed in a run, by name, from vitest's and Playwright's JSON reports. `npm test` prints
// these just above its closing totals line, because CI keeps only the tail of the output.
import { relative } from 'node:path';

const ANSI = /\u001b\[[0-9;]*m/g;

/** The first line of an error message, without colours, at most 300 characters. */
export function firstLine(text) {
  const line =
    String(text ?? '')
      .replace(ANSI, '')
      .trim()
      .split('\n')[0] ?? '';
  return line.slice(0, 300);
}

/** "file › test: first line of the error" for each failed vitest test, and each file that failed to load. */
export function vitestFailures(report, root) {
  const out = [];
  for (const file of report?.testResults ?? []) {
    const name = relative(root, file.name ?? '');
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failed) out.push(`${name} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    if (file.status === 'failed' && failed.length === 0) out.push(`${name}: ${firstLine(file.message)}`);
  }
  return out;
}

/** The same for Playwright: each spec that did not end as expected, and each run-level error. */
export function playwrightFailures(report) {
  const out = (report?.errors ?? []).map((e) => `playwright: ${firstLine(e.message)}`);
  const walk = (suites, titles) => {
    for (const suite of suites ?? []) {
      const path = titles.length === 0 ? [suite.file ?? suite.title] : [...titles, suite.title];
      for (const spec of suite.specs ?? []) {
        if (spec.ok) continue;
        const results = (spec.tests ?? []).flatMap((t) => t.results ?? []);
        const bad = results.find((r) => r.status !== 'passed' && r.status !== 'skipped');
        out.push(`${[...path, spec.title].join(' › ')}: ${firstLine(bad?.errors?.[0]?.message ?? bad?.status ?? 'failed')}`);
      }
      walk(suite.suites, path);
    }
  };
  walk(report?.suites, []);
  return out;
}
