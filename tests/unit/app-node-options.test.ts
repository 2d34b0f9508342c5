// scripts/app-node-options.mjs: the heap cap `npm start` and the benchmarks give the app.
import { describe, expect, it } from 'vitest';
import { appNodeOptions, DEFAULT_HEAP_MB } from '../../scripts/app-node-options.mjs';

describe('appNodeOptions', () => {
  it('caps the old generation by default and keeps the operator NODE_OPTIONS after it (the later flag wins)', () => {
    expect(appNodeOptions({})).toBe(`--max-old-space-size=${DEFAULT_HEAP_MB}`);
    expect(appNodeOptions({ NODE_OPTIONS: '--max-old-space-size=512 --enable-source-maps' })).toBe(
      `--max-old-space-size=${DEFAULT_HEAP_MB} --max-old-space-size=512 --enable-source-maps`,
    );
  });
  it('takes APP_HEAP_MB (0 = no cap) and ignores malformed values', () => {
    expect(appNodeOptions({ APP_HEAP_MB: '256' })).toBe('--max-old-space-size=256');
    expect(appNodeOptions({ APP_HEAP_MB: '0', NODE_OPTIONS: '--trace-gc' })).toBe('--trace-gc');
    expect(appNodeOptions({ APP_HEAP_MB: '12x; rm -rf /' })).toBe(`--max-old-space-size=${DEFAULT_HEAP_MB}`);
  });
  it('leaves room for MAX_STREAMS live streams: 128 MB + 96 KB each, 316 MB at the default 2,000', () => {
    expect(DEFAULT_HEAP_MB).toBe(316);
    expect(appNodeOptions({ MAX_STREAMS: '5' })).toBe('--max-old-space-size=129');
    expect(appNodeOptions({ MAX_STREAMS: '10000' })).toBe('--max-old-space-size=1066');
    expect(appNodeOptions({ MAX_STREAMS: 'lots' })).toBe(`--max-old-space-size=${DEFAULT_HEAP_MB}`);
    expect(appNodeOptions({ MAX_STREAMS: '10000', APP_HEAP_MB: '200' })).toBe('--max-old-space-size=200');
  });
});

describe('appNodeArgs', () => {
  it('runs PGlite on the baseline WebAssembly compiler unless APP_LIFTOFF_ONLY=0', async () => {
    const { appNodeArgs } = await import('../../scripts/app-node-options.mjs');
    expect(appNodeArgs({})).toEqual(['--liftoff-only']);
    expect(appNodeArgs({ APP_LIFTOFF_ONLY: '0' })).toEqual([]);
  });
});

describe('appMallocEnv', () => {
  it("fixes glibc's trim threshold (no dynamic mmap threshold) unless the operator tunes malloc", async () => {
    const { appMallocEnv } = await import('../../scripts/app-node-options.mjs');
    expect(appMallocEnv({})).toEqual({ MALLOC_TRIM_THRESHOLD_: '131072' });
    expect(appMallocEnv({ MALLOC_ARENA_MAX: '2' })).toEqual({});
    expect(appMallocEnv({ GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=65536' })).toEqual({});
  });
});
