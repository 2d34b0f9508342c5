// Comments cite pages and files of this repository (docs/architecture.md#comments). A comment
// that names a repository path which no longer exists sends the reader nowhere, so every path a
// comment names (lib/…, app/…, docs/…, tests/…) must resolve: as written, or as a module
// specifier with its extension or index.ts left out. Globs (app/get*/route.ts) are descriptions,
// not paths, and are skipped.
//
// A second check: a comment cites no issue number, no document outside the repository (the
// protocol is docs/protocol.md) and no numbered section of one (a `§` and its number), and
// every `docs/<page>.md#anchor` it cites is a heading of that page, slugged as GitHub does. An
// RFC's sections (RFC 4648 §4) stay allowed: a published standard, which any reader can open.
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const SOURCE = /\.(ts|tsx|mts|mjs|cjs|js)$/;
const SKIP_DIRS = new Set(['node_modules', 'generated', 'dist', 'results']);
const ROOTS = ['lib', 'app', 'tests', 'scripts', 'bench', 'i18n', 'prisma'];
const TOP_FILES = [
  'instrumentation.ts',
  'next.config.js',
  'playwright.config.ts',
  'prisma.config.ts',
  'vitest.config.mts',
  'vitest.stress.config.mts',
];
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

function scriptKindOf(path: string): ts.ScriptKind {
  if (/\.(tsx|jsx)$/.test(path)) return ts.ScriptKind.TSX;
  return /\.(m?js|cjs)$/.test(path) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
}

/**
 * The text of every comment in a source file, with its line, in file order. Found by the parser,
 * not by scanning tokens: a scanner on its own reads the `}` that ends a template literal's
 * `${…}` as code and a regular expression's `/` as division, loses its place, and skips every
 * comment after them (most of some files). JSX text is text, never a comment.
 */
export function commentsOf(path: string, src: string): { line: number; text: string }[] {
  const file = ts.createSourceFile(path, src, ts.ScriptTarget.Latest, false, scriptKindOf(path));
  const ranges = new Map<number, number>();
  const jsxText: [number, number][] = [];
  const add = (found: ts.CommentRange[] | undefined) => {
    for (const r of found ?? []) ranges.set(r.pos, r.end);
  };
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.JsxText) {
      jsxText.push([node.pos, node.end]);
      return;
    }
    add(ts.getLeadingCommentRanges(src, node.pos));
    add(ts.getTrailingCommentRanges(src, node.end));
    for (const child of node.getChildren(file)) visit(child);
  };
  visit(file);
  return [...ranges]
    .filter(([pos]) => !jsxText.some(([from, to]) => pos >= from && pos < to))
    .sort(([a], [b]) => a - b)
    .map(([pos, end]) => ({ line: src.slice(0, pos).split('\n').length, text: src.slice(pos, end) }));
}

const parsed = new Map<string, { line: number; text: string }[]>();
/** The comments of a source file, parsed once for both checks. */
function commentsIn(file: string): { line: number; text: string }[] {
  if (!parsed.has(file)) parsed.set(file, commentsOf(file, readFileSync(file, 'utf8')));
  return parsed.get(file)!;
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
  it('reads every comment, past template literals and regular expressions, and none in strings or JSX text', () => {
    const src = [
      '// one',
      'const url = `http://${host}/x`; // two',
      "const trim = s.replace(/\\/+$/, ''); /* three */",
      "const note = '// not a comment';",
      '// four',
    ].join('\n');
    expect(commentsOf('a.ts', src)).toEqual([
      { line: 1, text: '// one' },
      { line: 2, text: '// two' },
      { line: 3, text: '/* three */' },
      { line: 5, text: '// four' },
    ]);
    const jsx = 'const a = (\n  <p>\n    see http://x.example/y {/* five */}\n  </p>\n);';
    expect(commentsOf('a.tsx', jsx)).toEqual([{ line: 3, text: '/* five */' }]);
  });

  it('finds a stale path and passes a live one, a module specifier and a glob', () => {
    const exists = (p: string) => existsSync(join(ROOT, p));
    expect(stalePaths('// see lib/payments/no-such-file.ts and docs/nowhere.md', exists)).toEqual([
      'lib/payments/no-such-file.ts',
      'docs/nowhere.md',
    ]);
    expect(stalePaths('// lib/doge/address (docs/api.md#webhooks), app/get*/route.ts.', exists)).toEqual([]);
  });

  it('every comment in the sources', () => {
    const exists = (p: string) => existsSync(join(ROOT, p));
    const found: string[] = [];
    for (const file of sourceFiles()) {
      const rel = file.slice(ROOT.length + 1);
      for (const c of commentsIn(file)) {
        for (const p of stalePaths(c.text, exists)) found.push(`${rel}:${c.line} names ${p}`);
      }
    }
    expect(found).toEqual([]);
  });
});

/** Citations a reader cannot follow: an issue number, or a document that is not in the repository. */
const OUTSIDE_CITATIONS = [
  /\bissues? #?\d+/i,
  /\bspec\s*§[\w.]*/i,
  /reference-notes(?:\.md)?(?:\s*§\w+)?/i,
  // A numbered section of the design document (a `§` and its number, with the word before it when
  // that names the document), but not an RFC's, and not one the two patterns above already report.
  /(?<!\bRFC\s*\d+,?\s*|\bspec\s*|reference-notes(?:\.md)?\s*)(?:\b(?:contract(?:'s)?|DESIGN\.md)\s+)?§\s*\w[\w.]*/i,
];
/** A docs page with an anchor, as comments cite it. */
const DOCS_ANCHOR = /(?<![\w./@-])(docs\/[\w.-]+\.md)#([\w-]+)/g;

/** The citations in a comment that point outside the repository, as written. */
export function outsideCitations(text: string): string[] {
  const found: string[] = [];
  for (const re of OUTSIDE_CITATIONS) {
    for (const m of text.matchAll(new RegExp(re.source, re.flags + 'g'))) found.push(m[0]);
  }
  return found;
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to '-'. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor of a markdown page (headings outside fenced code; a repeated one gets -1, -2…). */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const f = /^\s*(```|~~~)/.exec(line);
    if (f) {
      if (fence === null) fence = f[1]!;
      else if (f[1] === fence) fence = null;
      continue;
    }
    const h = fence === null ? /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line) : null;
    if (!h) continue;
    const base = slug(h[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The `docs/…md#anchor` citations in a comment whose page has no such heading (a missing page is stalePaths' business). */
export function brokenAnchors(text: string, anchorsOfPage: (page: string) => Set<string> | undefined): string[] {
  const broken: string[] = [];
  for (const m of text.matchAll(DOCS_ANCHOR)) {
    const anchors = anchorsOfPage(m[1]!);
    if (anchors && !anchors.has(m[2]!)) broken.push(`${m[1]}#${m[2]}`);
  }
  return broken;
}

const pageAnchors = new Map<string, Set<string> | undefined>();
function anchorsOfPage(page: string): Set<string> | undefined {
  if (!pageAnchors.has(page)) {
    const p = join(ROOT, page);
    pageAnchors.set(page, existsSync(p) ? anchorsOf(readFileSync(p, 'utf8')) : undefined);
  }
  return pageAnchors.get(page);
}

describe('comments cite only this repository, and its anchors exist', () => {
  it('finds issue numbers and outside documents, and slugs headings as GitHub does', () => {
    expect(outsideCitations('// fixed in issue 16; see Issue 8 §3, issues #31, spec §5 and reference-notes §A')).toEqual([
      'issue 16',
      'Issue 8',
      'issues #31',
      'spec §5',
      'reference-notes §A',
      '§3',
    ]);
    expect(outsideCitations("/* contract §12, §4 Reorgs (§13), DESIGN.md §9, the contract's § 3.B */")).toEqual([
      'contract §12',
      '§4',
      '§13',
      'DESIGN.md §9',
      "contract's § 3.B",
    ]);
    expect(outsideCitations('// the issue is the fee (docs/protocol.md#relay-errors); 16 issues')).toEqual([]);
    expect(outsideCitations('// Base64 (RFC 4648 §4); JSON numbers (RFC 8259 §6); a lone "§" sign')).toEqual([]);
    expect(slug("The customer's checkout page (`/checkout/<id>`)")).toBe('the-customers-checkout-page-checkoutid');
    expect(slug('Pricing in dollars, euros… (fiat pricing)')).toBe('pricing-in-dollars-euros-fiat-pricing');
    expect(slug("libdogecoin's files")).toBe('libdogecoins-files');
    expect(slug('No `relay_token`')).toBe('no-relay_token');
    const md = '# Page\n## The relay: pay and status\n```sh\n# not a heading\n```\n## Notes\n## Notes\n';
    expect([...anchorsOf(md)]).toEqual(['page', 'the-relay-pay-and-status', 'notes', 'notes-1']);
    const pages = (p: string) => (p === 'docs/x.md' ? anchorsOf(md) : undefined);
    expect(brokenAnchors('// docs/x.md#notes-1, docs/x.md#the-relay-pay-and-status.', pages)).toEqual([]);
    expect(brokenAnchors("// docs/x.md#not-a-heading (docs/y.md#anything is stalePaths' to report)", pages)).toEqual([
      'docs/x.md#not-a-heading',
    ]);
  });

  it('every comment in the sources', () => {
    const found: string[] = [];
    for (const file of sourceFiles()) {
      const rel = file.slice(ROOT.length + 1);
      for (const c of commentsIn(file)) {
        for (const q of outsideCitations(c.text)) found.push(`${rel}:${c.line} cites ${q}`);
        for (const a of brokenAnchors(c.text, anchorsOfPage)) found.push(`${rel}:${c.line} cites ${a}, not a heading there`);
      }
    }
    expect(found).toEqual([]);
  });
});
