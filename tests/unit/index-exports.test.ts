// Each lib/ folder's public files export what the rest of the code uses, and no more
// (docs/architecture.md#layers: "what a folder offers the rest is what those two files export").
// The `lib-through-index` rule (tests/unit/architecture-layers.test.ts) makes every import from
// outside a folder go through its index.ts or client.ts; this test holds the other half: every
// name those files export is imported by code outside the folder. A name only the folder itself
// uses is imported by its files from the source file that declares it, not from the index.
//
// "Outside" is app/, the other lib/ folders, lib's own files (boot.ts, config.ts, worker.ts…),
// the root files (instrumentation.ts, proxy.ts…), scripts/, bench/ and tests/. Tests count as
// users: they drive a folder through its public files like any caller. A test that checks a
// folder's insides imports the source file itself, which neither counts here nor is forbidden.
//
// tests/helpers/public-exports.ts reads every file with the TypeScript parser (no type-check):
// named, type and namespace imports (`ns.name`), re-exports, `import('…')` types, and dynamic
// imports (`const { a } = await import('…')`, `(await import('…')).a`, bench's `jiti.import`).
// A second test plants each form in a small tree, so the scan cannot silently match nothing.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanPublicExports, unusedExports, type ExportScan } from '../helpers/public-exports';

const ROOT = join(__dirname, '..', '..');

/** Names kept exported for a reason the scan cannot see, each with that reason. */
const ALLOWED: Record<string, { names: readonly string[] | '*'; reason: string }> = {
  'lib/wallet/index.ts': {
    names: '*',
    reason:
      'lib/wallet is also an npm package (lib/wallet/package.json): its index.ts is the package entry that ' +
      'wallets outside this repository import, documented in lib/wallet/README.md, so all of it is public',
  },
};
const allowedNames = Object.fromEntries(Object.entries(ALLOWED).map(([file, { names }]) => [file, names]));

let treeScan: ExportScan | undefined;
const scanTree = () => (treeScan ??= scanPublicExports(ROOT)); // read once for both tests

describe('public index files', () => {
  it("each lib folder's index.ts and client.ts export only what code outside the folder uses", { timeout: 120_000 }, () => {
    const scan = scanTree();
    expect(scan.exported.size).toBeGreaterThan(30); // every folder's public files were read
    expect(scan.used.get('lib/payments/index.ts')?.has('createPayment')).toBe(true);
    expect(unusedExports(scan, allowedNames)).toEqual({});
  });

  it('the allowed list names public files that exist, each with its reason', { timeout: 120_000 }, () => {
    const wallet = JSON.parse(readFileSync(join(ROOT, 'lib/wallet/package.json'), 'utf8')) as { exports: Record<string, unknown> };
    expect(Object.keys(wallet.exports)).toContain('.');
    const scan = scanTree();
    for (const [file, { reason }] of Object.entries(ALLOWED)) {
      expect(scan.exported.has(file), file).toBe(true);
      expect(reason.length).toBeGreaterThan(20);
    }
  });

  describe('the scan catches an unused export, whatever the import form', () => {
    const tree = mkdtempSync(join(tmpdir(), 'counter-index-exports-'));
    afterAll(() => rmSync(tree, { recursive: true, force: true }));
    const files: Record<string, string> = {
      'lib/a/impl.ts':
        'export const used = 1, viaNs = 2, viaDyn = 3, viaDynCall = 4, viaRe = 5, unused = 6, clientUnused = 7;\n' +
        'export type ViaType = number;\n',
      'lib/a/more.ts': 'export const moreUsed = 1;\nexport function moreUnused() {}\n',
      'lib/a/index.ts':
        "export { used, viaNs, viaDyn, viaDynCall, viaRe, unused, type ViaType } from './impl';\n" +
        "export * from './more';\n" +
        'export function localUsed() {}\nexport const localUnused = 1;\nexport interface Shape { x: number }\n',
      'lib/a/client.ts': "export { used, clientUnused } from './impl';\n",
      // The folder's own uses of its index are no public use.
      'lib/a/inner.ts': "import { unused } from '.';\nimport { localUnused } from '@/lib/a';\nexport const x = unused + localUnused;\n",
      'app/page.tsx':
        "import { used, type Shape } from '@/lib/a';\nimport { used as u } from '../lib/a/client';\nexport const s: Shape = { x: used + u };\n",
      'lib/b/uses.ts': "import * as a from '../a';\nexport const n = a.viaNs;\nexport { viaRe } from '../a/index';\n",
      'lib/boot.ts': "export async function boot() {\n  const { viaDyn } = await import('./a');\n  return viaDyn;\n}\n",
      'instrumentation.ts': "export async function register() {\n  return (await import('./lib/a')).viaDynCall;\n}\n",
      'tests/t.test.ts': "export type T = import('../lib/a').ViaType;\n",
      'bench/b.mjs':
        "const a = await jiti.import(join(ROOT, 'lib/a/index.ts'));\nconsole.log(a.moreUsed);\n" +
        "const lib = { a: await jiti.import(join(ROOT, 'lib', 'a', 'index.ts')) };\nlib.a.localUsed();\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), text);
    }

    it('names each public file and each name nobody outside its folder imports', () => {
      const scan = scanPublicExports(tree);
      expect(unusedExports(scan)).toEqual({
        'lib/a/client.ts': ['clientUnused'],
        'lib/a/index.ts': ['localUnused', 'moreUnused', 'unused'],
      });
    });

    it('an allowed name or file is not reported', () => {
      const scan = scanPublicExports(tree);
      expect(unusedExports(scan, { 'lib/a/client.ts': '*', 'lib/a/index.ts': ['unused'] })).toEqual({
        'lib/a/index.ts': ['localUnused', 'moreUnused'],
      });
    });
  });
});
