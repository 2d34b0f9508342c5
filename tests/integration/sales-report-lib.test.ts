// The sales report (lib/reports) on a real PGlite with the project's migrations: a few hundred
// payments made through createPayment from till carts (items with tax, fees, shipping,
// discounts, tips, fiat), by three cashiers, a manager and an API key, over three days around
// the Europe/Berlin clock change, in every state (underpaid, accepted, confirmed,
// marked-settled, declined, expired: docs/api.md#payments-from-any-wallet). The report must
// reconcile exactly with the invoice export for the same period and with what the test itself
// put in; the CSV must sum to the JSON; a cashier's report holds only its own sales. (100,000
// payments: sales-report-perf.test.ts.) The seeding is tests/helpers/sales-seed.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { exportInvoicesCsv, exportInvoicesJson, parseInvoiceFilter } from '@/lib/backoffice/invoices';
import { parseKoinu, formatKoinu } from '@/lib/money';
import { resolveRange, salesReport, salesCsv, SALES_CSV_COLUMNS, storeTimezone, type SalesReport } from '@/lib/reports';
import { seedSales, type SeededRefund, type SeededSale } from '../helpers/sales-seed';
import { collect, parseCsv } from '../helpers/csv';

const URL_BASE = 'http://127.0.0.1:1';
const TZ = 'Europe/Berlin';
const K = (s: string) => parseKoinu(s, { allowNegative: true });
let db: Db;

let seeded: SeededSale[] = [];
let refunds: SeededRefund[] = [];
const CUSTOMER = 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L'; // a valid mainnet address, not the store's
let cashiers: string[] = [];
// Resolved once: every sale's inRange() asked for it anew, and each resolution reads the zone's
// clock through Intl some hundred times (3.5 s of the file's CPU).
const RANGE = resolveRange({ from: '2026-10-24', to: '2026-10-27', tz: TZ });
const range = () => RANGE;

beforeAll(async () => {
  db = await openTestDb();
  ({ seeded, refunds, cashiers } = await seedSales(db, { urlBase: URL_BASE, customer: CUSTOMER }));
}, 240_000);
afterAll(async () => db?.close());

function inRange(s: SeededSale) {
  const { from, to } = range();
  return s.createdAt >= from && s.createdAt < to;
}
const lineSum = (s: SeededSale, type: string) =>
  s.body.items.filter((l) => l.type === type).reduce((a, l) => a + K(l.unit) * BigInt(l.count) + (l.tax ? K(l.tax) : 0n), 0n);

describe('the report reconciles', () => {
  let rep: SalesReport;
  beforeAll(async () => {
    rep = await salesReport(db, 1, range());
  });

  it('with what was put in', () => {
    const sales = seeded.filter((s) => inRange(s) && s.status === 'confirmed');
    expect(sales.length).toBeGreaterThan(80);
    expect(rep.totals.count).toBe(sales.length);
    expect(rep.totals.gross).toBe(formatKoinu(sales.reduce((a, s) => a + s.total, 0n)));
    expect(rep.totals.taxes).toBe(formatKoinu(sales.reduce((a, s) => a + s.taxes, 0n)));
    expect(rep.totals.fees).toBe(formatKoinu(sales.reduce((a, s) => a + s.fees, 0n)));
    expect(rep.totals.tips).toBe(formatKoinu(sales.reduce((a, s) => a + lineSum(s, 'donation'), 0n)));
    expect(rep.totals.discounts).toBe(formatKoinu(-sales.reduce((a, s) => a + lineSum(s, 'discount'), 0n)));
    expect(K(rep.totals.tips)).toBeGreaterThan(0n);
    expect(K(rep.totals.discounts)).toBeGreaterThan(0n);
    // Refunds are not sales: the ones confirmed in the period, whatever day their sale was.
    const { from, to } = range();
    const inPeriod = refunds.filter((x) => x.confirmedAt && x.confirmedAt >= from && x.confirmedAt < to);
    expect(inPeriod.length).toBeGreaterThan(10);
    expect(refunds.length).toBeGreaterThan(inPeriod.length); // some unpaid, failed or later
    const refunded = inPeriod.reduce((a, x) => a + x.amount, 0n);
    expect(rep.totals.refunds).toBe(formatKoinu(refunded));
    expect(rep.totals.net).toBe(formatKoinu(K(rep.totals.gross) - refunded));
    // Every line adds up to the total (docs/using-counter.md#reports-and-receipts): items + tax +
    // fee + shipping − discount + tip.
    for (const s of sales)
      expect(['item', 'fee', 'shipping', 'discount', 'donation'].reduce((a, t) => a + lineSum(s, t), 0n)).toBe(s.total);
    // Marked-settled sales count as sales; accepted ones are listed apart.
    expect(rep.by_status.confirmed.exceptions.marked_settled).toBe(sales.filter((s) => s.exception === 'marked_settled').length);
    expect(rep.by_status.accepted.count).toBe(seeded.filter((s) => inRange(s) && s.status === 'accepted').length);
    expect(rep.by_status.unpaid.exceptions.underpaid).toBe(seeded.filter((s) => inRange(s) && s.exception === 'underpaid').length);
    expect(rep.by_status.confirmed).toMatchObject({ count: rep.totals.count, amount: rep.totals.gross });
  });

  it('with the invoice export (JSON and CSV) for the same period', async () => {
    const { from, to } = range();
    const f = parseInvoiceFilter(new URLSearchParams({ from: from.toISOString(), to: to.toISOString() }));
    const exported = (await exportInvoicesJson(db, 1, f, URL_BASE)) as {
      id: string;
      status: string;
      total: string;
      exception: string | null;
      payment: { items: { type: string; count?: number; unit?: string; tax?: string }[] };
    }[];
    expect(exported.length).toBe(seeded.filter(inRange).length);
    for (const st of ['unpaid', 'accepted', 'confirmed', 'declined'] as const) {
      const of = exported.filter((p) => p.status === st);
      expect(rep.by_status[st].count, st).toBe(of.length);
      expect(rep.by_status[st].amount, st).toBe(formatKoinu(of.reduce((a, p) => a + K(p.total), 0n)));
    }
    const confirmed = exported.filter((p) => p.status === 'confirmed');
    expect(rep.totals.gross).toBe(formatKoinu(confirmed.reduce((a, p) => a + K(p.total), 0n)));
    // by_product against the item lines of the exported sales.
    let itemGross = 0n;
    let itemTax = 0n;
    let itemCount = 0;
    for (const p of confirmed)
      for (const l of p.payment.items.filter((x) => x.type === 'item')) {
        itemGross += K(l.unit!) * BigInt(l.count!);
        itemTax += l.tax ? K(l.tax) : 0n;
        itemCount += l.count!;
      }
    expect(formatKoinu(rep.by_product.reduce((a, x) => a + K(x.gross), 0n))).toBe(formatKoinu(itemGross));
    expect(formatKoinu(rep.by_product.reduce((a, x) => a + K(x.tax), 0n))).toBe(formatKoinu(itemTax));
    expect(rep.by_product.reduce((a, x) => a + x.count, 0)).toBe(itemCount);
    expect(rep.by_product.find((x) => x.id === 'COF')?.name).toBe('Coffee');

    const csv = parseCsv(await exportInvoicesCsv(db, 1, f));
    const [head, ...rows] = csv;
    expect(rows.length).toBe(exported.length);
    const col = (n: string) => head.indexOf(n);
    // Each invoice's amount_refunded: its refunds that were paid (confirmed here), never a refund row as an invoice.
    const ids = new Set(exported.map((p) => p.id));
    const paidRefunds = refunds.filter((x) => ids.has(x.of) && x.status === 'confirmed').reduce((a, x) => a + x.amount, 0n);
    expect(paidRefunds).toBeGreaterThan(0n);
    expect(formatKoinu(rows.reduce((a, r) => a + K(r[col('amount_refunded')] || '0'), 0n))).toBe(formatKoinu(paidRefunds));
    const csvConfirmed = rows.filter((r) => r[col('status')] === 'confirmed');
    expect(csvConfirmed.length).toBe(rep.totals.count);
    expect(formatKoinu(csvConfirmed.reduce((a, r) => a + K(r[col('total')]), 0n))).toBe(rep.totals.gross);
  });

  it('by day, by cashier and by status each add up to the totals', () => {
    const sum = (rows: { count: number; gross: string; taxes: string; fees: string; tips: string; discounts: string }[]) =>
      ['gross', 'taxes', 'fees', 'tips', 'discounts']
        .map((k) => formatKoinu(rows.reduce((a, r) => a + K((r as unknown as Record<string, string>)[k]), 0n)))
        .concat(String(rows.reduce((a, r) => a + r.count, 0)));
    const want = ['gross', 'taxes', 'fees', 'tips', 'discounts']
      .map((k): string => (rep.totals as unknown as Record<string, string>)[k])
      .concat(String(rep.totals.count));
    expect(sum(rep.by_day)).toEqual(want);
    expect(sum(rep.by_cashier)).toEqual(want);
    // Three local days, the middle one 25 hours long (the clock goes back on 2026-10-25).
    expect(rep.by_day.map((d) => [d.date, (Date.parse(d.to) - Date.parse(d.from)) / 3_600_000])).toEqual([
      ['2026-10-24', 24],
      ['2026-10-25', 25],
      ['2026-10-26', 24],
    ]);
    for (const d of rep.by_day) {
      const of = seeded.filter((s) => s.status === 'confirmed' && s.createdAt >= new Date(d.from) && s.createdAt < new Date(d.to));
      expect(d.count, d.date).toBe(of.length);
      expect(d.gross, d.date).toBe(formatKoinu(of.reduce((a, s) => a + s.total, 0n)));
      // A sale in a day's first and last local hour lands on that day.
      for (const s of of) expect(s.createdAt.toLocaleDateString('sv-SE', { timeZone: TZ })).toBe(d.date);
    }
    // Every seller is its own bucket: three cashiers, the manager and the API key.
    const names = rep.by_cashier.map((c) => `${c.kind}:${c.name}`).sort();
    expect(names).toEqual(['api_key:API key webshop', 'user:ANA', 'user:BO', 'user:CY', 'user:Mo']);
    for (const c of rep.by_cashier) {
      const key = c.kind === 'user' ? `u:${c.id}` : `k:${c.id}`;
      const of = seeded.filter((s) => inRange(s) && s.status === 'confirmed' && s.creator === key);
      expect(c.count).toBe(of.length);
      expect(c.gross).toBe(formatKoinu(of.reduce((a, s) => a + s.total, 0n)));
    }
  });

  it('fiat: summed exactly per currency; no single figure over mixed currencies', async () => {
    expect(rep.totals.fiat_by_currency.map((f) => f.currency)).toEqual(
      seeded.some((s) => inRange(s) && s.status === 'confirmed' && s.body.fiat_currency === 'EUR') ? ['EUR', 'USD'] : ['USD'],
    );
    const usd = seeded.filter((s) => inRange(s) && s.status === 'confirmed' && s.body.fiat_currency === 'USD');
    const cents = usd.reduce((a, s) => a + BigInt(s.body.fiat_total!.replace('.', '')), 0n);
    const f = rep.totals.fiat_by_currency.find((x) => x.currency === 'USD')!;
    expect(f).toMatchObject({ count: usd.length, gross: `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`, net: f.gross });
    expect(rep.totals.fiat).toBe(rep.totals.fiat_by_currency.length === 1 ? rep.totals.fiat_by_currency[0] : null);
    // One day with USD only has a single fiat figure.
    const day = await salesReport(db, 1, resolveRange({ from: '2026-10-26', to: '2026-10-27', tz: TZ }));
    if (day.totals.fiat_by_currency.length === 1) expect(day.totals.fiat?.currency).toBe('USD');
  });

  it('the CSV has one row per line and sums to the JSON totals, with formula guards', async () => {
    const text = await collect(salesCsv(db, 1, range()));
    const [head, ...rows] = parseCsv(text);
    expect(head).toEqual([...SALES_CSV_COLUMNS]);
    const c = (n: string) => head.indexOf(n);
    const confirmed = rows.filter((r) => r[c('status')] === 'confirmed');
    const sum = (rs: string[][], f: (r: string[]) => bigint) => formatKoinu(rs.reduce((a, r) => a + f(r), 0n));
    expect(sum(confirmed, (r) => K(r[c('line_total')]) + (r[c('tax')] ? K(r[c('tax')]) : 0n))).toBe(rep.totals.gross);
    expect(
      sum(
        confirmed.filter((r) => r[c('line_type')] === 'donation'),
        (r) => K(r[c('line_total')]),
      ),
    ).toBe(rep.totals.tips);
    expect(
      sum(
        confirmed.filter((r) => r[c('line_type')] === 'item'),
        (r) => K(r[c('tax')] || '0'),
      ),
    ).toBe(formatKoinu(rep.by_product.reduce((a, x) => a + K(x.tax), 0n)));
    expect(new Set(confirmed.map((r) => r[c('payment_id')])).size).toBe(rep.totals.count);
    const accepted = rows.filter((r) => r[c('status')] === 'accepted');
    expect(new Set(accepted.map((r) => r[c('payment_id')])).size).toBe(rep.by_status.accepted.count);
    expect(rows.every((r) => ['confirmed', 'accepted'].includes(r[c('status')]))).toBe(true);
    const seededLines = seeded
      .filter((s) => inRange(s) && ['confirmed', 'accepted'].includes(s.status))
      .reduce((a, s) => a + s.body.items.length, 0);
    expect(rows.length).toBe(seededLines);
    // Times in the report's zone, with the offset of the moment (CEST then CET).
    expect(rows.every((r) => /^2026-10-2[4-6]T\d{2}:\d{2}:\d{2}\+0[12]:00$/.test(r[c('time')]))).toBe(true);
    expect(rows.some((r) => r[c('time')].endsWith('+02:00')) && rows.some((r) => r[c('time')].endsWith('+01:00'))).toBe(true);
    // A product named like a formula is written as text.
    const evil = rows.filter((r) => r[c('item_id')] === 'EVIL');
    expect(evil.length).toBeGreaterThan(0);
    for (const r of evil) expect(r[c('name')]).toBe(`'=HYPERLINK("http://x.test","click")`);
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
  });

  it('by_category: item lines by their product\'s category, in the store\'s order, "" for lines with none; the CSV says the same', async () => {
    // Coffee and tea are drinks, cake is food, the mug's product has no category and EVIL has no
    // product at all (an API item whose id is no SKU): both count under "".
    await db.prisma.store.update({ where: { id: 1 }, data: { categories: ['Food', 'Drinks'] } });
    for (const [i, [sku, category]] of [
      ['COF', 'Drinks'],
      ['TEA', 'Drinks'],
      ['CAKE', 'Food'],
      ['MUG', ''],
    ].entries()) {
      await db.prisma.product.create({ data: { id: `cat-${i}`, sku, name: sku, price: 1n, category } });
    }
    const r = await salesReport(db, 1, range());
    const prod = (skus: string[]) => r.by_product.filter((p) => skus.includes(p.id));
    const sumOf = (rows: { count: number; gross: string; tax: string }[]) => ({
      count: rows.reduce((a, x) => a + x.count, 0),
      gross: formatKoinu(rows.reduce((a, x) => a + K(x.gross), 0n)),
      tax: formatKoinu(rows.reduce((a, x) => a + K(x.tax), 0n)),
    });
    expect(r.by_category).toEqual([
      { category: 'Food', ...sumOf(prod(['CAKE'])) },
      { category: 'Drinks', ...sumOf(prod(['COF', 'TEA'])) },
      { category: '', ...sumOf(prod(['MUG', 'EVIL'])) },
    ]);
    expect(r.by_category.every((c) => c.count > 0)).toBe(true);
    // A category not in the store's list comes after the listed ones; the rows still add up.
    await db.prisma.product.update({ where: { storeId_sku: { storeId: 1, sku: 'MUG' } }, data: { category: 'Gifts' } });
    const r2 = await salesReport(db, 1, range());
    expect(r2.by_category.map((c) => c.category)).toEqual(['Food', 'Drinks', 'Gifts', '']);
    expect(r2.by_category[2]).toEqual({ category: 'Gifts', ...sumOf(prod(['MUG'])) });
    expect(sumOf(r2.by_category)).toEqual(sumOf(r2.by_product));
    // A cashier's own report: its own lines only.
    const mine = await salesReport(db, 1, range(), cashiers[0]);
    expect(sumOf(mine.by_category)).toEqual(sumOf(mine.by_product));
    expect(K(sumOf(mine.by_category).gross)).toBeLessThan(K(sumOf(r2.by_category).gross));
    // The CSV's category column: the item line's product's category, "" for any other line.
    const [head, ...rows] = parseCsv(await collect(salesCsv(db, 1, range())));
    const c = (n: string) => head.indexOf(n);
    const want: Record<string, string> = { COF: 'Drinks', TEA: 'Drinks', CAKE: 'Food', MUG: 'Gifts', EVIL: '' };
    for (const row of rows) expect(row[c('category')], row.join(',')).toBe(row[c('line_type')] === 'item' ? want[row[c('item_id')]] : '');
    const confirmedItems = rows.filter((x) => x[c('status')] === 'confirmed' && x[c('line_type')] === 'item');
    for (const cat of r2.by_category) {
      const of = confirmedItems.filter((x) => x[c('category')] === cat.category);
      expect(formatKoinu(of.reduce((a, x) => a + K(x[c('line_total')]), 0n)), cat.category).toBe(cat.gross);
    }
    await db.prisma.product.deleteMany({ where: { id: { startsWith: 'cat-' } } });
  });

  it("a cashier's report holds its own sales only", async () => {
    const mine = await salesReport(db, 1, range(), cashiers[0]);
    expect(mine.scope).toBe('own_sales');
    const own = seeded.filter((s) => inRange(s) && s.creator === `u:${cashiers[0]}`);
    expect(mine.by_cashier.map((c) => c.id)).toEqual([cashiers[0]]);
    expect(mine.totals.gross).toBe(rep.by_cashier.find((c) => c.id === cashiers[0])!.gross);
    expect(mine.totals.count).toBe(own.filter((s) => s.status === 'confirmed').length);
    for (const st of ['unpaid', 'accepted', 'confirmed', 'declined'] as const)
      expect(mine.by_status[st].count).toBe(own.filter((s) => s.status === st).length);
    const csv = parseCsv(await collect(salesCsv(db, 1, range(), cashiers[0])));
    const ids = new Set(csv.slice(1).map((r) => r[0]));
    expect([...ids].every((id) => own.some((s) => s.id === id))).toBe(true);
    expect(csv.slice(1).every((r) => r[2] === 'ANA')).toBe(true);
  });

  it('an empty period has zero days and zero totals', async () => {
    const r = await salesReport(db, 1, resolveRange({ from: '2026-01-01', to: '2026-01-03', tz: TZ }));
    expect(r.totals).toMatchObject({ count: 0, gross: '0', net: '0', tips: '0', fiat: null, fiat_by_currency: [] });
    expect(r.by_day.map((d) => [d.date, d.count, d.gross])).toEqual([
      ['2026-01-01', 0, '0'],
      ['2026-01-02', 0, '0'],
    ]);
    expect(r.by_cashier).toEqual([]);
    expect(r.by_product).toEqual([]);
    expect(r.by_category).toEqual([]);
  });

  it('the store zone defaults to UTC while the store has no timezone setting', async () => {
    const hasColumn =
      (
        await db.prisma.$queryRawUnsafe<{ n: bigint }[]>(
          `SELECT count(*)::bigint AS n FROM information_schema.columns WHERE table_name = 'store' AND column_name = 'timezone'`,
        )
      )[0].n > 0n;
    if (!hasColumn) expect(await storeTimezone(db, 1)).toBe('UTC');
    else {
      await db.prisma.$executeRawUnsafe(`UPDATE "store" SET "timezone" = 'America/Denver' WHERE "id" = 1`);
      expect(await storeTimezone(db, 1)).toBe('America/Denver');
    }
  });
});
