// scripts/test-tmpdir.mjs: `npm test` keeps its temporary files on /dev/shm when it can, in a
// directory of its own that every user can write to (PostgreSQL's clusters run as `postgres`).
import { existsSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ramTmpdir, removeTmpdir } from '../../scripts/test-tmpdir.mjs';

describe('ramTmpdir', () => {
  it('leaves a TMPDIR the developer set alone', () => {
    expect(ramTmpdir({ TMPDIR: '/var/tmp' })).toBeNull();
  });

  it.runIf(existsSync('/dev/shm'))('makes a fresh sticky, world-writable directory on /dev/shm, and removeTmpdir takes it away', () => {
    const a = ramTmpdir({});
    const b = ramTmpdir({ TMPDIR: ' ' });
    try {
      expect(a).toMatch(/^\/dev\/shm\/counter-test-/);
      expect(b).toMatch(/^\/dev\/shm\/counter-test-/);
      expect(a).not.toBe(b);
      expect(statSync(a!).mode & 0o7777).toBe(0o1777);
    } finally {
      removeTmpdir(a);
      removeTmpdir(b);
    }
    expect(existsSync(a!)).toBe(false);
    removeTmpdir(null);
  });
});
