// `npm start`: build when there is no build of the current sources, then run `next start` on
// PORT/HOST (defaults 3000 / 0.0.0.0). Migrations run at startup (instrumentation.ts).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildIfStale } from './build-if-stale.mjs';
import { appMallocEnv, appNodeArgs, appNodeOptions, nextBin } from './app-node-options.mjs';

const root = process.cwd();
if (existsSync(join(root, '.env')) && typeof process.loadEnvFile === 'function') {
  // Next.js reads .env itself; we read it too so that PORT and HOST apply to the listener.
  process.loadEnvFile(join(root, '.env'));
}
const status = buildIfStale(root);
if (status !== 0) process.exit(status);

const port = process.env.PORT || '3000';
const host = process.env.HOST || '0.0.0.0';
// Node flags and heap cap that keep the app's RSS small: scripts/app-node-options.mjs.
const child = spawn(process.execPath, [...appNodeArgs(process.env), nextBin(root), 'start', '-p', port, '-H', host], {
  stdio: 'inherit',
  env: { ...appMallocEnv(process.env), ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_OPTIONS: appNodeOptions(process.env) },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
