// What each lib/ folder's public files (index.ts, client.ts) export, and which of those names code
// outside the folder uses (docs/architecture.md#layers: "what a folder offers the rest is what
// those two files export"). Each file is parsed alone with the TypeScript compiler's parser, with
// no type-check, so the whole tree reads in a few seconds. tests/unit/index-exports.test.ts runs it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** The folders and root files whose code may use a lib folder's public files. */
const SCANNED_DIRS = ['app', 'lib', 'tests', 'scripts', 'bench', 'i18n'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.cache', 'results', 'generated', 'fixtures']);
const SOURCE = /\.(ts|tsx|mts|mjs|js|cjs)$/;

/** A public file, `lib/<folder>/index.ts` or `lib/<folder>/client.ts`, by its path from the root. */
export type PublicFile = string;

export interface ExportScan {
  /** Each public file and the names it exports. */
  exported: Map<PublicFile, Set<string>>;
  /** Each public file and the names that code outside its folder imports from it. */
  used: Map<PublicFile, Set<string>>;
}

const posix = (p: string) => p.split(sep).join('/');

function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(p);
      } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(p);
    }
  };
  for (const d of SCANNED_DIRS) if (existsSync(join(root, d))) walk(join(root, d));
  for (const f of readdirSync(root)) if (SOURCE.test(f) && statSync(join(root, f)).isFile()) out.push(join(root, f));
  return out;
}

function parse(file: string, text = readFileSync(file, 'utf8')): ts.SourceFile {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : /\.(mjs|js|cjs)$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
}

/** The source file a relative specifier of `from` names (`./x` → x.ts, x.tsx or x/index.ts). */
function resolveSource(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) if (existsSync(c) && statSync(c).isFile()) return c;
  return null;
}

/** The names a module exports: local declarations, `export { … }`, and `export * from`, followed. */
function exportsOf(file: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(file)) return names;
  seen.add(file);
  const sf = parse(file);
  const isExported = (n: ts.Node) =>
    ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const st of sf.statements) {
    if (ts.isExportDeclaration(st)) {
      if (st.exportClause && ts.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements) names.add(el.name.text);
      } else if (st.exportClause && ts.isNamespaceExport(st.exportClause)) {
        names.add(st.exportClause.name.text);
      } else if (st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
        const target = resolveSource(file, st.moduleSpecifier.text);
        if (target) for (const n of exportsOf(target, seen)) names.add(n);
      }
    } else if (ts.isVariableStatement(st) && isExported(st)) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) names.add(d.name.text);
    } else if (
      (ts.isFunctionDeclaration(st) ||
        ts.isClassDeclaration(st) ||
        ts.isInterfaceDeclaration(st) ||
        ts.isTypeAliasDeclaration(st) ||
        ts.isEnumDeclaration(st)) &&
      isExported(st) &&
      st.name
    ) {
      names.add(st.name.text);
    }
  }
  return names;
}

/** The public file a module specifier names, seen from `from`, or null for any other module. */
function publicFileOf(root: string, from: string, spec: string): PublicFile | null {
  const target = spec.startsWith('@/') ? join(root, spec.slice(2)) : spec.startsWith('.') ? resolve(dirname(from), spec) : null;
  if (!target) return null;
  return publicFileAt(posix(relative(root, target)));
}

/** `lib/<m>`, `lib/<m>/index(.ts)` → `lib/<m>/index.ts`; `lib/<m>/client(.ts)` → `lib/<m>/client.ts`. */
function publicFileAt(path: string): PublicFile | null {
  const m = /^lib\/([^/]+)(?:\/(index|client)(?:\.ts)?)?\/?$/.exec(path);
  if (!m) return null;
  return `lib/${m[1]}/${m[2] ?? 'index'}.ts`;
}

/** The folder of a public file, `lib/<folder>/`. */
const folderOf = (p: PublicFile) => p.slice(0, p.lastIndexOf('/') + 1);

/**
 * Whether a file's text holds a string that may name a public file (`@/lib/x`, `../x`, `'lib'`
 * in a joined path…): only those files are parsed, which spares about half the tree.
 */
function mayNamePublicFile(root: string, file: string, text: string): boolean {
  for (const [, spec] of text.matchAll(/['"`]((?:@\/|\.\.?\/|lib\b)[^'"`\n]*)['"`]/g)) {
    if (spec === 'lib' || spec.startsWith('lib/') || publicFileOf(root, file, spec)) return true;
  }
  return false;
}

/** The public file a call loads (`import('…')`, a loader given a path from the root), or null. */
function moduleLoadedBy(root: string, file: string, node: ts.Expression): PublicFile | null {
  let e = node;
  while (ts.isAwaitExpression(e) || ts.isParenthesizedExpression(e)) e = e.expression;
  if (!ts.isCallExpression(e)) return null;
  if (e.expression.kind === ts.SyntaxKind.ImportKeyword) {
    const a = e.arguments[0];
    return a && ts.isStringLiteralLike(a) ? publicFileOf(root, file, a.text) : null;
  }
  // A loader given a path from the root: `jiti.import(join(ROOT, 'lib/doge/index.ts'))`.
  const parts: string[] = [];
  const collect = (n: ts.Node) => {
    if (ts.isStringLiteralLike(n)) parts.push(n.text);
    else n.forEachChild(collect);
  };
  e.arguments.forEach(collect);
  return parts.length ? publicFileAt(parts.join('/').replace(/\/+/g, '/')) : null;
}

/** Names used from each public file by one source file. */
function usesIn(root: string, file: string, note: (pub: PublicFile, name: string | null) => void): void {
  const text = readFileSync(file, 'utf8');
  if (!mayNamePublicFile(root, file, text)) return;
  const sf = parse(file, text);
  // Namespaces bound to a public file: `import * as ns`, `const ns = await import(…)`.
  const namespaces = new Map<string, PublicFile>();
  // Public files loaded without a name we can follow (say, into an object's property).
  const opaque = new Set<PublicFile>();
  const propertyNames = new Set<string>();

  const loadedModule = (node: ts.Expression) => moduleLoadedBy(root, file, node);

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const pub = publicFileOf(root, file, node.moduleSpecifier.text);
      const bindings = node.importClause?.namedBindings;
      if (pub && bindings && ts.isNamedImports(bindings)) {
        for (const el of bindings.elements) note(pub, (el.propertyName ?? el.name).text);
      } else if (pub && bindings && ts.isNamespaceImport(bindings)) namespaces.set(bindings.name.text, pub);
      else if (pub && node.importClause?.name) note(pub, 'default');
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const pub = publicFileOf(root, file, node.moduleSpecifier.text);
      if (pub && node.exportClause && ts.isNamedExports(node.exportClause)) {
        for (const el of node.exportClause.elements) note(pub, (el.propertyName ?? el.name).text);
      } else if (pub) note(pub, null); // `export * from` another folder: all of it is passed on
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      const pub = publicFileOf(root, file, node.argument.literal.text);
      if (pub && node.qualifier) note(pub, ts.isIdentifier(node.qualifier) ? node.qualifier.text : node.qualifier.left.getText());
      else if (pub) opaque.add(pub);
    } else if (ts.isVariableDeclaration(node) && node.initializer && loadedModule(node.initializer)) {
      const pub = loadedModule(node.initializer)!;
      if (ts.isObjectBindingPattern(node.name)) {
        for (const el of node.name.elements) {
          const key = el.propertyName ?? el.name;
          if (ts.isIdentifier(key)) note(pub, key.text);
          else opaque.add(pub);
        }
      } else if (ts.isIdentifier(node.name)) namespaces.set(node.name.text, pub);
      else opaque.add(pub);
      if (node.type) visit(node.type);
      return; // the call itself is accounted for
    } else if (ts.isCallExpression(node)) {
      const pub = loadedModule(node);
      if (pub) {
        // `(await import('…')).name()`: the name is the property read off the loaded module.
        let outer: ts.Node = node;
        while (ts.isAwaitExpression(outer.parent) || ts.isParenthesizedExpression(outer.parent)) outer = outer.parent;
        if (ts.isPropertyAccessExpression(outer.parent) && outer.parent.expression === outer) note(pub, outer.parent.name.text);
        else opaque.add(pub);
      }
    }
    if (ts.isPropertyAccessExpression(node)) {
      propertyNames.add(node.name.text);
      if (ts.isIdentifier(node.expression) && namespaces.has(node.expression.text)) {
        note(namespaces.get(node.expression.text)!, node.name.text);
      }
    } else if (ts.isQualifiedName(node) && ts.isIdentifier(node.left) && namespaces.has(node.left.text)) {
      note(namespaces.get(node.left.text)!, node.right.text);
    }
    node.forEachChild(visit);
  };
  visit(sf);
  // A module held where we cannot follow it: any property of that name read in the file counts.
  for (const pub of opaque) for (const name of propertyNames) note(pub, name);
}

/** Scan the tree at `root`: every public file's exports, and its names used outside its folder. */
export function scanPublicExports(root: string): ExportScan {
  const exported = new Map<PublicFile, Set<string>>();
  const used = new Map<PublicFile, Set<string>>();
  for (const entry of readdirSync(join(root, 'lib'), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    for (const f of ['index.ts', 'client.ts']) {
      const p = join(root, 'lib', entry.name, f);
      if (existsSync(p)) {
        exported.set(`lib/${entry.name}/${f}`, exportsOf(p));
        used.set(`lib/${entry.name}/${f}`, new Set());
      }
    }
  }
  for (const file of sourceFiles(root)) {
    const rel = posix(relative(root, file));
    usesIn(root, file, (pub, name) => {
      if (!exported.has(pub) || rel.startsWith(folderOf(pub))) return; // a folder's own use is no public use
      const names = used.get(pub)!;
      if (name === null) for (const n of exported.get(pub)!) names.add(n);
      else names.add(name);
    });
  }
  return { exported, used };
}

/** Each public file's exported names that no code outside its folder uses, sorted. */
export function unusedExports(scan: ExportScan, allowed: Record<PublicFile, readonly string[] | '*'> = {}): Record<PublicFile, string[]> {
  const out: Record<PublicFile, string[]> = {};
  for (const [pub, names] of [...scan.exported].sort(([a], [b]) => a.localeCompare(b))) {
    const allow = allowed[pub];
    if (allow === '*') continue;
    const unused = [...names].filter((n) => !scan.used.get(pub)!.has(n) && !(allow ?? []).includes(n)).sort();
    if (unused.length) out[pub] = unused;
  }
  return out;
}
