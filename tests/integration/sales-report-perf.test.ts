// The sales report over many payments in one period on PGlite (docs/using-counter.md#reports-and-receipts): aggregated in
// SQL, so the report and its CSV cover every payment. The times are logged, not asserted.
// npm test uses 10,000 payments (the same SQL paths, a fraction of the time); REPORT_PERF_N=100000
// runs the full-scale check (about 2 minutes on 2 cores).
import { describe, expect, it } from 'vitest';
import { openTestDb } from '../helpers/stores';
import { MAINNET } from '@/lib/doge';
import { createPayment } from '@/lib/payments/creation/create-payment';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { createUser } from '@/lib/auth';
import { paymentBody } from '@/lib/pos/cart';
import { formatKoinu } from '@/lib/money';
import { resolveRange, salesReport, salesCsv } from '@/lib/reports';
import { DGUB } from '../helpers/keys';

const URL_BASE = 'http://127.0.0.1:1';

describe(`${Number(process.env.REPORT_PERF_N ?? 10_000).toLocaleString('en')} payments in one period`, () => {
  it('are aggregated in SQL: the report and its CSV cover them all', async () => {
    const big = await openTestDb();
    try {
      await big.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: DGUB }, create: { id: 1, storeXpub: DGUB } });
      await activeRelayKey(big, 1);
      const u = await createUser(big, { storeId: 1, email: 'big@shop.test', password: 'long enough password 1', role: 'cashier' });
      const tpl = await createPayment(
        { storeId: 1, db: big, network: MAINNET, publicUrl: URL_BASE, apiKeyId: null, userId: u.id, idempotencyKey: null },
        JSON.stringify(
          paymentBody(
            [{ key: 'c', sku: 'COF', name: 'Coffee', unit: 250_000_000n, count: 2, taxRateBp: 700 }],
            { fee: 0n, shipping: 0n, discount: 0n, tip: 10_000_000n },
            { rate: '', currency: '' },
          ),
        ),
      );
      const id = (tpl.body as { id: string }).id;
      const N = Number(process.env.REPORT_PERF_N ?? 10_000);
      const cols = (
        await big.prisma.$queryRawUnsafe<{ c: string }[]>(
          `SELECT column_name AS c FROM information_schema.columns WHERE table_name = 'payment' AND column_name NOT IN ('id', 'seq', 'status', 'created_at', 'address')`,
        )
      ).map((r) => `"${r.c}"`);
      await big.prisma.$executeRawUnsafe(
        `INSERT INTO "payment" ("id", "status", "created_at", "address", ${cols.join(', ')})
         SELECT 'perf' || g, CASE WHEN g % 10 = 0 THEN 'accepted' ELSE 'confirmed' END, timestamptz '2026-06-01 00:00:00+00' + (g * interval '25 seconds'), 'addr' || g,
                ${cols.map((c) => (c === '"envelope"' ? `'-'` : c === '"confirmations"' ? 't."required_confirmations"' : `t.${c}`)).join(', ')}
           FROM generate_series(1, ${N}) g, "payment" t WHERE t."id" = $1`,
        id,
      );
      await big.prisma.$executeRawUnsafe(
        `INSERT INTO "payment_line" ("payment_id", "idx", "type", "item_id", "name", "description", "icon", "count", "unit", "total", "tax")
         SELECT 'perf' || g, l."idx", l."type", l."item_id", l."name", l."description", l."icon", l."count", l."unit", l."total", l."tax"
           FROM generate_series(1, ${N}) g, "payment_line" l WHERE l."payment_id" = $1`,
        id,
      );
      await big.prisma.$executeRawUnsafe(`DELETE FROM "payment" WHERE "id" = $1`, id);
      let t0 = Date.now();
      const r = await salesReport(big, 1, resolveRange({ from: '2026-06-01', to: '2026-07-01', tz: 'UTC' }));
      console.log(`report over ${N} payments: ${Date.now() - t0} ms`); // informative only; not asserted
      t0 = Date.now();
      const sales = BigInt(N - Math.floor(N / 10));
      expect(r.totals.count).toBe(Number(sales));
      expect(r.totals.gross).toBe(formatKoinu(sales * (500_000_000n + 35_000_000n + 10_000_000n)));
      expect(r.totals.tips).toBe(formatKoinu(sales * 10_000_000n));
      expect(r.by_product).toEqual([
        {
          id: 'COF',
          name: 'Coffee',
          count: 2 * Number(sales),
          gross: formatKoinu(sales * 500_000_000n),
          tax: formatKoinu(sales * 35_000_000n),
          options: [],
        },
      ]);
      expect(r.by_status.accepted.count).toBe(Math.floor(N / 10));
      expect(r.by_day.length).toBe(30);
      expect(r.by_day.reduce((a, d) => a + d.count, 0)).toBe(Number(sales));
      let rows = -1;
      for await (const chunk of salesCsv(big, 1, resolveRange({ from: '2026-06-01', to: '2026-07-01', tz: 'UTC' })))
        rows += chunk.split('\r\n').length - 1;
      console.log(`CSV over ${N} payments: ${Date.now() - t0} ms`);
      expect(rows).toBe(2 * N);
    } finally {
      await big.close();
    }
  }, 600_000);
});
