// `npm run lint`: ESLint (its cache in .eslintcache) and Prettier's check, side by side on two
// cores. From a clean clone the gate took 53 s against 59 s one after the other: ESLint is most
// of it, and each keeps more than one core partly busy (V8's compiler and collector threads).
// Each one's output is printed whole once it is done, so the two never interleave; the exit
// status fails when either fails.
import { join } from 'node:path';
import { runCollected } from './test-checks.mjs';

const bin = (n) => join(process.cwd(), 'node_modules', '.bin', n);
const CHECKS = [
  [bin('eslint'), ['--cache', '--cache-location', '.eslintcache', '.']],
  [bin('prettier'), ['--check', '--log-level', 'warn', '.']],
];

let failed = false;
for (const r of await Promise.all(CHECKS.map(([cmd, args]) => runCollected(cmd, args)))) {
  process.stdout.write(r.output);
  if (r.code !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
