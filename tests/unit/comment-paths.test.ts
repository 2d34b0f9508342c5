// Comments cite pages and files of this repository (docs/architecture.md#comments). A comment
// that names a repository path which no longer exists sends the reader nowhere, so every path a
// comment names (lib/…, app/…, docs/…, tests/…) must resolve: as written, or as a module
// specifier with its extension or index.ts left out. Globs (app/get*/route.ts) are descriptions,
// not paths, and are skipped.
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const SOURCE = /\.(ts|tsx|mts|mjs|cjs|js)$/;
const SKIP_DIRS = new Set(['node_modules', 'generated', 'dist', 'results']);
const ROOTS = ['lib', 'app', 'tests', 'scripts', 'bench', 'i18n', 'prisma'];
const TOP_FILES = ['instrumentation.ts', 'next.config.js', 'playwright.config.ts', 'prisma.config.ts', 'vitest.config.mts', 'vitest.stress.config.mts'];
/** A repository path as comments write it: a top-level folder, then path characters. */
const PATH = /(?<![\w./@-])((?:lib|app|tests|docs|scripts|bench|prisma|messages|public|i18n)\/[\w.[\]()*/-]*[\w\]*])/g;
/** Written by runs, never committed: a comment may name them before they exist. */
const RUN_OUTPUT = /^bench\/(results|\.cache)(\/|$)/;

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP_DIRS.has(e.name) || e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (SOURCE.test(e.name)) out.push(p);
    }
  };
  for (const d of ROOTS) if (existsSync(join(ROOT, d))) walk(join(ROOT, d));
  return [...out, ...TOP_FILES.map((f) => join(ROOT, f)).filter((f) => existsSync(f))];
}

/** The text of every comment in a source file, with its line. */
export function commentsOf(path: string, src: string): { line: number; text: string }[] {
  const jsx = /\.(tsx|jsx)$/.test(path) ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, jsx, src);
  const out: { line: number; text: string }[] = [];
  for (let k = scanner.scan(); k !== ts.SyntaxKind.EndOfFileToken; k = scanner.scan()) {
    if (k !== ts.SyntaxKind.SingleLineCommentTrivia && k !== ts.SyntaxKind.MultiLineCommentTrivia) continue;
    out.push({ line: src.slice(0, scanner.getTokenStart()).split('\n').length, text: scanner.getTokenText() });
  }
  return out;
}

/** The repository paths a comment names that resolve to nothing. */
export function stalePaths(text: string, exists: (p: string) => boolean): string[] {
  const stale: string[] = [];
  for (const m of text.matchAll(PATH)) {
    const p = m[1]!.replace(/[.)]+$/, '');
    if (p.includes('*') || RUN_OUTPUT.test(p)) continue;
    if (!['', '.ts', '.tsx', '.mjs', '.md', '/index.ts'].some((ext) => exists(p + ext))) stale.push(p);
  }
  return stale;
}

describe('comments name only paths that exist', () => {
  it('finds a stale path and passes a live one, a module specifier and a glob', () => {
    const exists = (p: string) => existsSync(join(ROOT, p));
    expect(stalePaths('// see lib/payments/no-such-file.ts and docs/nowhere.md', exists)).toEqual(['lib/payments/no-such-file.ts', 'docs/nowhere.md']);
    expect(stalePaths('// lib/doge/address (docs/api.md#webhooks), app/get*/route.ts.', exists)).toEqual([]);
  });

  it('every comment in the sources', () => {
    const exists = (p: string) => existsSync(join(ROOT, p));
    const found: string[] = [];
    for (const file of sourceFiles()) {
      const rel = file.slice(ROOT.length + 1);
      for (const c of commentsOf(file, readFileSync(file, 'utf8'))) {
        for (const p of stalePaths(c.text, exists)) found.push(`${rel}:${c.line} names ${p}`);
      }
    }
    expect(found).toEqual([]);
  });
});
