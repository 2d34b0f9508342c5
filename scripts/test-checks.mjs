// The static checks of `npm test` (the lint gate and the type check), run beside the build and the
// tests at the lowest CPU priority rather than before them. Vitest leaves about a fifth of the two
// cores idle (tests wait on nodes, blocks and timers); a check at nice 19 takes those cycles and
// yields the CPU to the tests and the build whenever they want it, so the checks' minute and a half
// mostly leaves the run's wall time. Each one's output is kept and printed whole at the end.
import { spawn } from 'node:child_process';

const LOWEST = '19';

/**
 * Runs `file argv` to its end: its exit code and its output (stdout and stderr as written).
 * A command that cannot start resolves too, with code 1, the reason as its output, and `missing`
 * when there is no such file. Also the lint gate's runner (scripts/lint.mjs).
 */
export function runCollected(file, argv, env = process.env) {
  return new Promise((resolve) => {
    const out = [];
    const child = spawn(file, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    // A spawn that fails also closes: the first of the two answers.
    child.on('error', (e) => resolve({ code: 1, output: `${file}: ${e.message}\n`, missing: e.code === 'ENOENT' }));
    child.on('close', (code) => resolve({ code: code ?? 1, output: Buffer.concat(out).toString(), missing: false }));
  });
}

/**
 * Starts `cmd args` in the background at the lowest priority; `done` resolves once it exits,
 * with its exit code, its output and how long it ran. `nice` sets the priority before the command
 * starts, so the command and everything it starts run at it from their first instruction (set
 * from here after the spawn, a fast child could run before it took effect). Where there is no
 * `nice`, the check runs at the priority it was started with.
 */
export function backgroundCheck(name, cmd, args, env = process.env) {
  const t0 = Date.now();
  const done = runCollected('nice', ['-n', LOWEST, cmd, ...args], env)
    .then((r) => (r.missing ? runCollected(cmd, args, env) : r))
    .then(({ code, output }) => ({ name, code, output, seconds: (Date.now() - t0) / 1000 }));
  return { name, done };
}
