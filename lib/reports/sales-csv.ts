// The sales report as CSV (?format=csv, docs/using-counter.md#reports-and-receipts): one row per line of every payment the
// report counts (confirmed sales, and accepted ones with their status so they can be told
// apart), oldest first, times in the report's zone. Over the confirmed rows, the sum of
// line_total plus tax is the report's gross. Fields go through the invoice export's escaping
// (csvField: RFC 4180 quoting and the spreadsheet-formula guard). `category` is an item line's
// product's category, as by_category counts it (lib/reports/by-category.ts): "" for a line with
// no product or category, and for every line that is not an item.
import { inStore } from '../stores';
import type { Db } from '../db';
import { formatKoinu } from '../money';
import { csvField } from '../backoffice';
import { localIso, type ReportRange } from './range';
import { creatorNames } from './sales-report';

export const SALES_CSV_COLUMNS = [
  'payment_id',
  'time',
  'cashier',
  'status',
  'exception',
  'line_type',
  'item_id',
  'name',
  'count',
  'unit',
  'tax',
  'line_total',
  // docs/counter.md#reports: how the sale was paid (doge, cash) and the till's name then ('' for none).
  'tender',
  'terminal',
  // docs/catalog.md#reports: an item line's product's category.
  'category',
] as const;

const PAGE = 2000;

interface LineRow {
  id: string;
  seq: bigint;
  created_at: Date;
  status: string;
  exception: string | null;
  created_by: string | null;
  api_key_id: string | null;
  type: string;
  item_id: string;
  name: string;
  count: number | null;
  unit: bigint | null;
  tax: bigint | null;
  total: bigint | null;
  tender: string;
  terminal: string | null;
  category: string | null;
}

/**
 * localIso with the zone's offset looked up once per minute of time (clock changes fall on
 * whole minutes); the wall clock is then the instant plus that offset.
 */
function localTimeCache(tz: string): (t: Date) => string {
  const offsets = new Map<number, string>();
  return (t: Date) => {
    const minute = Math.floor(t.getTime() / 60_000);
    let iso = offsets.get(minute);
    if (iso === undefined) {
      if (offsets.size > 100_000) offsets.clear();
      iso = localIso(new Date(minute * 60_000), tz);
      offsets.set(minute, iso);
    }
    const sec = String(Math.floor(t.getTime() / 1000) % 60).padStart(2, '0');
    return `${iso.slice(0, 17)}${sec}${iso.slice(19)}`;
  };
}

/** Yields the CSV text in chunks (header first), paging through the period by (created_at, seq). */
export async function* salesCsv(db: Db, storeId: number, range: ReportRange, ownSalesOf: string | null = null): AsyncGenerator<string> {
  yield SALES_CSV_COLUMNS.join(',') + '\r\n';
  const where = {
    ...inStore(storeId),
    createdAt: { gte: range.from, lt: range.to },
    status: { in: ['confirmed', 'accepted'] },
    refundOf: null, // refunds are not sales (docs/using-counter.md#reports-and-receipts)
    ...(ownSalesOf ? { createdBy: ownSalesOf } : {}),
  };
  const creators = await db.prisma.payment.groupBy({ by: ['createdBy', 'apiKeyId'], where });
  const names = await creatorNames(
    db,
    creators.map((c) => (c.createdBy ? `u:${c.createdBy}` : c.apiKeyId ? `k:${c.apiKeyId}` : '-')),
  );
  const who = (createdBy: string | null, apiKeyId: string | null) =>
    names.get(createdBy ? `u:${createdBy}` : apiKeyId ? `k:${apiKeyId}` : '-')?.name ?? '';
  const k = (v: bigint | string | null) => (v === null ? '' : formatKoinu(BigInt(v)));
  const localTime = localTimeCache(range.tz);
  const scope = ownSalesOf ? ` AND "created_by" = $6` : '';
  let after: { createdAt: Date; seq: bigint } = { createdAt: new Date(range.from.getTime() - 1), seq: 0n };
  for (;;) {
    // One page of payments (keyset on created_at, seq) with their lines, in one query.
    const rows = await db.prisma.$queryRawUnsafe<LineRow[]>(
      `SELECT p."id", p."seq", p."created_at", p."status", p."exception", p."created_by", p."api_key_id",
              l."type", l."item_id", l."name", l."count", l."unit", l."tax", l."total", p."tender", p."terminal",
              CASE WHEN l."type" = 'item' THEN pr."category" END AS category
         FROM (SELECT "id", "seq", "created_at", "status", "exception", "created_by", "api_key_id", "tender", "terminal" FROM "payment"
                WHERE "store_id" = $5 AND "created_at" >= $1 AND "created_at" < $2 AND "status" IN ('confirmed', 'accepted') AND "refund_of" IS NULL${scope}
                  AND ("created_at", "seq") > ($3, $4)
                ORDER BY "created_at", "seq" LIMIT ${PAGE}) p
         JOIN "payment_line" l ON l."payment_id" = p."id"
         LEFT JOIN "product" pr ON pr."store_id" = $5 AND pr."sku" = l."item_id"
        ORDER BY p."created_at", p."seq", l."idx"`,
      range.from,
      range.to,
      after.createdAt,
      after.seq,
      storeId,
      ...(ownSalesOf ? [ownSalesOf] : []),
    );
    if (rows.length === 0) return;
    const out: string[] = [];
    for (const r of rows) {
      out.push(
        [
          r.id,
          localTime(r.created_at),
          who(r.created_by, r.api_key_id),
          r.status,
          r.exception ?? '',
          r.type,
          r.item_id,
          r.name,
          r.count ?? '',
          k(r.unit),
          k(r.tax),
          k(r.total),
          r.tender,
          r.terminal ?? '',
          r.category ?? '',
        ]
          .map(csvField)
          .join(','),
      );
    }
    yield out.join('\r\n') + '\r\n';
    const last = rows[rows.length - 1];
    after = { createdAt: last.created_at, seq: BigInt(last.seq) };
  }
}
