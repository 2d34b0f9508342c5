// One typed configuration (docs/configuration.md): lib/config.ts is the only file in lib/ and app/
// that reads process.env, and every variable read there or by the parsers it hands the
// environment to is documented in docs/configuration.md. scripts/ and tests/ keep their own reads.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadRuntimeSettings } from '@/lib/config';

const ROOT = resolve(__dirname, '../..');
const THE_READER = 'lib/config.ts';

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    if (e.name === 'generated' || e.name === 'dist' || e.name.startsWith('.')) continue;
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...files(p));
    else if (/\.(ts|tsx)$/.test(e.name)) out.push(p);
  }
  return out;
}

type Source = { path: string; text: string };

/**
 * Reads of process.env outside the one reader. NODE_ENV in a client component is no read: Next.js
 * writes the build's mode into the bundle in its place.
 */
export function strayReads(sources: Source[]): string[] {
  const found: string[] = [];
  for (const { path, text } of sources) {
    if (path === THE_READER) continue;
    const client = /^\s*['"]use client['"]/.test(text);
    for (const m of text.matchAll(/process\.env(?:\.(\w+))?/g)) {
      if (client && m[1] === 'NODE_ENV') continue;
      found.push(`${path}: ${m[0]}`);
    }
  }
  return found;
}

/** Every variable name the sources read from an environment object. */
export function variablesRead(sources: Source[]): Set<string> {
  const names = new Set<string>();
  const patterns = [
    /\benv\??\.([A-Z][A-Z0-9_]+)\b/g, // env.PORT, env?.TZ
    /\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g, // env['PORT']
    /\(env, '([A-Z][A-Z0-9_]+)'/g, // pick(env, 'WORKER', …), seconds(env, 'RATE_REFRESH_SEC', …)
    /`(RATE_URL)_\$\{/g, // RATE_URL_<NAME>
  ];
  for (const { text } of sources) for (const re of patterns) for (const m of text.matchAll(re)) names.add(m[1]);
  // The operating knobs' schema in lib/config.ts names its variables as keys.
  const reader = sources.find((s) => s.path === THE_READER)?.text ?? '';
  const schema = /const runtimeSchema = z\.object\(\{([\s\S]*?)\n\}\);/.exec(reader)?.[1] ?? '';
  for (const m of schema.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)) names.add(m[1]);
  return names;
}

/** The variables missing from the configuration page (RATE_URL stands for RATE_URL_<NAME>). */
export function undocumented(names: Iterable<string>, page: string): string[] {
  return [...names].filter((n) => !page.includes(n === 'RATE_URL' ? '`RATE_URL_<NAME>`' : `\`${n}\``)).sort();
}

const sources = (): Source[] => [...files('lib'), ...files('app')].map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));
const page = () => readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');

describe('one typed configuration', () => {
  it('only lib/config.ts reads process.env in lib/ and app/', () => {
    const all = sources();
    expect(all.length).toBeGreaterThan(100);
    expect(strayReads(all)).toEqual([]);
  });

  it('the scan catches a stray read, and lets the reader and a client NODE_ENV be', () => {
    expect(strayReads([{ path: 'lib/x.ts', text: 'const n = Number(process.env.SCRYPT_CONCURRENCY);' }])).toEqual([
      'lib/x.ts: process.env.SCRYPT_CONCURRENCY',
    ]);
    expect(strayReads([{ path: 'app/x.ts', text: 'export function f(env = process.env) {}' }])).toHaveLength(1);
    expect(strayReads([{ path: 'app/x.ts', text: "if (process.env.NODE_ENV !== 'production') {}" }])).toHaveLength(1);
    expect(strayReads([{ path: 'app/x.tsx', text: "'use client';\nif (process.env.NODE_ENV !== 'production') {}" }])).toEqual([]);
    expect(strayReads([{ path: THE_READER, text: 'process.env.PORT' }])).toEqual([]);
  });

  it('every variable read is documented in docs/configuration.md', () => {
    const names = variablesRead(sources());
    // The scan sees the readers of DESIGN's table and of the knobs beside it.
    for (const n of [
      'PORT',
      'PUBLIC_URL',
      'CHAIN_BACKEND',
      'WORKER',
      'RATE_REFRESH_SEC',
      'RATE_URL',
      'SMTP_URL',
      'SMTP_FROM',
      'SMTP_TIMEOUT_MS',
      'TRUST_PROXY',
      'SCRYPT_CONCURRENCY',
      'TZ',
    ]) {
      expect(names, n).toContain(n);
    }
    expect(undocumented(names, page())).toEqual([]);
  });

  it('a variable missing from the page is named', () => {
    const withoutFrom = page().replaceAll('`SMTP_FROM`', 'SMTP_FROM');
    expect(undocumented(['SMTP_FROM', 'SMTP_URL'], withoutFrom)).toEqual(['SMTP_FROM']);
  });

  it('the operating knobs keep their defaults and fall back on nonsense', () => {
    expect(loadRuntimeSettings({})).toEqual({
      scryptConcurrency: 2,
      pgliteSharedBuffers: null,
      smtpTimeoutMs: null,
      benchFloor: false,
      testCrashBeforeBroadcast: false,
      testTickDelayMs: 0,
      testRenderError: false,
    });
    expect(
      loadRuntimeSettings({ SCRYPT_CONCURRENCY: ' 4 ', PGLITE_SHARED_BUFFERS: '32MB', SMTP_TIMEOUT_MS: '2500', COUNTER_BENCH_FLOOR: '1' }),
    ).toMatchObject({
      scryptConcurrency: 4,
      pgliteSharedBuffers: '32MB',
      smtpTimeoutMs: 2500,
      benchFloor: true,
    });
    expect(loadRuntimeSettings({ SCRYPT_CONCURRENCY: '65', PGLITE_SHARED_BUFFERS: '32 MB', SMTP_TIMEOUT_MS: '-1' })).toMatchObject({
      scryptConcurrency: 2,
      pgliteSharedBuffers: null,
      smtpTimeoutMs: null,
    });
  });
});
