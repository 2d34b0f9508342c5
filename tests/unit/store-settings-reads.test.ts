// One store-settings module (lib/stores): only it reads or writes the `store` table, and every
// read names its store. The scan parses the code: Prisma calls on a `store` delegate are found in
// the TypeScript syntax tree, SQL string and template literals go through PostgreSQL's parser
// (libpg-query) and their table references are read from its tree, and a literal
// `where: { id: 1 }` is refused anywhere in lib/, app/ and scripts/ outside lib/stores. The first
// store's id (FIRST_STORE_ID) is named only by the single-store seeds, by the callers that speak
// for the installation (INSTALLATION, each with its reason), and by the callers listed in INTERIM
// below, which do not yet carry a store of their own.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { loadModule, parseSync } from 'libpg-query';
import { parseSource, repoSources } from '../helpers/source-tree';

const ROOT = join(__dirname, '..', '..');
const OWNER = 'lib/stores/';
const PRISMA_METHODS = new Set([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'count',
  'aggregate',
  'groupBy',
  'create',
  'createMany',
  'createManyAndReturn',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'upsert',
  'delete',
  'deleteMany',
]);
/** Reads as SQL that names the store table: it is parsed, and flagged when it does not parse. */
const MENTIONS_STORE = /\b(from|join|update|into)\s+"?store"?(?![\w.])/i;
const ID_ONE = /where:\s*\{\s*id:\s*1\s*\}/;
/** Seeds of the first store (docs/configuration.md): start-up, and the ADMIN_EMAIL or /setup owner it gets. */
const SEEDS = new Set(['lib/boot.ts', 'lib/auth/accounts.ts']);
/** Callers that use the first store until they carry the store of their caller. */
const INTERIM = new Set<string>([]);
/** Callers that name no store and speak for the installation, whose first store they show. */
const INSTALLATION = new Map([
  ['lib/health.ts', "the public /api/health names no store: it judges the first store's wallet"],
  ['app/display/page.tsx', "a display not paired yet has no till, so no store: it shows the first store's name"],
]);

interface Finding {
  file: string;
  line: number;
  what: string;
}

/** Does this SQL reference the table `store`? null when it does not parse. */
export function sqlNamesStore(sql: string): boolean | null {
  let tree: unknown;
  try {
    tree = parseSync(sql.replace(/__p__/g, '$1'));
  } catch {
    return null;
  }
  let found = false;
  const walk = (n: unknown): void => {
    if (found) return;
    if (Array.isArray(n)) return n.forEach(walk);
    if (!n || typeof n !== 'object') return;
    // A table reference is a RangeVar, wrapped or not (an UPDATE's `relation` is bare).
    if ((n as { relname?: unknown }).relname === 'store') found = true;
    Object.values(n as Record<string, unknown>).forEach(walk);
  };
  walk(tree);
  return found;
}

function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((s) => '__p__' + s.literal.text).join('');
  return null;
}

/** Every read or write of the store table, `id: 1` store lookup and use of FIRST_STORE_ID in one file. */
export function storeAccessIn(file: string, src: string): Finding[] {
  const sf = parseSource(file, src);
  const out: Finding[] = [];
  const at = (n: ts.Node, what: string) => out.push({ file, line: sf.getLineAndCharacterOfPosition(n.getStart()).line + 1, what });
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && PRISMA_METHODS.has(n.expression.name.text)) {
      const recv = n.expression.expression;
      if (ts.isPropertyAccessExpression(recv) && recv.name.text === 'store') at(n, `prisma store.${n.expression.name.text}`);
    }
    const text = literalText(n);
    if (text !== null && MENTIONS_STORE.test(text)) {
      const names = sqlNamesStore(text);
      if (names !== false) at(n, names ? 'SQL on the store table' : 'SQL naming store that does not parse');
    }
    if (ts.isIdentifier(n) && n.text === 'FIRST_STORE_ID' && !ts.isImportSpecifier(n.parent)) at(n, 'FIRST_STORE_ID');
    ts.forEachChild(n, visit);
  };
  visit(sf);
  src.split('\n').forEach((l, i) => {
    if (ID_ONE.test(l)) out.push({ file, line: i + 1, what: 'where: { id: 1 }' });
  });
  return out;
}

/** What breaks the rule: store access outside lib/stores, and FIRST_STORE_ID outside the seeds and INTERIM. */
export function violations(file: string, src: string): Finding[] {
  if (file.startsWith(OWNER)) return [];
  return storeAccessIn(file, src).filter(
    (f) => f.what !== 'FIRST_STORE_ID' || !(SEEDS.has(file) || INTERIM.has(file) || INSTALLATION.has(file)),
  );
}

describe('one store-settings module', () => {
  beforeAll(async () => {
    await loadModule();
  });

  it('nothing outside lib/stores reads or writes the store table, or looks a store up by id 1', () => {
    const found = repoSources(['lib', 'app', 'scripts'], /\.(ts|tsx|mjs|cjs|js)$/).flatMap((f) => violations(f.file, f.src));
    expect(found.map((f) => `${f.file}:${f.line} ${f.what}`)).toEqual([]);
  });

  it('sees the store access lib/stores makes (so it would see others)', () => {
    const owner = repoSources(['lib'], /\.(ts|tsx)$/).filter((f) => f.file.startsWith(OWNER));
    expect(owner.flatMap((f) => storeAccessIn(f.file, f.src)).length).toBeGreaterThan(0);
  });

  it('catches each kind of access', () => {
    const src = [
      'const a = await db.prisma.store.findUnique({ where: { id: 1 } });',
      'await tx.store.update({ where: { id: storeId }, data: {} });',
      'await db.query(`SELECT store_xpub FROM store WHERE id = ${id}`);',
      'await db.query(\'UPDATE "store" SET name = $1\', [n]);',
      'const s = await findStore(db, FIRST_STORE_ID);',
    ].join('\n');
    const whats = violations('lib/somewhere/x.ts', src).map((f) => `${f.line} ${f.what}`);
    expect(whats).toEqual(
      expect.arrayContaining([
        '1 prisma store.findUnique',
        '1 where: { id: 1 }',
        '2 prisma store.update',
        '3 SQL on the store table',
        '4 SQL on the store table',
        '5 FIRST_STORE_ID',
      ]),
    );
    expect(violations('lib/stores/settings.ts', src)).toEqual([]);
    expect(violations('lib/payments/x.ts', "await db.query('SELECT * FROM store_thing'); const from = 'a store';")).toEqual([]);
  });

  it('the interim list holds only files that still name the first store', () => {
    const stale = [...INTERIM].filter((f) => !readFileSync(join(ROOT, f), 'utf8').includes('FIRST_STORE_ID'));
    expect(stale).toEqual([]);
  });
});
