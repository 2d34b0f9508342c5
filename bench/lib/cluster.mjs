// The several-processes deployment of docs/operations.md#several-processes, for a benchmark: a
// throwaway PostgreSQL server (tests/helpers/postgres.ts: as the `postgres` user when run as
// root), web processes started as bench/lib/app.mjs starts them with WORKER=off on one
// DATABASE_URL, and one standalone chain worker (`npm run worker`, scripts/worker.mjs).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJiti } from 'jiti';
import { ROOT } from './app.mjs';

const jiti = createJiti(import.meta.url, { alias: { '@': ROOT } });

/** Null when a PostgreSQL server can be started here, else why not. */
export function postgresMissing() {
  const root = '/usr/lib/postgresql';
  const found = existsSync(root) && readdirSync(root).some((v) => existsSync(join(root, v, 'bin', 'initdb')));
  return found ? null : 'not yet available here: no PostgreSQL server (apt-get install -y postgresql)';
}

/** A PostgreSQL server and a fresh database on it: `{ url, server, stop }`. */
export async function startPostgresDb(name = 'bench') {
  const h = await jiti.import(join(ROOT, 'tests/helpers/postgres.ts'));
  const server = await h.startPostgres();
  try {
    const url = await h.createDatabase(server, name);
    return { url, name, server, stop: () => server.stop() };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

/** CPU time (user + system) a process has used so far, in ms (clock ticks of 10 ms). */
export function cpuMs(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * Starts `npm run worker` (scripts/worker.mjs) with `env` and waits until it holds the worker
 * lease ("chain worker active" in its log).
 */
export async function startWorker(env, { dataDir } = {}) {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'counter-bench-worker-'));
  let out = '';
  let exited = false;
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'worker.mjs')], {
    cwd: ROOT,
    env: {
      NODE_ENV: 'production',
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      DATA_DIR: dir,
      LOG_LEVEL: 'info',
      RATE_LIMIT_RPS: '0',
      MAX_OPEN_PAYMENTS: '100000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d) => (out = (out + d).slice(-50_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.on('exit', () => (exited = true));
  const deadline = Date.now() + 180_000;
  while (!/"msg":"chain worker active"/.test(out)) {
    if (exited) throw new Error(`worker exited during startup:\n${out.slice(-3000)}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`worker did not become active:\n${out.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    pid: child.pid,
    dataDir: dir,
    logs: () => out,
    async stop() {
      if (!exited) {
        const done = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await done;
        clearTimeout(t);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
