// Integration files share their worker process (vitest.config.mts): an environment variable one
// file sets at load time would hold for every file the worker runs after it. So no integration
// file or test helper writes process.env outside a function: a file that needs a variable sets
// it in a hook (or a test) and puts it back after.
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { repoSources, parseSource } from '../helpers/source-tree';

const isProcessEnv = (n: ts.Node): boolean =>
  ts.isPropertyAccessExpression(n) && n.name.text === 'env' && ts.isIdentifier(n.expression) && n.expression.text === 'process';
const onProcessEnv = (n: ts.Node): boolean =>
  (ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n)) && isProcessEnv(n.expression);

/** The writes of process.env that run when the module loads: not inside any function. */
export function loadTimeEnvWrites(sf: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n)) return;
    const write =
      (ts.isBinaryExpression(n) &&
        n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
        n.operatorToken.kind <= ts.SyntaxKind.LastAssignment &&
        (onProcessEnv(n.left) || isProcessEnv(n.left))) ||
      (ts.isDeleteExpression(n) && onProcessEnv(n.expression)) ||
      (ts.isCallExpression(n) && n.expression.getText(sf) === 'Object.assign' && n.arguments.length > 0 && isProcessEnv(n.arguments[0]));
    if (write) found.push(`${sf.fileName}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}: ${n.getText(sf).slice(0, 80)}`);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe('integration files share a worker: no environment set at load time', () => {
  const sources = repoSources(['tests/integration', 'tests/helpers'], /\.tsx?$/);

  it('sees the integration files', () => {
    expect(sources.filter((s) => s.file.startsWith('tests/integration/')).length).toBeGreaterThan(100);
  });

  it('no integration file or helper writes process.env outside a function', () => {
    expect(sources.flatMap((s) => loadTimeEnvWrites(s.sf))).toEqual([]);
  });

  it('finds a write at load time, and leaves one inside a hook alone', () => {
    const sf = parseSource(
      'probe.ts',
      [
        "process.env.A = '1';",
        "process.env['B'] ??= '2';",
        'delete process.env.C;',
        "Object.assign(process.env, { D: '4' });",
        "if (x) { process.env.E = '5'; }",
        "beforeAll(() => { process.env.F = '6'; delete process.env.G; });",
        "const set = function () { process.env.H = '8'; };",
        'const read = process.env.I;',
      ].join('\n'),
    );
    expect(loadTimeEnvWrites(sf).map((w) => w.split(':')[1])).toEqual(['1', '2', '3', '4', '5']);
  });
});
