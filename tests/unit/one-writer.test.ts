// One writer (docs/architecture.md): only lib/payments/ writes the payment tables. The scan
// PARSES the code: every string and template literal of lib/, app/ and scripts/ that holds SQL
// goes through PostgreSQL's own parser (libpg-query) and its INSERT/UPDATE/DELETE/MERGE/TRUNCATE
// targets are read from the syntax tree; Prisma calls are found in the TypeScript syntax tree
// (`<delegate>.create/update/upsert/delete…(…)`, whatever the receiver is called, and through
// aliases: `const p = tx.payment`, `const { payment } = tx`, `const { update } = tx.payment`).
import { beforeAll, describe, expect, it } from 'vitest';
import ts from 'typescript';
import { loadModule, parseSync } from 'libpg-query';
import { Fragments, literalReadings } from '../helpers/sql-fragments';
import { parseSource, repoSources } from '../helpers/source-tree';

const OWNER = 'lib/payments/';

/** The tables that hold a payment's state, amounts, txs, confirmations and its outbox events. */
const TABLES = new Set(['payment', 'payment_tx', 'payment_submission', 'payment_line', 'payment_output', 'vendor_event']);
/** Their Prisma delegates (prisma/schema.prisma models). */
const DELEGATES = new Set(['payment', 'paymentTx', 'paymentSubmission', 'paymentLine', 'paymentOutput', 'vendorEvent']);
const WRITE_METHODS = new Set([
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
const WRITE_NODES = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt', 'TruncateStmt']);
/** Text that reads as a write statement: it must parse, or the scan cannot tell its target. */
const LOOKS_LIKE_WRITE =
  /\b(insert\s+into|update\s+("?[\w$]+"?|__p__)(\s+\w+)?\s+set|delete\s+from|truncate\s+(table\s+)?\S|merge\s+into)\b/i;

export interface Finding {
  file: string;
  line: number;
  what: string;
}

/** The tables a SQL text writes; null when it does not parse as SQL. */
export function sqlWriteTargets(sql: string): string[] | null {
  let tree: unknown;
  try {
    tree = parseSync(sql);
  } catch {
    return null;
  }
  const out: string[] = [];
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(walk);
    if (!n || typeof n !== 'object') return;
    for (const [k, v] of Object.entries(n as Record<string, unknown>)) {
      if (WRITE_NODES.has(k) && v && typeof v === 'object') {
        const s = v as { relation?: { relname?: string }; relations?: { RangeVar?: { relname?: string } }[] };
        if (s.relation?.relname) out.push(s.relation.relname);
        for (const r of s.relations ?? []) if (r.RangeVar?.relname) out.push(r.RangeVar.relname);
      }
      walk(v);
    }
  };
  walk(tree);
  return out;
}

/** The text of a string or template literal, `${…}` standing for a fragment, a value, a row (`VALUES ${…}`) or, failing those, a name. */
function literalTexts(node: ts.Node, file = '', fragments?: Fragments): string[] {
  return literalReadings(node, file, fragments, [() => '0', () => '(0)', () => '__p__']);
}

/** The name of a delegate the call's receiver ends with: `x.payment.update(` or `x['payment'].update(`. */
function delegateOf(e: ts.Expression): string | null {
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  if (ts.isElementAccessExpression(e) && ts.isStringLiteralLike(e.argumentExpression)) return e.argumentExpression.text;
  return null;
}

/** `(x)`, `x!`, `x as T`, `await x` → x. */
function unwrap(e: ts.Expression): ts.Expression {
  for (;;) {
    if (
      ts.isParenthesizedExpression(e) ||
      ts.isNonNullExpression(e) ||
      ts.isAsExpression(e) ||
      ts.isAwaitExpression(e) ||
      ts.isSatisfiesExpression(e)
    )
      e = e.expression;
    else return e;
  }
}

/**
 * Local names that stand for a payment-table delegate or one of its write methods, so that an
 * alias is read like the delegate itself: `const p = tx.payment`, `const { payment } = tx`,
 * `const { vendorEvent: ve } = db.prisma`, `$transaction(async ({ paymentTx }) => …)`,
 * `const { update } = tx.payment`, `const up = tx.payment.update`. Names, not scopes: a file
 * that reuses such a name for something else is flagged, which is the safe side.
 */
class Aliases {
  readonly delegates = new Map<string, string>();
  readonly methods = new Map<string, string>();

  constructor(private readonly names: ReadonlySet<string> = DELEGATES) {}

  /** The delegate an expression stands for: `x.payment`, `x['payment']`, or an alias of one. */
  delegate(e: ts.Expression): string | null {
    e = unwrap(e);
    if (ts.isIdentifier(e)) return this.delegates.get(e.text) ?? null;
    const d = delegateOf(e);
    return d && this.names.has(d) ? d : null;
  }

  /** The write an expression stands for: `<delegate>.update`, `<delegate>['update']`, or an alias of one. */
  write(e: ts.Expression): string | null {
    e = unwrap(e);
    if (ts.isIdentifier(e)) return this.methods.get(e.text) ?? null;
    const method = delegateOf(e);
    if (!method || !WRITE_METHODS.has(method) || !(ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e))) return null;
    const d = this.delegate(e.expression);
    return d ? `${d}.${method}` : null;
  }

  /** Records the names a declaration or a parameter binds (in source order, so aliases of aliases resolve). */
  bind(n: ts.Node): void {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer) {
      const d = this.delegate(n.initializer);
      if (d) this.delegates.set(n.name.text, d);
      const w = this.write(n.initializer);
      if (w) this.methods.set(n.name.text, w);
    }
    if (ts.isBindingElement(n) && ts.isIdentifier(n.name) && ts.isObjectBindingPattern(n.parent)) {
      const prop =
        n.propertyName && (ts.isIdentifier(n.propertyName) || ts.isStringLiteralLike(n.propertyName)) ? n.propertyName.text : n.name.text;
      const decl = n.parent.parent;
      const from = ts.isVariableDeclaration(decl) && decl.initializer ? this.delegate(decl.initializer) : null;
      if (from && WRITE_METHODS.has(prop)) this.methods.set(n.name.text, `${from}.${prop}`);
      else if (this.names.has(prop)) this.delegates.set(n.name.text, prop);
    }
  }
}

/** The columns an UPDATE of `table` sets, over every UPDATE of it in a SQL text (null when it does not parse). */
export function sqlSetColumns(sql: string, table: string): string[] | null {
  let tree: unknown;
  try {
    tree = parseSync(sql);
  } catch {
    return null;
  }
  const out: string[] = [];
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(walk);
    if (!n || typeof n !== 'object') return;
    for (const [k, v] of Object.entries(n as Record<string, unknown>)) {
      if (k === 'UpdateStmt' && v && typeof v === 'object') {
        const u = v as { relation?: { relname?: string }; targetList?: { ResTarget?: { name?: string } }[] };
        if (u.relation?.relname === table) for (const t of u.targetList ?? []) if (t.ResTarget?.name) out.push(t.ResTarget.name);
      }
      walk(v);
    }
  };
  walk(tree);
  return out;
}

/** Every write to the payment tables (or the given tables and delegates) in one source file. */
export function writesIn(
  file: string,
  src: string,
  tables: ReadonlySet<string> = TABLES,
  delegates: ReadonlySet<string> = DELEGATES,
  fragments?: Fragments,
): Finding[] {
  const sf = parseSource(file, src);
  const frags = fragments ?? new Fragments().add(file, sf);
  const found: Finding[] = [];
  const at = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const aliases = new Aliases(delegates);
  const visit = (n: ts.Node) => {
    aliases.bind(n);
    const texts = literalTexts(n, file, frags);
    if (texts.length) {
      // A template is read with its holes as values, else as names; a target that is a hole
      // (`UPDATE ${table}`) is dynamic, and counted as a write the scan cannot clear.
      const candidates = texts.filter((t) => /\b(insert|update|delete|merge|truncate)\b/i.test(t));
      const ok = candidates.length ? candidates.map(sqlWriteTargets).find((p) => p !== null) : [];
      if (ok === undefined) {
        if (candidates.some((t) => LOOKS_LIKE_WRITE.test(t)) && !frags.isFragment(n))
          found.push({ file, line: at(n), what: 'SQL that reads as a write but does not parse' });
      } else
        for (const t of ok)
          if (tables.has(t) || t === '__p__')
            found.push({ file, line: at(n), what: `SQL writes ${t === '__p__' ? 'a dynamic table' : t}` });
    }
    if (ts.isCallExpression(n)) {
      const write = aliases.write(n.expression);
      if (write) found.push({ file, line: at(n), what: `Prisma ${write}` });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/** Every source file, read and parsed once, and the SQL fragments they declare. */
let tree: { files: { file: string; src: string; sf: ts.SourceFile }[]; fragments: Fragments } | null = null;
function sourceTree() {
  if (!tree) {
    const files = repoSources(['lib', 'app', 'scripts'], /\.(ts|tsx|mts|mjs)$/);
    const fragments = new Fragments();
    for (const f of files) fragments.add(f.file, f.sf);
    tree = { files, fragments };
  }
  return tree;
}

function allWrites(tables?: ReadonlySet<string>, delegates?: ReadonlySet<string>): Finding[] {
  const { files, fragments } = sourceTree();
  return files.flatMap((f) => writesIn(f.file, f.src, tables, delegates, fragments));
}

/** SQL texts that set product.stock, per file (docs/catalog.md#stock: stock moves only with a movement). */
function stockColumnWrites(): Finding[] {
  const found: Finding[] = [];
  const { files, fragments } = sourceTree();
  for (const { file, sf } of files) {
    const visit = (n: ts.Node) => {
      for (const text of literalTexts(n, file, fragments).slice(0, 1)) {
        if (!/\bupdate\b/i.test(text)) continue;
        const cols = sqlSetColumns(text, 'product');
        if (cols?.includes('stock'))
          found.push({ file, line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1, what: 'SQL sets product.stock' });
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return found;
}

beforeAll(async () => {
  await loadModule();
});

describe('one writer: only lib/payments writes the payment tables', () => {
  it('finds no write outside lib/payments/', () => {
    const outside = allWrites().filter((f) => !f.file.startsWith(OWNER));
    expect(outside).toEqual([]);
  });

  it('sees the writes lib/payments makes (so it would see others): SQL, templated SQL and Prisma', () => {
    const mine = allWrites().filter((f) => f.file.startsWith(OWNER));
    const files = new Set(mine.map((f) => f.file));
    for (const f of ['accept-sql.ts', 'pay-sql.ts', 'chain-sync.ts', 'chain-txs.ts', 'apply.ts', 'create.ts', 'events.ts', 'outbox.ts']) {
      expect(files, f).toContain(OWNER + f);
    }
    // The templated recount (`SET confirmations = ${conf}`) parses with its holes filled.
    expect(mine.some((f) => f.file === OWNER + 'chain-sync.ts' && f.what === 'SQL writes payment')).toBe(true);
    expect(mine.some((f) => f.what === 'SQL writes vendor_event')).toBe(true);
    expect(mine.some((f) => f.what === 'Prisma vendorEvent.create')).toBe(true);
  });

  it('parses what a regex of names misses, and ignores what only looks like SQL', () => {
    const w = (src: string) => writesIn('x.ts', src).map((f) => f.what);
    // A CTE whose outer statement is a SELECT still writes; an alias and quoted names too.
    expect(w('q(`WITH u AS (UPDATE "payment" p SET exception = NULL WHERE p.id = $1 RETURNING id) SELECT id FROM u`)')).toEqual([
      'SQL writes payment',
    ]);
    expect(w(`q('insert into public.vendor_event (id) values ($1)')`)).toEqual(['SQL writes vendor_event']);
    expect(w('q(`DELETE FROM payment_tx USING payment p WHERE p.id = payment_tx.payment_id`)')).toEqual(['SQL writes payment_tx']);
    expect(w('q(`UPDATE ${table} SET status = $1`)')).toEqual(['SQL writes a dynamic table']);
    expect(w(`q('UPDATE payment SET status = (')`)).toEqual(['SQL that reads as a write but does not parse']);
    // Reads, and writes to other tables, are not findings; nor is prose.
    expect(w('q(`SELECT * FROM payment WHERE status = $1 FOR UPDATE`)')).toEqual([]);
    expect(w(`q('UPDATE chain_state SET value = $1')`)).toEqual([]);
    expect(w(`log('we update the payment when the block comes')`)).toEqual([]);
    // Prisma, whatever the receiver: a transaction client, an alias, an element access.
    expect(w('await t.payment.updateMany({ where: {}, data: {} })')).toEqual(['Prisma payment.updateMany']);
    expect(w(`await db.prisma['vendorEvent'].create({ data })`)).toEqual(['Prisma vendorEvent.create']);
    expect(w('await tx.paymentTx.deleteMany({})')).toEqual(['Prisma paymentTx.deleteMany']);
    expect(w('await db.prisma.payment.findMany({})')).toEqual([]);
  });

  it('reads SQL written in pieces: a `${NAME}` hole of a const literal is the fragment, nested too', () => {
    const w = (src: string) => writesIn('x.ts', src).map((f) => f.what);
    // The fragment alone does not parse (a CTE, not a statement): only its statement is read.
    const cte = 'const U = `u AS (UPDATE payment SET status = $1 RETURNING id)`;';
    expect(w(`${cte} q(\`WITH \${U} SELECT 1\`)`)).toEqual(['SQL writes payment']);
    expect(w(`${cte} const V = \`\${U}, v AS (SELECT 1)\`; q(\`WITH \${V} SELECT 1\`)`)).toEqual(['SQL writes payment']);
    // A fragment that is a statement of its own is read alone as well.
    expect(w('const S = `UPDATE payment SET status = $1`; q(S); q(`${S} RETURNING id`)')).toEqual([
      'SQL writes payment',
      'SQL writes payment',
    ]);
    // Without the fragment's text, the hole would read as a value: the write goes unseen.
    expect(w('q(`WITH ${U} SELECT 1`)')).toEqual([]);
  });

  it('reads an alias of a delegate, or of its write method, like the delegate', () => {
    const w = (src: string) => writesIn('x.ts', src).map((f) => f.what);
    expect(w('const p = db.payment; await p.update({ where: {}, data: {} })')).toEqual(['Prisma payment.update']);
    expect(w('const p = (tx as Tx).payment!; const q = p; await q.delete({ where: {} })')).toEqual(['Prisma payment.delete']);
    expect(w('const { payment } = tx; await payment.update({ where: {}, data: {} })')).toEqual(['Prisma payment.update']);
    expect(w('const { vendorEvent: ve } = db.prisma; await ve.create({ data })')).toEqual(['Prisma vendorEvent.create']);
    expect(w(`await tx['payment'].update({ where: {}, data: {} })`)).toEqual(['Prisma payment.update']);
    expect(w(`await tx.payment['upsert']({ where: {}, create: {}, update: {} })`)).toEqual(['Prisma payment.upsert']);
    expect(w('await db.prisma.$transaction(async ({ paymentTx }) => paymentTx.deleteMany({}))')).toEqual(['Prisma paymentTx.deleteMany']);
    expect(w('const { update } = tx.payment; await update({ where: {}, data: {} })')).toEqual(['Prisma payment.update']);
    expect(w('const up = tx.paymentLine.createMany; await up({ data: [] })')).toEqual(['Prisma paymentLine.createMany']);
    // Reads through an alias, and other things that happen to be called `payment`, are not writes.
    expect(w('const p = db.payment; await p.findMany({})')).toEqual([]);
    expect(w('const payment = new Map(); payment.delete(id)')).toEqual([]);
    expect(w('const { store } = tx; await store.update({ where: {}, data: {} })')).toEqual([]);
  });
});

// Stock (docs/catalog.md#stock): every move of a product's stock is a movement, written by
// lib/stock; the /pay acceptance statement (lib/payments/accept-sql.ts) carries lib/stock's
// sale CTEs so that a sale's stock commits with its acceptance (tests/unit/stock-sql.test.ts).
describe('one writer of stock: lib/stock', () => {
  const STOCK_OWNERS = ['lib/stock/', 'lib/payments/accept-sql.ts'];
  const owned = (f: Finding) => STOCK_OWNERS.some((o) => f.file.startsWith(o));

  it('finds no write of stock_movement, nor SQL that sets product.stock, outside lib/stock and the /pay statement', () => {
    const movements = allWrites(new Set(['stock_movement']), new Set(['stockMovement']));
    expect(movements.filter((f) => !owned(f))).toEqual([]);
    expect(stockColumnWrites().filter((f) => !owned(f))).toEqual([]);
  });

  it('sees the writes lib/stock makes (so it would see others)', () => {
    const movements = allWrites(new Set(['stock_movement']), new Set(['stockMovement'])).filter(owned);
    expect(new Set(movements.map((f) => f.file))).toEqual(
      new Set(['lib/stock/sale-sql.ts', 'lib/stock/adjust.ts', 'lib/payments/accept-sql.ts']),
    );
    const cols = stockColumnWrites().filter(owned);
    expect(new Set(cols.map((f) => f.file))).toEqual(
      new Set(['lib/stock/sale-sql.ts', 'lib/stock/adjust.ts', 'lib/payments/accept-sql.ts']),
    );
    // A read-modify-write elsewhere would show: an UPDATE that sets the column.
    expect(sqlSetColumns('UPDATE product SET stock = $2, name = $3 WHERE id = $1', 'product')).toEqual(['stock', 'name']);
    expect(sqlSetColumns('WITH u AS (UPDATE "product" p SET stock = p.stock - 1 RETURNING id) SELECT 1', 'product')).toEqual(['stock']);
    expect(sqlSetColumns('UPDATE product SET low_stock = 1', 'product')).toEqual(['low_stock']);
    // Prisma writes of the movements table are seen too.
    expect(
      writesIn('x.ts', 'await tx.stockMovement.create({ data })', new Set(['stock_movement']), new Set(['stockMovement'])).map(
        (f) => f.what,
      ),
    ).toEqual(['Prisma stockMovement.create']);
  });
});
