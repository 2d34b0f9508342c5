// scripts/test-failures.mjs: `npm test` names what failed just above its totals line, from the
// JSON reports vitest and Playwright write, because CI keeps only the tail of the output.
import { describe, expect, it } from 'vitest';
import { firstLine, playwrightFailures, vitestFailures } from '../../scripts/test-failures.mjs';

describe('firstLine', () => {
  it('keeps the first line, without colours, at most 300 characters', () => {
    expect(firstLine('\u001b[31mAssertionError: expected 1 to be 2\u001b[39m\n    at foo.ts:1')).toBe('AssertionError: expected 1 to be 2');
    expect(firstLine('x'.repeat(400))).toHaveLength(300);
    expect(firstLine(undefined)).toBe('');
  });
});

describe('vitestFailures', () => {
  it('names each failed test by file and full name, and a file that failed to load', () => {
    const report = {
      testResults: [
        {
          name: '/repo/tests/a.test.ts',
          status: 'failed',
          assertionResults: [
            { status: 'passed', fullName: 'a works' },
            { status: 'failed', fullName: 'a › breaks', failureMessages: ['Error: boom\n at x'] },
          ],
        },
        { name: '/repo/tests/b.test.ts', status: 'failed', message: 'Cannot find module x', assertionResults: [] },
        { name: '/repo/tests/c.test.ts', status: 'passed', assertionResults: [{ status: 'passed', fullName: 'c' }] },
      ],
    };
    expect(vitestFailures(report, '/repo')).toEqual(['tests/a.test.ts › a › breaks: Error: boom', 'tests/b.test.ts: Cannot find module x']);
    expect(vitestFailures(null, '/repo')).toEqual([]);
  });
});

describe('playwrightFailures', () => {
  it('names each spec that did not pass by file, describe and title, and run-level errors', () => {
    const report = {
      errors: [{ message: 'webServer failed' }],
      suites: [
        {
          title: 'pos.spec.ts',
          file: 'pos.spec.ts',
          specs: [
            { title: 'sells', ok: true, tests: [{ results: [{ status: 'passed' }] }] },
            {
              title: 'hangs',
              ok: false,
              tests: [{ results: [{ status: 'timedOut', errors: [{ message: 'Test timeout of 300000ms exceeded.' }] }] }],
            },
          ],
          suites: [
            { title: 'at 390×844', specs: [{ title: 'fits', ok: false, tests: [{ results: [{ status: 'failed', errors: [] }] }] }] },
          ],
        },
      ],
    };
    expect(playwrightFailures(report)).toEqual([
      'playwright: webServer failed',
      'pos.spec.ts › hangs: Test timeout of 300000ms exceeded.',
      'pos.spec.ts › at 390×844 › fits: failed',
    ]);
  });
});
