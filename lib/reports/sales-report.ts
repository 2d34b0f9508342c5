// The sales report (docs/using-counter.md#reports-and-receipts): totals, by local day, by cashier, by product and by status
// for a period, aggregated in SQL (a few grouped queries, whatever the number of payments).
//
// What counts:
// - A payment belongs to the period of its `created_at` (when it was rung up), the same field
//   the invoice list and export filter on, so the two reconcile for the same period.
// - Sales are `confirmed` payments at their `total`, marked-settled ones included. `accepted`
//   (paid, waiting for confirmations), `unpaid` and `declined` ones only appear in by_status.
// - taxes / fees are the payments' own `taxes` and `fees`; tips are the `donation` lines;
//   discounts are the `discount` lines, as a positive amount taken off.
// - refunds come from refundsConfirmedInPeriod (lib/reports/refunds.ts); net = gross − refunds.
// - fiat: the confirmed sales' `fiat_total`, summed exactly per currency. `totals.fiat` is that
//   sum when the priced sales share one currency, and null when there are none or several (a
//   sum across currencies means nothing); `totals.fiat_by_currency` always lists each one.
// - `ownSalesOf` (a cashier) confines every figure to the payments that user created.
import type { Db } from '../db';
import { findStore, storeIdOf } from '../stores';
import { formatKoinu } from '../money';
import { refundsConfirmedInPeriod } from './refunds';
import { salesByCategory, type CategoryRow } from './by-category';
import type { ReportRange } from './range';
import { optionsByProduct, type OptionRow } from './by-option';
import { lessCashRefunds, tenderAndTerminal, type TenderRow, type TerminalRow } from './by-tender';

export const STATUSES = ['unpaid', 'accepted', 'confirmed', 'declined'] as const;

export interface Figures {
  count: number;
  gross: string;
  taxes: string;
  fees: string;
  tips: string;
  discounts: string;
}
export interface DayRow extends Figures {
  date: string;
  from: string;
  to: string;
}
export interface CashierRow extends Figures {
  kind: 'user' | 'api_key' | 'unattributed';
  id: string | null;
  name: string;
}
export interface ProductRow {
  id: string;
  name: string;
  count: number;
  gross: string;
  tax: string;
  options: OptionRow[];
}
export interface StatusRow {
  count: number;
  amount: string;
  exceptions: Record<string, number>;
}
export interface FiatSum {
  currency: string;
  count: number;
  gross: string;
  net: string;
}

export interface SalesReport {
  from: string;
  to: string;
  tz: string;
  scope: 'store' | 'own_sales';
  totals: Figures & { refunds: string; net: string; fiat: FiatSum | null; fiat_by_currency: FiatSum[] };
  by_day: DayRow[];
  by_cashier: CashierRow[];
  by_product: ProductRow[];
  /** docs/catalog.md#reports */
  by_category: CategoryRow[];
  by_status: Record<(typeof STATUSES)[number], StatusRow>;
  /** docs/counter.md#reports: the confirmed sales by tender (doge, cash) and by registered till. */
  by_tender: Record<'doge' | 'cash', TenderRow>;
  by_terminal: TerminalRow[];
}

interface Acc {
  count: number;
  gross: bigint;
  taxes: bigint;
  fees: bigint;
  tips: bigint;
  discounts: bigint;
}
const zero = (): Acc => ({ count: 0, gross: 0n, taxes: 0n, fees: 0n, tips: 0n, discounts: 0n });
const show = (a: Acc): Figures => ({
  count: a.count,
  gross: formatKoinu(a.gross),
  taxes: formatKoinu(a.taxes),
  fees: formatKoinu(a.fees),
  tips: formatKoinu(a.tips),
  discounts: formatKoinu(a.discounts),
});
const big = (v: bigint | number | string | null | undefined): bigint => (v === null || v === undefined ? 0n : BigInt(v));

/** The WHERE clause shared by every query: the period, sales only (never a refund row), and a cashier's own sales. */
function scopeSql(ownSalesOf: string | null, alias = ''): string {
  // $3 is the store (docs/architecture.md#data): a report holds its store's sales only.
  return `${alias}"store_id" = $3 AND ${alias}"created_at" >= $1 AND ${alias}"created_at" < $2 AND ${alias}"refund_of" IS NULL${ownSalesOf ? ` AND ${alias}"created_by" = $4` : ''}`;
}

/** Who made a sale: the signed-in user, else the API key, else nobody we still know. */
function creatorKey(createdBy: string | null, apiKeyId: string | null): string {
  return createdBy ? `u:${createdBy}` : apiKeyId ? `k:${apiKeyId}` : '-';
}

/** a − b for decimal strings, exactly (fiat amounts). */
export function decimalSub(a: string, b: string): string {
  const scale = Math.max((a.split('.')[1] ?? '').length, (b.split('.')[1] ?? '').length);
  const toInt = (s: string) => {
    const neg = s.startsWith('-');
    const [w, f = ''] = (neg ? s.slice(1) : s).split('.');
    const v = BigInt((w || '0') + f.padEnd(scale, '0'));
    return neg ? -v : v;
  };
  const r = toInt(a) - toInt(b);
  const abs = (r < 0n ? -r : r).toString().padStart(scale + 1, '0');
  const out = scale ? `${abs.slice(0, -scale)}.${abs.slice(-scale)}` : abs;
  return r < 0n ? `-${out}` : out;
}

type Q = <T>(sql: string, extra?: unknown[]) => Promise<T[]>;

/** The report's grouped reads, run together (each one statement; none reads a row per sale). */
function readReportRows(db: Db, storeId: number, q: Q, range: ReportRange, ownSalesOf: string | null, params: unknown[], bounds: string) {
  // Day of each sale: its bucket among the local day boundaries (computed with Intl, in
  // lib/reports/range). The array is parsed once, in its own subquery, not once per row.
  const bucket = (alias: string) =>
    `width_bucket(${alias}"created_at", (SELECT string_to_array($${params.length + 1}, ',')::timestamptz[]))`;
  return Promise.all([
    q<{ status: string; exception: string | null; count: bigint; amount: bigint | null }>(
      `SELECT "status", "exception", count(*)::bigint AS count, sum("total")::bigint AS amount
         FROM "payment" WHERE ${scopeSql(ownSalesOf)} GROUP BY 1, 2`,
    ),
    q<SaleRow>(
      `SELECT ${bucket('')} AS b, "created_by", "api_key_id", count(*)::bigint AS count,
              sum("total")::bigint AS gross, sum("taxes")::bigint AS taxes, sum("fees")::bigint AS fees
         FROM "payment" WHERE ${scopeSql(ownSalesOf)} AND "status" = 'confirmed' GROUP BY 1, 2, 3`,
      [bounds],
    ),
    q<LineRow>(
      `SELECT ${bucket('p.')} AS b, p."created_by", p."api_key_id", l."type", sum(l."total")::bigint AS amount
         FROM "payment" p JOIN "payment_line" l ON l."payment_id" = p."id"
        WHERE ${scopeSql(ownSalesOf, 'p.')} AND p."status" = 'confirmed' AND l."type" IN ('donation', 'discount')
        GROUP BY 1, 2, 3, 4`,
      [bounds],
    ),
    q<{ item_id: string; name: string; count: bigint | null; gross: bigint | null; tax: bigint | null }>(
      `SELECT l."item_id", l."name", sum(coalesce(l."count", 0))::bigint AS count, sum(l."total")::bigint AS gross, sum(l."tax")::bigint AS tax
         FROM "payment" p JOIN "payment_line" l ON l."payment_id" = p."id"
        WHERE ${scopeSql(ownSalesOf, 'p.')} AND p."status" = 'confirmed' AND l."type" = 'item'
        GROUP BY 1, 2 ORDER BY sum(l."total") DESC NULLS LAST, 1, 2`,
    ),
    q<{ currency: string; count: bigint; gross: string }>(
      `SELECT "fiat_currency" AS currency, count(*)::bigint AS count, sum("fiat_total"::numeric)::text AS gross
         FROM "payment" WHERE ${scopeSql(ownSalesOf)} AND "status" = 'confirmed'
          AND "fiat_currency" <> '' AND "fiat_total" ~ '^[0-9]{1,30}(\\.[0-9]{1,18})?$'
        GROUP BY 1 ORDER BY 1`,
    ),
    refundsConfirmedInPeriod(db, storeId, range.from, range.to, ownSalesOf),
    salesByCategory(db, storeId, { where: scopeSql(ownSalesOf, 'p.'), params }),
  ]);
}

type SaleRow = {
  b: number;
  created_by: string | null;
  api_key_id: string | null;
  count: bigint;
  gross: bigint;
  taxes: bigint;
  fees: bigint;
};
type LineRow = { b: number; created_by: string | null; api_key_id: string | null; type: string; amount: bigint | null };

/** Adds each confirmed sale group and tip/discount line group to the totals, its day and its cashier. */
function accumulate(dayCount: number, saleRows: SaleRow[], lineRows: LineRow[]) {
  const totals = zero();
  const days = Array.from({ length: dayCount }, () => zero());
  const cashiers = new Map<string, Acc>();
  const acc = (b: number, createdBy: string | null, apiKeyId: string | null): Acc[] => {
    const k = creatorKey(createdBy, apiKeyId);
    if (!cashiers.has(k)) cashiers.set(k, zero());
    return [totals, days[Math.min(Math.max(b - 1, 0), days.length - 1)], cashiers.get(k)!];
  };
  for (const r of saleRows) {
    for (const a of acc(Number(r.b), r.created_by, r.api_key_id)) {
      a.count += Number(r.count);
      a.gross += big(r.gross);
      a.taxes += big(r.taxes);
      a.fees += big(r.fees);
    }
  }
  for (const r of lineRows) {
    for (const a of acc(Number(r.b), r.created_by, r.api_key_id)) {
      if (r.type === 'donation') a.tips += big(r.amount);
      else a.discounts -= big(r.amount); // discount lines are negative; shown as the amount taken off
    }
  }
  return { totals, days, cashiers };
}

/** Every status (zero when none), with its exceptions counted. */
function statusBreakdown(
  rows: { status: string; exception: string | null; count: bigint; amount: bigint | null }[],
): SalesReport['by_status'] {
  const byStatus = Object.fromEntries(
    STATUSES.map((s) => [s, { count: 0, amount: 0n, exceptions: {} as Record<string, number> }]),
  ) as Record<string, { count: number; amount: bigint; exceptions: Record<string, number> }>;
  for (const r of rows) {
    const s = (byStatus[r.status] ??= { count: 0, amount: 0n, exceptions: {} });
    s.count += Number(r.count);
    s.amount += big(r.amount);
    if (r.exception) s.exceptions[r.exception] = (s.exceptions[r.exception] ?? 0) + Number(r.count);
  }
  return Object.fromEntries(
    Object.entries(byStatus).map(([s, v]) => [s, { count: v.count, amount: formatKoinu(v.amount), exceptions: v.exceptions }]),
  ) as SalesReport['by_status'];
}

/** The sales report of store `storeId` over `range`: a cashier's own sales only when `ownSalesOf` names it. */
export async function salesReport(db: Db, storeId: number, range: ReportRange, ownSalesOf: string | null = null): Promise<SalesReport> {
  const params: unknown[] = [range.from, range.to, storeIdOf(storeId), ...(ownSalesOf ? [ownSalesOf] : [])];
  const bounds = [...range.days.map((d) => d.from.toISOString()), range.to.toISOString()].join(',');
  const q: Q = <T>(sql: string, extra: unknown[] = []) => db.prisma.$queryRawUnsafe<T[]>(sql, ...params, ...extra);
  const [statusRows, saleRows, lineRows, productRows, fiatRows, refunds, byCategory] = await readReportRows(
    db,
    storeId,
    q,
    range,
    ownSalesOf,
    params,
    bounds,
  );
  const tenders = await tenderAndTerminal(db, storeId, { where: scopeSql(ownSalesOf), params });
  tenders.by_tender.cash = lessCashRefunds(tenders.by_tender.cash, refunds.cash);
  const options = await optionsByProduct(db, { where: scopeSql(ownSalesOf, 'p.'), params });
  const { totals, days, cashiers } = accumulate(range.days.length, saleRows, lineRows);
  const byCashier = await nameCashiers(db, cashiers);
  const fiatByCurrency: FiatSum[] = fiatRows.map((r) => {
    const refunded = refunds.fiat.get(r.currency) ?? '0';
    return { currency: r.currency, count: Number(r.count), gross: r.gross, net: decimalSub(r.gross, refunded) };
  });

  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    tz: range.tz,
    scope: ownSalesOf ? 'own_sales' : 'store',
    totals: {
      ...show(totals),
      refunds: formatKoinu(refunds.koinu),
      net: formatKoinu(totals.gross - refunds.koinu),
      fiat: fiatByCurrency.length === 1 ? fiatByCurrency[0] : null,
      fiat_by_currency: fiatByCurrency,
    },
    by_day: range.days.map((d, i) => ({ date: d.date, from: d.from.toISOString(), to: d.to.toISOString(), ...show(days[i]) })),
    by_cashier: byCashier,
    by_product: productRows.map((r) => ({
      id: r.item_id,
      name: r.name,
      count: Number(r.count ?? 0),
      gross: formatKoinu(big(r.gross)),
      tax: formatKoinu(big(r.tax)),
      options: options.get(`${r.item_id}\u0000${r.name}`) ?? [],
    })),
    by_category: byCategory,
    by_status: statusBreakdown(statusRows),
    ...tenders,
  };
}

/** Display names for sale creators: users by name (or email), API keys by their label. */
export async function creatorNames(
  db: Db,
  keys: Iterable<string>,
): Promise<Map<string, { kind: CashierRow['kind']; id: string | null; name: string }>> {
  const ks = [...keys];
  const userIds = ks.filter((k) => k.startsWith('u:')).map((k) => k.slice(2));
  const keyIds = ks.filter((k) => k.startsWith('k:')).map((k) => k.slice(2));
  const [users, apiKeys] = await Promise.all([
    userIds.length ? db.prisma.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true, email: true } }) : [],
    keyIds.length ? db.prisma.apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, name: true, prefix: true } }) : [],
  ]);
  const out = new Map<string, { kind: CashierRow['kind']; id: string | null; name: string }>();
  for (const u of users) out.set(`u:${u.id}`, { kind: 'user', id: u.id, name: u.name || u.email });
  for (const k of apiKeys) out.set(`k:${k.id}`, { kind: 'api_key', id: k.id, name: `API key ${k.name || k.prefix}` });
  for (const k of ks) {
    if (!out.has(k))
      out.set(
        k,
        k === '-'
          ? { kind: 'unattributed', id: null, name: 'Unattributed' }
          : { kind: k.startsWith('u:') ? 'user' : 'api_key', id: k.slice(2), name: k.slice(2) },
      );
  }
  return out;
}

async function nameCashiers(db: Db, cashiers: Map<string, Acc>): Promise<CashierRow[]> {
  const names = await creatorNames(db, cashiers.keys());
  return [...cashiers.entries()]
    .sort(([ka, a], [kb, b]) => (b.gross > a.gross ? 1 : b.gross < a.gross ? -1 : ka.localeCompare(kb)))
    .map(([k, a]) => ({ ...names.get(k)!, ...show(a) }));
}

/** Store `storeId`'s time zone (setting `timezone`) when this database has one, else UTC. */
export async function storeTimezone(db: Db, storeId: number): Promise<string> {
  try {
    const tz = (await findStore(db, storeId))?.timezone.trim();
    if (tz) {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return tz;
    }
  } catch {
    /* no such column yet, or a zone this runtime does not know */
  }
  return 'UTC';
}
