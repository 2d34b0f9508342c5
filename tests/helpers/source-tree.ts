// The repository's sources as the unit project's source scans read them (one-writer.test.ts,
// store-scoped-queries.test.ts and store-settings-reads.test.ts in tests/unit): listed, read and
// parsed once per process. The unit project's files share their worker's module cache
// (vitest.config.mts), so the scans that run in one worker read and parse each file once between
// them, not once each.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
/** Never scanned: installed packages, generated code (Prisma's client, the wallet SDK's build) and dot folders. */
const SKIPPED = new Set(['node_modules', 'generated', 'dist']);

export interface Source {
  /** The repository-relative path, with forward slashes. */
  file: string;
  src: string;
  sf: ts.SourceFile;
}

const texts = new Map<string, string>();
const trees = new Map<string, ts.SourceFile>();

/** TypeScript's syntax tree of `src` (parents set; TSX for a .tsx file), parsed once per file name and text. */
export function parseSource(file: string, src: string): ts.SourceFile {
  const known = trees.get(file);
  if (known && known.text === src) return known;
  const sf = ts.createSourceFile(file, src, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  trees.set(file, sf);
  return sf;
}

/** Every file under `dirs` (repository-relative) whose name matches `ext`, declarations left out, read and parsed. */
export function repoSources(dirs: readonly string[], ext: RegExp): Source[] {
  const out: Source[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir)) {
      if (SKIPPED.has(e) || e.startsWith('.')) continue;
      const p = join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (ext.test(e) && !e.endsWith('.d.ts')) {
        const file = relative(ROOT, p).split('\\').join('/');
        let src = texts.get(file);
        if (src === undefined) texts.set(file, (src = readFileSync(p, 'utf8')));
        out.push({ file, src, sf: parseSource(file, src) });
      }
    }
  };
  for (const d of dirs) walk(join(ROOT, d));
  return out;
}
