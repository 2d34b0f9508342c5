// The static checks of `npm test` (the lint gate and the type check), run beside the build and the
// tests at the lowest CPU priority rather than before them. Vitest leaves about a fifth of the two
// cores idle (tests wait on nodes, blocks and timers); a check at nice 19 takes those cycles and
// yields the CPU to the tests and the build whenever they want it, so the checks' minute and a half
// mostly leaves the run's wall time. Each one's output is kept and printed whole at the end.
import { spawn } from 'node:child_process';

const LOWEST = '19';

/**
 * Starts `cmd args` in the background at the lowest priority; `done` resolves once it exits,
 * with its exit code, its output and how long it ran. `nice` sets the priority before the command
 * starts, so the command and everything it starts run at it from their first instruction (set
 * from here after the spawn, a fast child could run before it took effect). Where there is no
 * `nice`, the check runs at normal priority.
 */
export function backgroundCheck(name, cmd, args, env = process.env) {
  const t0 = Date.now();
  const out = [];
  const done = new Promise((resolve) => {
    const finish = (code) => resolve({ name, code, output: Buffer.concat(out).toString(), seconds: (Date.now() - t0) / 1000 });
    const start = (file, argv, fallback) => {
      let fellBack = false;
      const child = spawn(file, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (d) => out.push(d));
      child.stderr.on('data', (d) => out.push(d));
      child.on('error', (e) => {
        if (fallback && e.code === 'ENOENT') {
          fellBack = true;
          return fallback();
        }
        out.push(Buffer.from(`${cmd}: ${e.message}\n`));
        finish(1);
      });
      child.on('close', (code) => {
        if (!fellBack) finish(code ?? 1);
      });
    };
    start('nice', ['-n', LOWEST, cmd, ...args], () => start(cmd, args, null));
  });
  return { name, done };
}
