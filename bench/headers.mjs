// `headers`: header sync from a regtest litecoind holding 20,000+ blocks, headers/s and peak RSS
// of the spv node (CHAIN_BACKEND=spv's SpvBackend, header store on PGlite), against a second
// litecoind syncing the same chain over P2P (target ≥ 0.5×). Runs scripts/measure-header-sync.mjs
// (the one measurement, also usable by hand) in its own process and reads its JSON summary.
import { spawn } from 'node:child_process';
import { ROOT } from './lib/app.mjs';

export function measureHeaderSync(blocks, store = 'pglite') {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/measure-header-sync.mjs', String(blocks), store], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err = (err + d).slice(-10_000)));
    child.once('error', reject);
    child.once('exit', (code) => {
      const start = out.search(/^\{$/m); // the multi-line summary, after any log lines
      if (code !== 0 || start < 0) return reject(new Error(`measure-header-sync exited ${code}:\n${out.slice(-5000)}\n${err}`));
      try {
        resolve(JSON.parse(out.slice(start)));
      } catch (e) {
        reject(new Error(`measure-header-sync printed no JSON summary: ${e.message}\n${out.slice(-5000)}`));
      }
    });
  });
}

const benchmark = {
  name: 'headers',
  description: 'spv header sync vs litecoind (regtest, 20,000 blocks), target ≥ 0.5×',
  async run({ smoke }) {
    const blocks = smoke ? 300 : 20_000;
    const r = await measureHeaderSync(blocks);
    if (r.blocks !== blocks || !(r.spv?.headersSec > 0) || !(r.litecoind?.headersSec > 0))
      throw new Error(`unexpected summary: ${JSON.stringify(r)}`);
    return {
      metrics: { blocks, store: r.store, litecoind: r.litecoind, spv: r.spv },
      ratios: [
        // Rate ratio = litecoind's time / spv's time for the same chain.
        {
          name: 'spv headers/s / litecoind headers/s',
          value: Math.round((r.litecoind.headersSec / r.spv.headersSec) * 1000) / 1000,
          target: 0.5,
        },
      ],
    };
  },
};

export default benchmark;
