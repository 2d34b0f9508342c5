// SQL written in pieces, as the source scans read it (tests/unit/one-writer.test.ts,
// tests/unit/store-scoped-queries.test.ts): a statement's shared parts are `const NAME = \`…\``
// literals (lib/stock's sale CTEs in the /pay acceptance, one body behind a batch and a one-row
// statement), so a template's `${NAME}` hole reads as the fragment's own text, its holes filled
// likewise. A name declared in several files resolves only in its own file.
import ts from 'typescript';

export class Fragments {
  private readonly byName = new Map<string, { file: string; node: ts.Node }[]>();
  private readonly holes = new Set<string>();

  add(file: string, sf: ts.SourceFile): this {
    const visit = (n: ts.Node) => {
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && ts.isTemplateLiteral(n.initializer)) {
        const list = this.byName.get(n.name.text) ?? [];
        list.push({ file, node: n.initializer });
        this.byName.set(n.name.text, list);
      }
      if (ts.isTemplateSpan(n) && ts.isIdentifier(n.expression)) this.holes.add(n.expression.text);
      ts.forEachChild(n, visit);
    };
    visit(sf);
    return this;
  }

  /** The literal (and its file) a hole `${name}` in `file` stands for, when it is one. */
  lookup(file: string, name: string): { file: string; node: ts.Node } | null {
    const list = this.byName.get(name) ?? [];
    return list.find((d) => d.file === file) ?? (list.length === 1 ? list[0] : null);
  }

  /** A literal some template fills a hole with: it need not parse alone, only in its statements. */
  isFragment(node: ts.Node): boolean {
    const d = node.parent;
    return !!d && ts.isVariableDeclaration(d) && ts.isIdentifier(d.name) && this.holes.has(d.name.text);
  }
}

/** How one reading fills a hole that is not a fragment (a value, a row, a name…). */
export type HoleFill = (span: ts.TemplateSpan) => string;

/**
 * The texts of a string or template literal, one per `fills` reading: a hole naming a fragment
 * reads as the fragment (in the same reading), any other hole as that reading fills it.
 */
export function literalReadings(
  node: ts.Node,
  file: string,
  fragments: Fragments | undefined,
  fills: HoleFill[],
  seen: ts.Node[] = [],
): string[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (!ts.isTemplateExpression(node)) return [];
  const filled = node.templateSpans.map((s) => {
    const frag = ts.isIdentifier(s.expression) ? fragments?.lookup(file, s.expression.text) : null;
    return frag && !seen.includes(frag.node) ? literalReadings(frag.node, frag.file, fragments, fills, [...seen, node]) : null;
  });
  return fills.map(
    (fill, k) =>
      node.head.text + node.templateSpans.map((s, i) => (filled[i] ? (filled[i]![k] ?? filled[i]![0]) : fill(s)) + s.literal.text).join(''),
  );
}
