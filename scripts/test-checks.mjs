// The static checks of `npm test` (the lint gate and the type check), run beside the build and the
// tests at the lowest CPU priority rather than before them. Vitest leaves about a fifth of the two
// cores idle (tests wait on nodes, blocks and timers); a check at nice 19 takes those cycles and
// yields the CPU to the tests and the build whenever they want it, so the checks' minute and a half
// mostly leaves the run's wall time. Each one's output is kept and printed whole at the end.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

const LOWEST = 19;

/**
 * Starts `cmd args` in the background at the lowest priority; `done` resolves once it exits,
 * with its exit code, its output and how long it ran.
 */
export function backgroundCheck(name, cmd, args, env = process.env) {
  const t0 = Date.now();
  const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  // Set before the child has had time to start its own children, which inherit it.
  try {
    setPriority(child.pid, LOWEST);
  } catch {
    /* not permitted here: the check still runs, at normal priority */
  }
  const out = [];
  child.stdout.on('data', (d) => out.push(d));
  child.stderr.on('data', (d) => out.push(d));
  const done = new Promise((resolve) => {
    const finish = (code) => resolve({ name, code, output: Buffer.concat(out).toString(), seconds: (Date.now() - t0) / 1000 });
    child.on('error', (e) => {
      out.push(Buffer.from(`${cmd}: ${e.message}\n`));
      finish(1);
    });
    child.on('close', (code) => finish(code ?? 1));
  });
  return { name, done };
}
