// The one app a test worker process shares among its files: vitest's (tests/helpers/shared-app.ts)
// and Playwright's (tests/e2e/shared-shop.ts). Started by the first file that asks, with an
// operator signed in, and killed when the worker process ends. Framework-free: both runners load it.
import { rmSync } from 'node:fs';
import { startApp, type AppServer } from './app-server';
import { signIn, type Session } from './sessions';

export interface WorkerApp {
  app: AppServer;
  /** The operator's signed-in session: the operator makes each file's store. */
  operator: Session;
}

/**
 * Kills the app when the worker ends. Vitest ends a worker with SIGTERM and SIGKILLs it half a
 * second later, too soon for a graceful stop, and a Playwright worker ends with process.exit once
 * its last file is done; the app's store is a temporary one, so it is killed at once and its
 * directory removed.
 */
function stopWithWorker(app: AppServer): void {
  const kill = () => {
    try {
      process.kill(app.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
    rmSync(app.dataDir, { recursive: true, force: true });
  };
  process.once('exit', kill);
  process.once('SIGTERM', () => {
    kill();
    process.exit(0);
  });
}

/**
 * A getter of this worker's app, started with `env` (whose ADMIN_EMAIL and ADMIN_PASSWORD make
 * `operator` the operator) on its first call. A start that fails is not kept: the next file tries again.
 */
export function workerApp(env: Record<string, string>, operator: { email: string; password: string }): () => Promise<WorkerApp> {
  let shared: Promise<WorkerApp> | null = null;
  return () => {
    shared ??= (async () => {
      const app = await startApp(env);
      stopWithWorker(app);
      return { app, operator: await signIn(app.url, operator.email, operator.password) };
    })().catch((e) => {
      shared = null;
      throw e;
    });
    return shared;
  };
}
