// One scoping rule (docs/architecture.md#data): every read and write of a store-owned table names
// its store. The scan PARSES the code, as tests/unit/one-writer.test.ts does: Prisma calls on a
// store-owned delegate are found in the TypeScript syntax tree and must carry `storeId` in their
// `where` (reads, updates, deletes) or `data` (creates), directly or through the scoping helpers
// (`inStore(…)`, `salesScope(…)`); SQL string and template literals go through PostgreSQL's
// parser (libpg-query), and a statement that touches a store-owned table must name `store_id`.
// What is left is either cross-store by design (ALLOWED, each with its reason) or not scoped yet
// (UNSCOPED_YET, which only shrinks: an entry that no longer has a finding fails the test).
import { beforeAll, describe, expect, it } from 'vitest';
import ts from 'typescript';
import { Fragments, literalReadings } from '../helpers/sql-fragments';
import { parseSource, repoSources } from '../helpers/source-tree';
import { loadModule, parseSync } from 'libpg-query';
import { ALLOWED, UNSCOPED_YET } from './store-scoped-queries.allow';

/** The tables a store owns (prisma/migrations/20261129042000_stores), the membership of its users and its watched addresses. */
export const STORE_TABLES = new Set([
  'relay_key',
  'api_key',
  'product',
  'stock_movement',
  'payment',
  'payment_line',
  'payment_output',
  'payment_submission',
  'payment_tx',
  'idempotency_key',
  'vendor_event',
  'webhook_attempt',
  'audit_log',
  'terminal',
  'display_pairing',
  'customer_display',
  'display_cart',
  'pos_ticket',
  'membership',
  'wallet_address',
]);
const DELEGATES = new Set([...STORE_TABLES].map((t) => t.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())));
const READ_METHODS = new Set([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'count',
  'aggregate',
  'groupBy',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'delete',
  'deleteMany',
]);
const CREATE_METHODS = new Set(['create', 'createMany', 'createManyAndReturn', 'upsert']);
/** The helpers whose result is a store filter (lib/stores/scope.ts, lib/payments/sales-scope.ts). */
const SCOPERS = new Set(['inStore', 'salesScope']);

export interface Finding {
  file: string;
  fn: string;
  line: number;
  what: string;
}

/** The table names a SQL text touches, and whether it names store_id; null when it does not parse. */
export function sqlStoreUse(sql: string): { tables: string[]; namesStore: boolean } | null {
  let tree: unknown;
  try {
    tree = parseSync(sql);
  } catch {
    return null;
  }
  const tables: string[] = [];
  let namesStore = false;
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(walk);
    if (!n || typeof n !== 'object') return;
    const o = n as Record<string, unknown>;
    if (typeof o.relname === 'string') tables.push(o.relname);
    // A column reference `store_id` (WHERE, JOIN, SELECT) or an INSERT column `store_id`.
    if (o.String && (o.String as { sval?: string }).sval === 'store_id') namesStore = true;
    if (o.ResTarget && (o.ResTarget as { name?: string }).name === 'store_id') namesStore = true;
    Object.values(o).forEach(walk);
  };
  walk(tree);
  return { tables, namesStore };
}

/** A hole that is the report's store scope: scopeSql() puts `"store_id" = $3` first (lib/reports/sales-report.ts). */
const SCOPE_HOLE = /^scopeSql\(|^scope\.where$/;

/** The text of a literal; a fragment's hole reads as the fragment, others as a value, a row, a name or nothing (the first that parses wins). */
function literalTexts(node: ts.Node, file: string, fragments: Fragments): string[] {
  const fill = (h: string) => (s: ts.TemplateSpan) => (SCOPE_HOLE.test(s.expression.getText()) ? 'store_id = 0' : h);
  return literalReadings(node, file, fragments, [fill('0'), fill('(0)'), fill('x'), fill('')]);
}

const TOUCHES = /\b(from|join|update|into)\s+"?(\w+)"?/gi;

/** The enclosing function's name (a declaration, a method, or the variable an arrow is bound to). */
function enclosingFn(n: ts.Node): string {
  for (let p: ts.Node | undefined = n.parent; p; p = p.parent) {
    if ((ts.isFunctionDeclaration(p) || ts.isMethodDeclaration(p)) && p.name) return p.name.getText();
    if ((ts.isArrowFunction(p) || ts.isFunctionExpression(p)) && ts.isVariableDeclaration(p.parent)) return p.parent.name.getText();
  }
  return '<module>';
}

/** Does this expression, as a `where` or `data` object, carry the store? */
function carriesStore(e: ts.Expression | undefined, sf: ts.SourceFile, depth = 0): boolean {
  if (!e) return false;
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e)) e = e.expression;
  if (ts.isCallExpression(e) && ts.isIdentifier(e.expression) && SCOPERS.has(e.expression.text)) return true;
  if (ts.isIdentifier(e)) return carriesStore(localInitializer(e.text, sf), sf, depth);
  if (!ts.isObjectLiteralExpression(e)) return false;
  return e.properties.some((p) => {
    if (ts.isSpreadAssignment(p)) return carriesStore(p.expression, sf, depth);
    const name = p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : '';
    if (name === 'storeId' || name.startsWith('storeId_')) return true;
    if (ts.isShorthandPropertyAssignment(p)) return name === 'storeId' || carriesStore(localInitializer(name, sf), sf, depth);
    // A relation filter scoped by a helper: `{ event: inStore(id) }`, `{ payment: salesScope(v) }`.
    return depth === 0 && ts.isPropertyAssignment(p) && ts.isCallExpression(p.initializer) && carriesStore(p.initializer, sf, 1);
  });
}

/** The initializer of `const <name> = …` in the file (the first one), for `where` held in a variable. */
function localInitializer(name: string, sf: ts.SourceFile): ts.Expression | undefined {
  let found: ts.Expression | undefined;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === name && n.initializer) found = n.initializer;
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

function prop(arg: ts.Expression | undefined, key: string): ts.Expression | undefined {
  if (!arg || !ts.isObjectLiteralExpression(arg)) return undefined;
  for (const p of arg.properties) {
    if (ts.isPropertyAssignment(p) && p.name.getText() === key) return p.initializer;
    if (ts.isShorthandPropertyAssignment(p) && p.name.text === key) return p.name;
  }
  return undefined;
}

/** Every query of a store-owned table in one file that does not name its store. */
export function unscopedIn(file: string, src: string, fragments?: Fragments): Finding[] {
  const sf = parseSource(file, src);
  const frags = fragments ?? new Fragments().add(file, sf);
  const out: Finding[] = [];
  const at = (n: ts.Node, what: string) =>
    out.push({ file, fn: enclosingFn(n), line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1, what });
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && ts.isPropertyAccessExpression(n.expression.expression)) {
      const method = n.expression.name.text;
      const delegate = n.expression.expression.name.text;
      if (DELEGATES.has(delegate) && (READ_METHODS.has(method) || CREATE_METHODS.has(method))) {
        const arg = n.arguments[0];
        // An upsert both finds and creates: its where could update another store's row.
        const ok =
          method === 'upsert'
            ? carriesStore(prop(arg, 'create'), sf) && carriesStore(prop(arg, 'where'), sf)
            : CREATE_METHODS.has(method)
              ? carriesStore(prop(arg, 'data'), sf) || (method === 'createMany' && isScopedMany(prop(arg, 'data'), sf))
              : carriesStore(prop(arg, 'where'), sf);
        if (!ok) at(n, `prisma ${delegate}.${method} without storeId`);
      }
    }
    const texts = literalTexts(n, file, frags).filter((t) => [...t.matchAll(TOUCHES)].some((m) => STORE_TABLES.has(m[2])));
    if (texts.length) {
      const use = texts.map(sqlStoreUse).find((u) => u !== null);
      if (use === undefined) {
        if (!frags.isFragment(n)) at(n, 'SQL naming a store-owned table that does not parse');
      } else if (use && use.tables.some((t) => STORE_TABLES.has(t)) && !use.namesStore) {
        at(n, `SQL on ${[...new Set(use.tables.filter((t) => STORE_TABLES.has(t)))].join(', ')} without store_id`);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** `createMany({ data: rows.map((r) => ({ storeId, … })) })`. */
function isScopedMany(e: ts.Expression | undefined, sf: ts.SourceFile): boolean {
  if (!e || !ts.isCallExpression(e) || !ts.isPropertyAccessExpression(e.expression) || e.expression.name.text !== 'map') return false;
  const fn = e.arguments[0];
  if (!fn || !ts.isArrowFunction(fn)) return false;
  const body = ts.isParenthesizedExpression(fn.body as ts.Expression) ? (fn.body as ts.ParenthesizedExpression).expression : fn.body;
  return ts.isExpression(body) && carriesStore(body, sf);
}

const keyOf = (f: Finding) => `${f.file}#${f.fn}`;
const listed = (f: Finding, list: ReadonlyMap<string, string> | ReadonlySet<string>) => list.has(keyOf(f)) || list.has(f.file);

function allFindings(): Finding[] {
  const files = repoSources(['lib', 'app'], /\.(ts|tsx)$/);
  const fragments = new Fragments();
  for (const f of files) fragments.add(f.file, f.sf);
  return files.flatMap((f) => unscopedIn(f.file, f.src, fragments));
}

describe('every store-owned query names its store', () => {
  beforeAll(async () => {
    await loadModule();
  });

  it('nothing outside the explained allowlist and the shrinking interim list is unscoped', () => {
    const found = allFindings().filter((f) => !listed(f, ALLOWED) && !listed(f, UNSCOPED_YET));
    expect(found.map((f) => `${f.file}:${f.line} (${f.fn}) ${f.what}`)).toEqual([]);
  });

  it('every allowlisted entry is still found: the allowlist explains real queries, and the scan read the tree', () => {
    const keys = new Set(allFindings().flatMap((f) => [keyOf(f), f.file]));
    expect(ALLOWED.size).toBeGreaterThan(0);
    expect([...ALLOWED.keys()].filter((k) => !keys.has(k))).toEqual([]);
  });

  it('the interim list holds only functions that are still unscoped', () => {
    const keys = new Set(allFindings().flatMap((f) => [keyOf(f), f.file]));
    expect([...UNSCOPED_YET].filter((k) => !keys.has(k))).toEqual([]);
  });

  it('catches each kind of unscoped query, and passes the scoped ones', () => {
    const src = [
      'async function a(db) { return db.prisma.payment.findFirst({ where: { id } }); }',
      'async function b(db) { return db.prisma.product.create({ data: { sku, name } }); }',
      'async function c(db) { return db.query(`SELECT id FROM payment WHERE id = ${id}`); }',
      "async function d(db) { return db.query('UPDATE terminal SET name = $1 WHERE id = $2', [n, id]); }",
      'async function e(db) { return db.prisma.payment.findFirst({ where: { id, ...inStore(storeId) } }); }',
      'async function f(db) { return db.prisma.payment.findMany({ where: { ...salesScope(v), status } }); }',
      "async function g(db) { return db.query('SELECT id FROM payment WHERE store_id = $1', [s]); }",
      'async function h(db) { return db.prisma.product.create({ data: { storeId, sku } }); }',
      'async function i(db) { const where = { storeId: s }; return db.prisma.payment.count({ where }); }',
      "async function j(db) { return db.query('INSERT INTO vendor_event (store_id, id) VALUES ($1, $2)', [s, id]); }",
      'async function k(db) { return db.prisma.webhookAttempt.findMany({ where: { event: inStore(s) } }); }',
      'async function l(db) { return db.prisma.displayCart.upsert({ where: { terminalId }, create: { terminalId, storeId }, update: {} }); }',
      'async function m(db) { const scope = { terminalId, ...inStore(s) }; return db.prisma.displayCart.upsert({ where: scope, create: { ...scope }, update: {} }); }',
    ].join('\n');
    const got = unscopedIn('lib/x.ts', src).map((f) => `${f.fn} ${f.what}`);
    expect(got).toEqual([
      'a prisma payment.findFirst without storeId',
      'b prisma product.create without storeId',
      'c SQL on payment without store_id',
      'd SQL on terminal without store_id',
      'l prisma displayCart.upsert without storeId',
    ]);
  });
});
