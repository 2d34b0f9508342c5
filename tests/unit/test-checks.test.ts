// scripts/test-checks.mjs: `npm test` runs its static checks (lint, type check) in the background
// at the lowest CPU priority, and reports each one's exit code and whole output at the end.
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { backgroundCheck } from '../../scripts/test-checks.mjs';

describe('backgroundCheck', () => {
  it('runs the command at nice 19, and so do the processes it starts', async () => {
    // `nice` with no argument prints the niceness it runs at: here a grandchild of the check.
    const r = await backgroundCheck('niceness', 'sh', ['-c', 'nice; sh -c nice']).done;
    expect(r).toMatchObject({ name: 'niceness', code: 0, output: '19\n19\n' });
    expect(r.seconds).toBeGreaterThanOrEqual(0);
  });

  it('keeps stdout and stderr, and the exit code of a check that fails', async () => {
    const r = await backgroundCheck('failing', 'sh', ['-c', 'echo found; echo "2 problems" >&2; exit 3']).done;
    expect(r.code).toBe(3);
    expect(r.output).toContain('found\n');
    expect(r.output).toContain('2 problems\n');
  });

  it('a command that cannot start fails with the reason', async () => {
    const r = await backgroundCheck('missing', '/nonexistent/eslint', []).done;
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/\/nonexistent\/eslint.*(No such file or directory|ENOENT)/);
  });

  it('where there is no `nice`, the check still runs, at the priority it was started with', async () => {
    const r = await backgroundCheck('no nice', '/bin/sh', ['-c', 'echo ran; /usr/bin/nice'], { PATH: '/nonexistent' }).done;
    expect(r).toMatchObject({ code: 0, output: `ran\n${getPriority()}\n` });
  });
});
