// Invoices in the back office: filtered cursor pages (status, date range, text), the detail
// with lines, outputs, submissions and the webhook delivery log, and CSV/JSON export. Cursors
// are those of the vendor API (lib/payments/queries/list-payments), newest first by seq.
import { localDateTime } from '../time';
import { z } from 'zod';
import { inStore } from '../stores';
import { type Db, parseInt64, storableDate } from '../db';
import { formatKoinu } from '../money';
import {
  encodeCursor,
  decodeCursor,
  vendorPaymentView,
  expiredField,
  isExpired,
  canCancel,
  canMark,
  refundView,
  amountRefunded,
} from '../payments';
import { loadRefunds } from '../refunds';
import { redeliver } from '../webhooks';
import { BackofficeError, invalid, parseWith } from './errors';

export const STATUSES = ['unpaid', 'accepted', 'confirmed', 'declined'] as const;
export const EXPORT_MAX_ROWS = 100_000;

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
// A date the database can store: years 1–9999 (0000-01-01, -001000-01-01 and leap seconds are not).
const dateish = z
  .string()
  .max(40)
  .refine(
    (s) => storableDate(new Date(DATE_RE.test(s) ? `${s}T00:00:00Z` : s)) !== null,
    'must be a date (YYYY-MM-DD) or an RFC 3339 time, between years 1 and 9999',
  );

const Filter = z.object({
  status: z.enum(STATUSES).optional(),
  from: dateish.optional(),
  to: dateish.optional(),
  q: z
    .string()
    .trim()
    .max(100, 'must be at most 100 characters')
    .refine((s) => !s.includes('\u0000'), 'must not contain a NUL character')
    .optional(),
  /** A registered till's id (GET /api/admin/terminals): its sales only (docs/counter.md#terminals). */
  terminal: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a terminal id')
    .optional(),
  /** doge or cash (docs/counter.md#cash). */
  tender: z.enum(['doge', 'cash'], { message: 'must be doge or cash' }).optional(),
  cursor: z.string().max(200).optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, 'must be an integer 1–100')
    .transform(Number)
    .pipe(z.number().min(1, 'must be an integer 1–100').max(100, 'must be an integer 1–100'))
    .optional(),
});
export type InvoiceFilter = z.output<typeof Filter>;

/** Reads filters from query parameters (blank values are absent). Throws 400 on bad input. */
export function parseInvoiceFilter(params: URLSearchParams): InvoiceFilter {
  const raw: Record<string, string> = {};
  for (const k of ['status', 'from', 'to', 'q', 'terminal', 'tender', 'cursor', 'limit']) {
    const v = params.get(k);
    if (v !== null && v.trim() !== '') raw[k] = v;
  }
  return parseWith(Filter, raw);
}

function bound(s: string, endOfDay: boolean): Date {
  if (DATE_RE.test(s)) {
    const d = new Date(`${s}T00:00:00Z`);
    if (Number.isNaN(d.getTime())) throw invalid(endOfDay ? 'to' : 'from', 'is not a real date');
    return endOfDay ? new Date(d.getTime() + 86_400_000) : d;
  }
  return new Date(s);
}

/** The filter's payments of store `storeId` (another store's are never matched). */
function whereOf(storeId: number, f: InvoiceFilter) {
  const createdAt = { ...(f.from ? { gte: bound(f.from, false) } : {}), ...(f.to ? { lt: bound(f.to, true) } : {}) };
  const q = f.q;
  return {
    ...inStore(storeId),
    refundOf: null, // refunds are not invoices: each is listed on the invoice it refunds (docs/api.md#refunds)
    ...(f.status ? { status: f.status } : {}),
    ...(f.terminal ? { terminalId: f.terminal } : {}),
    ...(f.tender ? { tender: f.tender } : {}),
    ...(f.from || f.to ? { createdAt } : {}),
    ...(q
      ? {
          OR: [
            { id: q },
            { txid: q.toLowerCase() },
            { address: q },
            { buyerAddress: q },
            { vendorOrderId: { contains: q, mode: 'insensitive' as const } },
            { orderReference: { contains: q, mode: 'insensitive' as const } },
            { note: { contains: q, mode: 'insensitive' as const } },
          ],
        }
      : {}),
  };
}

export interface InvoiceRowView {
  id: string;
  created_at: string;
  status: string;
  exception: string | null;
  expired: boolean;
  total: string;
  fiat_total: string;
  fiat_currency: string;
  vendor_order_id: string;
  order_reference: string;
  address: string;
  txid: string | null;
  confirmed: number;
  required: number;
  /** docs/counter.md: how it was paid, and the till it was rung up on (its name then), or null. */
  tender: string;
  terminal: string | null;
}

type Row = Awaited<ReturnType<Db['prisma']['payment']['findFirstOrThrow']>>;

export function invoiceRowView(r: Row, now: Date): InvoiceRowView {
  return {
    id: r.id,
    created_at: r.createdAt.toISOString(),
    status: r.status,
    exception: r.exception ?? null,
    expired: expiredField(r, now),
    total: formatKoinu(r.total),
    fiat_total: r.fiatTotal,
    fiat_currency: r.fiatCurrency,
    vendor_order_id: r.vendorOrderId,
    order_reference: r.orderReference,
    address: r.address,
    txid: r.txid ?? null,
    confirmed: r.confirmations,
    required: r.requiredConfirmations,
    tender: r.tender,
    terminal: r.terminal ?? null,
  };
}

export async function searchInvoices(db: Db, storeId: number, f: InvoiceFilter, now = new Date()) {
  const limit = f.limit ?? 25;
  let cursorSeq: bigint | undefined;
  if (f.cursor) {
    try {
      cursorSeq = decodeCursor(f.cursor);
    } catch {
      throw invalid('cursor', 'is not a cursor this server issued');
    }
  }
  const rows = await db.prisma.payment.findMany({
    where: { ...inStore(storeId), ...whereOf(storeId, f), ...(cursorSeq !== undefined ? { seq: { lt: cursorSeq } } : {}) },
    orderBy: { seq: 'desc' },
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  return {
    invoices: page.map((r) => invoiceRowView(r, now)),
    next_cursor: rows.length > limit ? encodeCursor(page[page.length - 1].seq) : null,
  };
}

export async function invoiceDetail(db: Db, storeId: number, id: string, publicUrl: string, now = new Date()) {
  const events = { orderBy: { seq: 'asc' }, include: { attemptLog: { orderBy: { id: 'asc' }, take: 100 } } } as const;
  const row = await db.prisma.payment.findFirst({
    where: { id, ...inStore(storeId), refundOf: null },
    include: {
      lines: { orderBy: { idx: 'asc' } },
      outputs: { orderBy: { idx: 'asc' } },
      submissions: { orderBy: { id: 'asc' }, take: 50 },
      events,
      refunds: { orderBy: { seq: 'asc' }, include: { events } },
    },
  });
  if (!row) throw new BackofficeError('not_found', 'no such invoice');
  const k = (v: bigint | null) => (v === null ? null : formatKoinu(v));
  // The refunds' own events (refund.*) are delivered like the payment's: one log, in order.
  const allEvents = [...row.events, ...row.refunds.flatMap((r) => r.events)].sort((a, b) => (a.seq < b.seq ? -1 : 1));
  return {
    ...vendorPaymentView(row, publicUrl, now),
    // What the merchant may do, as the state table says (lib/payments predicates): the page
    // shows only the buttons that would succeed. An expired invoice is not offered for cancel.
    can: { cancel: canCancel(row) && !isExpired(row, now), mark: canMark(row, 'settled') },
    refunds: row.refunds.map((r) => ({
      ...refundView(r, publicUrl),
      txid: r.txid,
      confirmed: r.confirmations,
      required: r.requiredConfirmations,
      fiat_amount: r.fiatTotal,
      fiat_currency: r.fiatCurrency,
    })),
    taxes: formatKoinu(row.taxes),
    fees: formatKoinu(row.fees),
    quantity: row.quantity,
    vendor_order_id: row.vendorOrderId,
    order_reference: row.orderReference,
    note: row.note,
    fiat_total: row.fiatTotal,
    fiat_tax: row.fiatTax,
    fiat_currency: row.fiatCurrency,
    buyer_address: row.buyerAddress,
    lines: row.lines.map((l) => ({
      type: l.type,
      id: l.itemId,
      name: l.name,
      icon: l.icon,
      count: l.count,
      unit: k(l.unit),
      total: k(l.total),
      tax: k(l.tax),
    })),
    outputs: row.outputs.map((o) => ({ type: o.type, address: o.address, amount: k(o.amount), data: o.data })),
    submissions: row.submissions.map((s) => ({
      txid: s.txid,
      refund: s.refund,
      outcome: s.outcome,
      error: s.error,
      created_at: s.createdAt.toISOString(),
    })),
    deliveries: allEvents.map((e) => ({
      seq: e.seq.toString(),
      id: e.id,
      type: e.type,
      state: e.deliveryState,
      attempts: e.attempts,
      next_attempt_at: e.nextAttemptAt.toISOString(),
      delivered_at: e.deliveredAt?.toISOString() ?? null,
      created_at: e.createdAt.toISOString(),
      log: e.attemptLog.map((a) => ({
        attempt: a.attempt,
        url: a.url,
        status_code: a.statusCode,
        error: a.error,
        duration_ms: a.durationMs,
        at: a.createdAt.toISOString(),
      })),
    })),
  };
}

/** Queues an event for delivery again (the worker sends it on its next pass). */
export async function redeliverEvent(db: Db, storeId: number, seq: string): Promise<void> {
  const n = parseInt64(seq);
  if (n === null) throw invalid('seq', 'must be an event number');
  // Another store's event is no such event.
  const own = await db.prisma.vendorEvent.findFirst({ where: { seq: n, ...inStore(storeId) }, select: { seq: true } });
  if (!own || !(await redeliver(db, n))) throw new BackofficeError('not_found', 'no such event');
}

export const CSV_COLUMNS = [
  'id',
  'created_at',
  'status',
  'exception',
  'expired',
  'total',
  'fiat_total',
  'fiat_currency',
  'vendor_order_id',
  'order_reference',
  'address',
  'txid',
  'confirmed',
  'required',
] as const;

/** RFC 4180 field; text that a spreadsheet would run as a formula is prefixed with '. */
export function csvField(v: unknown): string {
  let s = v === null || v === undefined ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

async function* allMatching(db: Db, storeId: number, f: InvoiceFilter) {
  let cursor: bigint | undefined;
  let n = 0;
  for (;;) {
    const rows = await db.prisma.payment.findMany({
      where: { ...inStore(storeId), ...whereOf(storeId, f), ...(cursor !== undefined ? { seq: { lt: cursor } } : {}) },
      orderBy: { seq: 'desc' },
      take: 500,
    });
    const refunds = await loadRefunds(
      db.prisma,
      rows.map((r) => r.id),
    );
    for (const r of rows) {
      if (n++ >= EXPORT_MAX_ROWS) return;
      yield { ...r, refunds: refunds.get(r.id) ?? [] };
    }
    if (rows.length < 500) return;
    cursor = rows[rows.length - 1].seq;
  }
}

/**
 * Appended after the original columns (docs/api.md#refunds): `amount_refunded` (accepted or confirmed
 * refunds) and `refunds` ("<id> <status> <amount>", separated by "; ", failed ones included).
 */
export const CSV_REFUND_COLUMNS = ['amount_refunded', 'refunds'] as const;

/**
 * Appended after the refund columns (docs/counter.md#terminals): `tender` (doge or cash) and
 * `terminal` (the till's name when the sale was rung up, empty for none). New columns only ever
 * go at the end, so a spreadsheet that reads columns by position keeps working.
 */
export const CSV_COUNTER_COLUMNS = ['tender', 'terminal'] as const;

/**
 * CSV export. `created_at` stays an RFC 3339 instant in UTC, as in the JSON export and the API;
 * two columns follow for spreadsheets: `created_local` ("YYYY-MM-DD HH:MM:SS" in the store's
 * zone) and `timezone` (that zone's IANA name), so no time in the file is ambiguous.
 */
export async function exportInvoicesCsv(db: Db, storeId: number, f: InvoiceFilter, now = new Date(), tz = 'UTC'): Promise<string> {
  const lines = [[...CSV_COLUMNS, 'created_local', 'timezone', ...CSV_REFUND_COLUMNS, ...CSV_COUNTER_COLUMNS].join(',')];
  for await (const r of allMatching(db, storeId, f)) {
    const v = invoiceRowView(r, now) as unknown as Record<string, unknown>;
    lines.push(
      [
        ...CSV_COLUMNS.map((c) => csvField(v[c])),
        csvField(localDateTime(r.createdAt, tz)),
        csvField(tz),
        csvField(formatKoinu(amountRefunded(r.refunds))),
        csvField(r.refunds.map((x) => `${x.id} ${x.status} ${formatKoinu(x.total)}`).join('; ')),
        ...CSV_COUNTER_COLUMNS.map((c) => csvField(v[c])),
      ].join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}

/** The JSON export: the vendor API's payment bodies (GET /api/v1/payments/<id>). */
export async function exportInvoicesJson(
  db: Db,
  storeId: number,
  f: InvoiceFilter,
  publicUrl: string,
  now = new Date(),
): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const r of allMatching(db, storeId, f)) out.push(vendorPaymentView(r, publicUrl, now));
  return out;
}
