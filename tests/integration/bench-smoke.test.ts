// Smoke test of `npm run bench` (issue 8): every benchmark runs for about a second on small data,
// so none of them rots. Figures are not judged here (benchmarks are never timed tests); only
// that each available benchmark completes and reports finite ratios, and the rest say so.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

describe('benchmark smoke run', () => {
  it('runs every benchmark module for ~1 s and writes a complete report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'counter-bench-smoke-'));
    try {
      const { runBenchmarks, MODULES } = await import(resolve(__dirname, '../../bench/run.mjs'));
      const out = join(dir, 'smoke.json');
      await runBenchmarks({ smoke: true, out });
      const report = JSON.parse(readFileSync(out, 'utf8'));
      expect(report.cpus).toBeGreaterThan(0);
      expect(report.commit).toMatch(/^[0-9a-f]{40}|unknown/);
      expect(Object.keys(report.results).sort()).toEqual([...MODULES].sort());
      for (const [name, r] of Object.entries<any>(report.results)) {
        if (!r.available) {
          expect(r.note, name).toMatch(/^not yet available/);
          continue;
        }
        expect(r.error, name).toBeUndefined();
        expect(r.ratios.length, name).toBeGreaterThan(0);
        for (const x of r.ratios) {
          expect(Number.isFinite(x.value), `${name}: ${x.name}`).toBe(true);
          expect(['PASS', 'MISS', 'report']).toContain(x.verdict);
        }
      }
      expect(report.results.status.metrics.status.status['5xx']).toBe(0);
      // Every pre-signed payment was accepted, on devnet and on litecoind.
      for (const run of report.results.pay.metrics.runs) expect(run.accepted, `pay at ${run.connections} clients`).toBe(run.submitted);
      expect(report.results.pay.metrics.rpc_backend_litecoind.accepted).toBeGreaterThan(0);
      expect(report.results.invoices.metrics.load.status['2xx']).toBe(report.results.invoices.metrics.load.total);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 900_000); // pay, headers and invoices set up chains and data first (minutes on a loaded machine)
});
