// Starts the real built app (`next start`) on a free loopback port with its own DATA_DIR and
// environment, waits until /api/health answers, and stops it by pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './ports';
import { seedDataDir } from './pglite-template';
import { appMallocEnv, appNodeArgs, appNodeOptions, nextBin } from '../../scripts/app-node-options.mjs';

export interface AppServer {
  url: string;
  port: number;
  dataDir: string;
  pid: number;
  logs(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const ROOT = resolve(__dirname, '../..');

// The app on the in-process devnet chain (regtest), which mines a block only when a test asks (POST /demo/api/mine).
export function devnetAppEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { DOGE_NETWORK: 'regtest', CHAIN_BACKEND: 'devnet', DEVNET_BLOCK_SECONDS: '0', ...extra };
}

export async function startApp(
  env: Record<string, string> = {},
  opts: { keepDataDir?: string; timeoutMs?: number; port?: number } = {},
): Promise<AppServer> {
  const port = opts.port ?? (await freePort());
  const dataDir = opts.keepDataDir ?? mkdtempSync(join(tmpdir(), 'counter-app-'));
  // A PGlite store starts as a copy of the migrated template (tests/helpers/pglite-template.ts):
  // seconds less per start than creating the cluster. PostgreSQL apps keep an empty DATA_DIR.
  if (!env.DATABASE_URL) await seedDataDir(dataDir);
  const url = `http://127.0.0.1:${port}`;
  let out = '';
  // Launched as `npm start` launches it (heap cap, --liftoff-only), so the suite runs the app
  // under its production memory settings.
  const child: ChildProcess = spawn(process.execPath, [...appNodeArgs({}), nextBin(ROOT), 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: ROOT,
    env: {
      ...appMallocEnv({}),
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      NODE_OPTIONS: appNodeOptions({ MAX_STREAMS: env.MAX_STREAMS }),
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      LOG_LEVEL: 'info',
      // The default chain backend is the spv node: never let a test dial the real network's
      // DNS seeds. A closed loopback port stands in unless the test names its peers.
      DOGE_PEERS: '127.0.0.1:9',
      // Likewise the exchange-rate providers (docs/api.md#exchange-rates): a closed port unless the test serves them.
      RATE_URL_COINGECKO: 'http://127.0.0.1:9',
      RATE_URL_KRAKEN: 'http://127.0.0.1:9',
      RATE_URL_COINBASE: 'http://127.0.0.1:9',
      RATE_URL_BINANCE: 'http://127.0.0.1:9',
      RATE_URL_BITSTAMP: 'http://127.0.0.1:9',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: false,
  });
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  let exited = false;
  child.on('exit', () => (exited = true));

  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    if (exited) throw new Error(`app exited during startup:\n${out}`);
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.status === 200 || r.status === 503) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`app did not start within the deadline:\n${out}`);
    }
    // A start takes about three seconds; a short step costs a refused connection and no more.
    await new Promise((r) => setTimeout(r, 50));
  }

  return {
    url,
    port,
    dataDir,
    pid: child.pid!,
    logs: () => out,
    stop: async (signal = 'SIGTERM') => {
      if (!exited) {
        const done = new Promise((r) => child.once('exit', r));
        child.kill(signal);
        const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await done;
        clearTimeout(t);
      }
      if (!opts.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
