// The pictures in README.md and docs/ show today's pages: each one's fingerprint
// (scripts/screenshot-sources.mjs: the page's code, styles, icons, words and seeded catalog),
// recorded by `npm run screenshots` when it took the picture, still matches the sources.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fingerprint, MANIFEST, SCREENSHOTS } from '../../scripts/screenshot-sources.mjs';

const ROOT = resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(join(ROOT, MANIFEST), 'utf8')) as Record<string, string>;

describe('docs screenshots', () => {
  it('every picture the docs show is taken by the script, and every picture it takes is shown', () => {
    const pages = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const docs = pages.map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');
    const shown = new Set([...docs.matchAll(/\]\((?:docs\/)?([\w-]+\.png)\)/g)].map((m) => m[1]));
    expect([...shown].sort()).toEqual(Object.keys(SCREENSHOTS).sort());
    for (const name of shown) expect(existsSync(join(ROOT, 'docs', name)), name).toBe(true);
  });

  for (const name of Object.keys(SCREENSHOTS)) {
    it(`docs/${name} is not older than the page it shows`, () => {
      expect(manifest[name], `docs/${name} has no fingerprint: run npm run screenshots`).toBeTypeOf('string');
      expect(fingerprint(ROOT, name), `the page behind docs/${name} changed after it was taken: run npm run screenshots`).toBe(
        manifest[name],
      );
    });
  }
});
