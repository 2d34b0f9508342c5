// Starts the built app (`next start`) for a benchmark on a free loopback port with its own
// DATA_DIR, waits for /api/health, and measures the RSS of its process tree.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { appMallocEnv, appNodeArgs, appNodeOptions, nextBin } from '../../scripts/app-node-options.mjs';

export const ROOT = resolve(import.meta.dirname, '../..');

export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/** Builds the app when the build is missing or stale (same rule as npm test / npm start). */
export async function ensureBuilt() {
  const { buildIfStale } = await import(join(ROOT, 'scripts', 'build-if-stale.mjs'));
  if (buildIfStale(ROOT) !== 0) throw new Error('next build failed');
}

export async function startApp(env = {}, { dataDir, nodeArgs = [] } = {}) {
  const port = await freePort();
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'counter-bench-'));
  const url = `http://127.0.0.1:${port}`;
  let out = '';
  // `nodeArgs` (a benchmark's own, e.g. --expose-gc) and APP_NODE_ARGS add node command-line flags, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile a run.
  const extraArgs = [...nodeArgs, ...(process.env.APP_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const child = spawn(
    process.execPath,
    [...appNodeArgs(process.env), ...extraArgs, nextBin(ROOT), 'start', '-p', String(port), '-H', '127.0.0.1'],
    {
      cwd: ROOT,
      env: {
        ...appMallocEnv(process.env),
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        DATA_DIR: dir,
        PUBLIC_URL: url,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_RPS: '0',
        COUNTER_BENCH_FLOOR: '1',
        // Benchmarks keep many payments open at once; the store cap (docs/security.md) is not what they measure.
        MAX_OPEN_PAYMENTS: '100000000',
        ...(process.env.PGLITE_SHARED_BUFFERS ? { PGLITE_SHARED_BUFFERS: process.env.PGLITE_SHARED_BUFFERS } : {}),
        // As `npm start` runs it (scripts/app-node-options.mjs); APP_NODE_OPTIONS adds options,
        // APP_HEAP_MB overrides the heap cap (0 = V8's own sizing), APP_LIFTOFF_ONLY=0 drops --liftoff-only.
        NODE_OPTIONS: appNodeOptions({ APP_HEAP_MB: process.env.APP_HEAP_MB, NODE_OPTIONS: process.env.APP_NODE_OPTIONS }),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.on('data', (d) => (out = (out + d).slice(-20_000)));
  child.stderr.on('data', (d) => (out = (out + d).slice(-20_000)));
  let exited = false;
  child.on('exit', () => (exited = true));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (exited) throw new Error(`app exited during startup:\n${out}`);
    try {
      const r = await fetch(`${url}/api/health`);
      await r.arrayBuffer();
      if (r.status === 200 || r.status === 503) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`app did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port,
    dataDir: dir,
    pid: child.pid,
    logs: () => out,
    rssBytes: () => treeRss(child.pid),
    async stop({ keepData = false } = {}) {
      if (!exited) {
        const done = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await done;
        clearTimeout(t);
      }
      if (!keepData && !dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

function childrenOf(pid) {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((s) => Number(s.trim()))
      .filter(Boolean);
  } catch {
    return [];
  }
}

function rssOf(pid) {
  const f = `/proc/${pid}/status`;
  if (!existsSync(f)) return 0;
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(f, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** RSS of a process and all its descendants, in bytes. */
export function treeRss(pid) {
  let total = rssOf(pid);
  for (const c of childrenOf(pid)) total += treeRss(c);
  return total;
}

/**
 * POST /api/v1/payments, tried again when the connection fails: a kept-alive socket the server
 * closed after its idle timeout (between two batches) fails the request that reuses it. A retry
 * after a lost answer may leave one more unpaid payment, which no bench uses.
 */
async function postPayment(url, apiKey, unit) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(`${url}/api/v1/payments`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ items: [{ type: 'item', id: 'sku', name: 'Bench', count: 1, unit }] }),
      });
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}

export async function createPayment(app, apiKey, unit = '1') {
  const r = await postPayment(app.url, apiKey, unit);
  const body = await r.json();
  if (r.status !== 201) throw new Error(`create payment: ${r.status} ${JSON.stringify(body)}`);
  return body;
}
