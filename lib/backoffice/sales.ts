// Sales per day for the back-office chart: paid (accepted or confirmed) payments grouped by
// day in the store's time zone over the last N days, zero-filled, plus a pure SVG layout for a server-rendered chart.
import { storeIdOf } from '../stores';
import type { Db } from '../db';
import { formatKoinu } from '../money';
import { localDate, startOfLocalDay } from '../time';

export interface SalesDay {
  day: string; // YYYY-MM-DD in the store's zone
  count: number;
  total: string; // DOGE
  totalKoinu: bigint;
}

export async function salesPerDay(db: Db, storeId: number, days = 30, now = new Date(), tz = 'UTC'): Promise<SalesDay[]> {
  const n = Math.max(1, Math.min(366, Math.floor(days)));
  // the local day n-1 days before today (12 h of slack absorbs DST's 23- and 25-hour days)
  const start = startOfLocalDay(new Date(startOfLocalDay(now, tz).getTime() - (n - 1) * 86_400_000 + 12 * 3_600_000), tz);
  const rows = await db.prisma.$queryRaw<{ day: string; count: bigint; total: bigint | string | null }[]>`
    SELECT to_char("created_at" AT TIME ZONE ${tz}::text, 'YYYY-MM-DD') AS day,
           count(*)::bigint AS count, sum("total")::bigint AS total
      FROM "payment"
     WHERE "store_id" = ${storeIdOf(storeId)} AND "created_at" >= ${start} AND "status" IN ('accepted', 'confirmed') AND "refund_of" IS NULL
     GROUP BY 1`;
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const out: SalesDay[] = [];
  for (let i = 0; i < n; i++) {
    const day = localDate(new Date(start.getTime() + i * 86_400_000 + 12 * 3_600_000), tz);
    const r = byDay.get(day);
    const totalKoinu = r?.total === null || r?.total === undefined ? 0n : BigInt(r.total);
    out.push({ day, count: r ? Number(r.count) : 0, total: formatKoinu(totalKoinu), totalKoinu });
  }
  return out;
}

export interface ChartBar {
  x: number;
  y: number;
  width: number;
  height: number;
  day: string;
  label: string;
}

/** Bar geometry in a width×height box (pure; the page draws it as SVG). */
export function chartBars(days: SalesDay[], width: number, height: number, pad = 4): { bars: ChartBar[]; max: bigint } {
  const max = days.reduce((m, d) => (d.totalKoinu > m ? d.totalKoinu : m), 0n);
  const slot = width / Math.max(1, days.length);
  const bars = days.map((d, i) => {
    const h = max === 0n ? 0 : (Number((d.totalKoinu * 10_000n) / max) / 10_000) * (height - pad);
    return {
      x: i * slot + slot * 0.15,
      y: height - h,
      width: slot * 0.7,
      height: h,
      day: d.day,
      label: `${d.day}: ${d.total} DOGE in ${d.count} sale${d.count === 1 ? '' : 's'}`,
    };
  });
  return { bars, max };
}
