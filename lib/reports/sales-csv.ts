// The sales report as CSV (?format=csv, DESIGN.md §15): one row per line of every payment the
// report counts (confirmed sales, and accepted ones with their status so they can be told
// apart), oldest first, times in the report's zone. Over the confirmed rows, the sum of
// line_total plus tax is the report's gross. Fields go through the invoice export's escaping
// (csvField: RFC 4180 quoting and the spreadsheet-formula guard).
import type { Db } from '../db/client';
import { formatKoinu } from '../money';
import { csvField } from '../backoffice/invoices';
import { localIso, type ReportRange } from './range';
import { creatorNames } from './sales-report';

export const SALES_CSV_COLUMNS = [
  'payment_id', 'time', 'cashier', 'status', 'exception', 'line_type', 'item_id', 'name', 'count', 'unit', 'tax', 'line_total',
] as const;

const PAGE = 2000;

/** Yields the CSV text in chunks (header first), paging through the period by (created_at, seq). */
export async function* salesCsv(db: Db, range: ReportRange, ownSalesOf: string | null = null): AsyncGenerator<string> {
  yield SALES_CSV_COLUMNS.join(',') + '\r\n';
  const where = {
    createdAt: { gte: range.from, lt: range.to },
    status: { in: ['confirmed', 'accepted'] },
    ...(ownSalesOf ? { createdBy: ownSalesOf } : {}),
  };
  const creators = await db.prisma.payment.groupBy({ by: ['createdBy', 'apiKeyId'], where });
  const names = await creatorNames(db, creators.map((c) => (c.createdBy ? `u:${c.createdBy}` : c.apiKeyId ? `k:${c.apiKeyId}` : '-')));
  const who = (createdBy: string | null, apiKeyId: string | null) => names.get(createdBy ? `u:${createdBy}` : apiKeyId ? `k:${apiKeyId}` : '-')?.name ?? '';
  const k = (v: bigint | null) => (v === null ? '' : formatKoinu(v));
  let after: { createdAt: Date; seq: bigint } | null = null;
  for (;;) {
    const rows: { id: string; seq: bigint; createdAt: Date; status: string; exception: string | null; createdBy: string | null; apiKeyId: string | null; lines: { type: string; itemId: string; name: string; count: number | null; unit: bigint | null; tax: bigint | null; total: bigint | null }[] }[] =
      await db.prisma.payment.findMany({
        where: after ? { ...where, OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, seq: { gt: after.seq } }] } : where,
        orderBy: [{ createdAt: 'asc' }, { seq: 'asc' }],
        take: PAGE,
        select: {
          id: true, seq: true, createdAt: true, status: true, exception: true, createdBy: true, apiKeyId: true,
          lines: { orderBy: { idx: 'asc' }, select: { type: true, itemId: true, name: true, count: true, unit: true, tax: true, total: true } },
        },
      });
    const out: string[] = [];
    for (const p of rows) {
      const time = localIso(p.createdAt, range.tz);
      const cashier = who(p.createdBy, p.apiKeyId);
      for (const l of p.lines) {
        out.push([p.id, time, cashier, p.status, p.exception ?? '', l.type, l.itemId, l.name, l.count ?? '', k(l.unit), k(l.tax), k(l.total)].map(csvField).join(','));
      }
    }
    if (out.length) yield out.join('\r\n') + '\r\n';
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1];
    after = { createdAt: last.createdAt, seq: last.seq };
  }
}
