// CSV export and import of the catalog (docs/catalog.md). The export is what a spreadsheet
// opens safely: a cell that starts with =, +, - or @ gets a leading ' so that it is never run as
// a formula, and the import takes that ' off again, so a file round-trips unchanged.
// The import matches rows to products by SKU (update or create, never delete) and is all or
// nothing: a plan is checked in full before one transaction applies it.
import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import type { ZodType } from 'zod';
import type { Db } from '../db';
import { bpToPercent, Fields, formatPrice, parsePrice, percentToBp, pricingCurrency } from './catalog';
import { BackofficeError } from './errors';
import { fieldPath } from '../errors';
import { recordImportCounts } from '../stock';
import { inStore, storeIdOf } from '../stores';

export const CSV_HEADER = [
  'sku',
  'name',
  'price',
  'currency',
  'tax_rate',
  'category',
  'barcode',
  'stock',
  'low_stock',
  'description',
  'archived',
] as const;
type Column = (typeof CSV_HEADER)[number];
const REQUIRED: readonly Column[] = ['sku', 'name', 'price'];
export const IMPORT_MAX_ROWS = 5000;
export const IMPORT_MAX_BYTES = 1024 * 1024;

/** One cell as written: formula-looking text is defused with a leading '; RFC 4180 quoting. */
export function csvCell(v: string | number | boolean | null): string {
  let s = v === null ? '' : String(v);
  if (/^[=+\-@]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The inverse of csvCell's defusing: "'=1+2" reads back as "=1+2". */
function undefuse(s: string): string {
  return /^'[=+\-@]/.test(s) ? s.slice(1) : s;
}

/** The store's whole catalog, archived products too, as CSV the import takes back. */
export async function exportCatalogCsv(db: Db, storeId: number): Promise<string> {
  const rows = await db.prisma.product.findMany({
    where: inStore(storeId),
    orderBy: [{ archived: 'asc' }, { sort: 'asc' }, { name: 'asc' }, { sku: 'asc' }],
  });
  const lines = [CSV_HEADER.join(',')];
  for (const p of rows) {
    lines.push(
      [
        p.sku,
        p.name,
        formatPrice(p.price, p.priceCurrency),
        p.priceCurrency,
        bpToPercent(p.taxRateBp),
        p.category,
        p.barcode ?? '',
        p.stock,
        p.lowStock,
        p.description,
        p.archived,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}

export interface ImportError {
  line: number;
  column: string;
  message: string;
}
export interface ImportPlan {
  create: number;
  update: number;
  unchanged: number;
  errors: ImportError[];
}

/** The stored form of one product's fields, as a row sets them. */
interface ProductData {
  sku: string;
  name: string;
  price: bigint;
  priceCurrency: string;
  taxRateBp: number;
  category: string;
  barcode: string | null;
  stock: number | null;
  lowStock: number;
  description: string;
  archived: boolean;
}
interface Planned {
  line: number;
  id: string | null;
  data: ProductData;
  changed: boolean;
  stockSet: boolean;
}

class CellError extends Error {
  constructor(
    readonly column: string,
    message: string,
  ) {
    super(message);
  }
}

function zodCell<T>(column: string, schema: ZodType<T>, v: string): T {
  const r = schema.safeParse(v);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new CellError(column || fieldPath(issue?.path ?? []), issue?.message ?? 'is not valid');
  }
  return r.data;
}

function intCell(column: string, v: string): number {
  if (!/^-?\d{1,10}$/.test(v.trim())) throw new CellError(column, 'must be a whole number');
  return zodCell(column, Fields.low_stock, Number(v.trim()) as never);
}

/** Reads one row's cells over the existing product (or the defaults for a new one). */
function rowData(cells: Partial<Record<Column, string>>, base: ProductData | null, storeCurrency: string): ProductData {
  const has = (c: Column) => cells[c] !== undefined;
  const d: ProductData = base
    ? { ...base }
    : {
        sku: '',
        name: '',
        price: 0n,
        priceCurrency: storeCurrency,
        taxRateBp: 0,
        category: '',
        barcode: null,
        stock: null,
        lowStock: 0,
        description: '',
        archived: false,
      };
  d.sku = zodCell('sku', Fields.sku, cells.sku ?? '');
  d.name = zodCell('name', Fields.name, cells.name ?? '');
  if (has('currency') && cells.currency!.trim() !== '') {
    const c = cells.currency!.trim().toUpperCase();
    if (!/^(DOGE|[A-Z]{3})$/.test(c)) throw new CellError('currency', 'must be DOGE or a 3-letter ISO 4217 code like USD');
    d.priceCurrency = c;
  } else if (!base) d.priceCurrency = storeCurrency;
  try {
    d.price = parsePrice(cells.price ?? '', d.priceCurrency);
  } catch (e) {
    if (e instanceof BackofficeError) throw new CellError('price', e.message.replace(/^price: /, ''));
    throw e;
  }
  if (has('tax_rate')) {
    try {
      d.taxRateBp = cells.tax_rate!.trim() === '' ? 0 : percentToBp('tax_rate', cells.tax_rate!);
    } catch (e) {
      if (e instanceof BackofficeError) throw new CellError('tax_rate', e.message.replace(/^tax_rate: /, ''));
      throw e;
    }
  }
  if (has('category')) d.category = zodCell('category', Fields.category, cells.category!);
  if (has('barcode')) d.barcode = zodCell('barcode', Fields.barcode, cells.barcode!) || null;
  if (has('stock')) d.stock = cells.stock!.trim() === '' ? null : intCell('stock', cells.stock!);
  if (has('low_stock')) d.lowStock = cells.low_stock!.trim() === '' ? 0 : intCell('low_stock', cells.low_stock!);
  if (has('description')) d.description = zodCell('description', Fields.description, cells.description!);
  if (has('archived')) {
    const a = cells.archived!.trim().toLowerCase();
    if (!['', 'true', 'false'].includes(a)) throw new CellError('archived', 'must be true or false');
    d.archived = a === 'true';
  }
  return d;
}

const same = (a: ProductData, b: ProductData) => (Object.keys(a) as (keyof ProductData)[]).every((k) => a[k] === b[k]);

/** The line a record starts on (the parser counts to its end; a quoted cell may hold line feeds). */
function startLine(r: { info: { lines: number }; raw: string }): number {
  const inside = r.raw.replace(/^\n+/, '').replace(/\n$/, '');
  return r.info.lines - (inside.match(/\n/g)?.length ?? 0);
}

/** Parses the CSV text: a file that is not CSV at all is a 400, a bad cell is an error of the plan. */
function readRecords(text: string): { header: string[]; rows: { line: number; cells: string[] }[] } {
  let records: { record: string[]; info: { lines: number }; raw: string }[];
  try {
    // Line endings are made \n first: the parser's line count is then the file's line numbers.
    records = parse(text.replace(/\r\n?/g, '\n'), {
      bom: true,
      info: true,
      raw: true,
      skip_empty_lines: true,
      relax_column_count: true,
    }) as never;
  } catch (e) {
    throw new BackofficeError('invalid_request', `the file is not valid CSV: ${(e as Error).message}`);
  }
  if (records.length === 0) throw new BackofficeError('invalid_request', 'the file is empty: it needs a header line');
  if (records.length - 1 > IMPORT_MAX_ROWS)
    throw new BackofficeError('invalid_request', `the file has ${records.length - 1} rows: at most ${IMPORT_MAX_ROWS}`);
  const [head, ...rest] = records;
  return { header: head.record.map((h) => h.trim().toLowerCase()), rows: rest.map((r) => ({ line: startLine(r), cells: r.record })) };
}

/** Checks every row against the catalog; `planned` is empty unless the plan has no error. */
async function buildPlan(db: Db, storeId: number, text: string): Promise<{ plan: ImportPlan; planned: Planned[] }> {
  const { header, rows } = readRecords(text);
  const errors: ImportError[] = [];
  header.forEach((h, i) => {
    if (!(CSV_HEADER as readonly string[]).includes(h))
      errors.push({ line: 1, column: h, message: `unknown column (the columns are ${CSV_HEADER.join(', ')})` });
    else if (header.indexOf(h) !== i) errors.push({ line: 1, column: h, message: 'column appears twice' });
  });
  for (const c of REQUIRED) if (!header.includes(c)) errors.push({ line: 1, column: c, message: 'required column is missing' });
  const plan: ImportPlan = { create: 0, update: 0, unchanged: 0, errors };
  if (errors.length) return { plan, planned: [] };

  const storeCurrency = await pricingCurrency(db, storeId);
  // SKUs and barcodes are unique within a store: only this store's products are matched.
  const existing = await db.prisma.product.findMany({ where: inStore(storeId) });
  const bySku = new Map(existing.map((p) => [p.sku, p]));
  const planned: Planned[] = [];
  const seenSku = new Map<string, number>();
  for (const { line, cells } of rows) {
    if (cells.length !== header.length) {
      errors.push({ line, column: '', message: `has ${cells.length} cells where the header has ${header.length}` });
      continue;
    }
    const byColumn: Partial<Record<Column, string>> = {};
    header.forEach((h, i) => {
      byColumn[h as Column] = undefuse(cells[i]);
    });
    const sku = (byColumn.sku ?? '').trim();
    const row = bySku.get(sku);
    const base: ProductData | null = row
      ? {
          sku: row.sku,
          name: row.name,
          price: row.price,
          priceCurrency: row.priceCurrency,
          taxRateBp: row.taxRateBp,
          category: row.category,
          barcode: row.barcode,
          stock: row.stock,
          lowStock: row.lowStock,
          description: row.description,
          archived: row.archived,
        }
      : null;
    try {
      const data = rowData(byColumn, base, storeCurrency);
      const dup = seenSku.get(data.sku);
      if (dup !== undefined) throw new CellError('sku', `repeats the SKU of line ${dup}`);
      seenSku.set(data.sku, line);
      planned.push({ line, id: row?.id ?? null, data, changed: !base || !same(base, data), stockSet: !base || data.stock !== base.stock });
    } catch (e) {
      if (!(e instanceof CellError)) throw e;
      errors.push({ line, column: e.column, message: e.message });
    }
  }
  checkBarcodes(existing, planned, errors);
  errors.sort((a, b) => a.line - b.line);
  for (const p of planned) {
    if (!p.id) plan.create++;
    else if (p.changed) plan.update++;
    else plan.unchanged++;
  }
  return { plan, planned: errors.length ? [] : planned };
}

/** Barcodes stay unique in the catalog as it will be after the import (codes may move between rows). */
function checkBarcodes(existing: { id: string; sku: string; barcode: string | null }[], planned: Planned[], errors: ImportError[]): void {
  const touched = new Set(planned.map((p) => p.data.sku));
  const owner = new Map<string, string>(); // barcode → who has it: "line N" or a SKU left as it is
  for (const p of existing) if (p.barcode && !touched.has(p.sku)) owner.set(p.barcode, `product ${p.sku}`);
  for (const p of planned) {
    if (!p.data.barcode) continue;
    const other = owner.get(p.data.barcode);
    if (other) errors.push({ line: p.line, column: 'barcode', message: `is already the barcode of ${other}` });
    else owner.set(p.data.barcode, `line ${p.line}`);
  }
}

/** The product columns an import sets, with the record field (and cast) each is read from. */
const SET_COLUMNS: [string, string][] = [
  ['sku', 'sku'],
  ['name', 'name'],
  ['price', 'price::bigint'],
  ['price_currency', 'price_currency'],
  ['tax_rate_bp', 'tax_rate_bp'],
  ['category', 'category'],
  ['barcode', 'barcode'],
  ['stock', 'stock'],
  ['low_stock', 'low_stock'],
  ['description', 'description'],
  ['archived', 'archived'],
];
const RECORD_COLUMNS =
  'id text, sku text, name text, price text, price_currency text, tax_rate_bp int, category text, barcode text, stock int, stock_set boolean, low_stock int, description text, archived boolean';

function recordsJson(rows: { id: string; data: ProductData; stockSet: boolean }[]): string {
  return JSON.stringify(
    rows.map(({ id, data: d, stockSet }) => ({
      id,
      sku: d.sku,
      name: d.name,
      price: d.price.toString(),
      price_currency: d.priceCurrency,
      tax_rate_bp: d.taxRateBp,
      category: d.category,
      barcode: d.barcode,
      stock: d.stock,
      stock_set: stockSet,
      low_stock: d.lowStock,
      description: d.description,
      archived: d.archived,
    })),
  );
}

/**
 * A catalog file's text. Only UTF-8 is read (a UTF-8 byte order mark is dropped): a file saved in
 * another encoding, such as Latin-1's `caf\xe9`, is refused whole with a 400, since decoding it
 * anyway would import U+FFFD in place of every accented letter (docs/catalog.md).
 */
export function decodeCatalogCsv(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new BackofficeError('invalid_request', 'the file is not UTF-8 text: save it as "CSV UTF-8" and import it again');
  }
}

/** The import's plan, and, unless `dryRun` or an error, the plan applied in one transaction. */
export async function importCatalogCsv(
  db: Db,
  storeId: number,
  text: string,
  opts: { dryRun: boolean; userId?: string | null },
): Promise<{ plan: ImportPlan; applied: boolean }> {
  const { plan, planned } = await buildPlan(db, storeIdOf(storeId), text);
  if (opts.dryRun || plan.errors.length) return { plan, applied: false };
  const updates = planned.filter((p) => p.id && p.changed);
  const creates = planned.filter((p) => !p.id);
  await db.prisma.$transaction(
    async (tx) => {
      const updated = recordsJson(updates.map((p) => ({ id: p.id!, data: p.data, stockSet: p.stockSet })));
      const created = recordsJson(creates.map((p) => ({ id: randomUUID(), data: p.data, stockSet: true })));
      if (updates.length) {
        // Each stock level the file changes is a `count` movement (docs/catalog.md#stock).
        await recordImportCounts(tx, storeId, updated, opts.userId ?? null, false);
        // Codes may move from one row to another: free every changing one first, so the unique
        // index never sees two products holding the same code mid-way.
        await tx.$executeRawUnsafe(
          `UPDATE "product" SET "barcode" = NULL WHERE "store_id" = $2 AND "id" = ANY(SELECT jsonb_array_elements_text($1::jsonb))`,
          JSON.stringify(updates.map((p) => p.id)),
          storeId,
        );
        // One statement per side, whatever the row count: 5,000 rows stay well inside a second or two.
        // An existing product's stock is written only when the file changes it (`stock_set`): a sale
        // that lands between the plan's read and the apply must not be overwritten by the level the
        // plan read (docs/catalog.md#csv-export-and-import).
        await tx.$executeRawUnsafe(
          `UPDATE "product" AS p SET "sku" = r.sku, "name" = r.name, "price" = r.price::bigint, "price_currency" = r.price_currency,
             "tax_rate_bp" = r.tax_rate_bp, "category" = r.category, "barcode" = r.barcode,
             "stock" = CASE WHEN r.stock_set THEN r.stock ELSE p."stock" END, "low_stock" = r.low_stock,
             "description" = r.description, "archived" = r.archived, "updated_at" = now()
        FROM jsonb_to_recordset($1::jsonb) AS r(${RECORD_COLUMNS}) WHERE p."store_id" = $2 AND p."id" = r.id`,
          updated,
          storeId,
        );
      }
      if (creates.length) {
        await tx.$executeRawUnsafe(
          `INSERT INTO "product" ("store_id", "id", ${SET_COLUMNS.map(([c]) => `"${c}"`).join(', ')})
        SELECT $2::int, r.id, ${SET_COLUMNS.map(([, sql]) => `r.${sql}`).join(', ')} FROM jsonb_to_recordset($1::jsonb) AS r(${RECORD_COLUMNS})`,
          created,
          storeId,
        );
        await recordImportCounts(tx, storeId, created, opts.userId ?? null, true);
      }
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
  return { plan, applied: true };
}
