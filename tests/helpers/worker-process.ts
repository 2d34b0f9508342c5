// The standalone chain worker (scripts/worker.mjs, what `npm run worker` runs) as a real child
// process, for tests of several processes on one database (docs/operations.md#several-processes):
// started with its own data directory and the environment given, its output kept, SIGKILLed.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

export interface WorkerProcess {
  child: ChildProcess;
  /** Its stdout and stderr so far (JSON log lines). */
  out: () => string;
  /** Its DATA_DIR, a temporary directory of its own. */
  dir: string;
  exited: () => boolean;
}

/** Starts a worker in production mode with `env` (the chain, the database, the public URL…). */
export function spawnWorker(env: Record<string, string>): WorkerProcess {
  const dir = mkdtempSync(join(tmpdir(), 'counter-worker-'));
  let out = '';
  let exited = false;
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'scripts', 'worker.mjs')], {
    cwd: ROOT,
    env: {
      NODE_ENV: 'production',
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      DATA_DIR: dir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d));
  child.stderr!.on('data', (d: Buffer) => (out += d));
  child.on('exit', () => (exited = true));
  return { child, out: () => out, dir, exited: () => exited };
}

/** SIGKILLs the worker; resolves once it has exited. */
export async function killWorker(w: WorkerProcess) {
  const gone = new Promise((r) => (w.exited() ? r(null) : w.child.once('exit', r)));
  w.child.kill('SIGKILL');
  await gone;
}

/** The worker holds the lease and runs the chain work. */
export const isActive = (w: WorkerProcess) => /"msg":"chain worker active"/.test(w.out());
/** The worker process has started (active or standby). */
export const isStarted = (w: WorkerProcess) => /"msg":"counter started"/.test(w.out());

/** At the end of a test: kills the worker if it still runs and removes its data directory. */
export function disposeWorker(w: WorkerProcess) {
  if (!w.exited()) w.child.kill('SIGKILL');
  rmSync(w.dir, { recursive: true, force: true });
}
