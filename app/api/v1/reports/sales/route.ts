import { appContext } from '@/lib/app-context';
import { handle, json, NO_STORE, oneOf, queryParam, reportAccess } from '@/lib/api';
import { InvalidRequestError } from '@/lib/errors';
import { resolveRange, salesCsv, salesReport, storeTimezone } from '@/lib/reports';

export const dynamic = 'force-dynamic';

// GET /api/v1/reports/sales?from=&to=&tz=&format=json|csv&mine=1 (docs/using-counter.md#reports-and-receipts).
export function GET(req: Request) {
  return handle(
    async () => {
      const ctx = await appContext();
      const params = new URL(req.url).searchParams;
      const mine = params.get('mine');
      if (mine !== null && mine !== '1' && mine !== 'true') throw new InvalidRequestError('mine', 'must be 1 or absent');
      const auth = await reportAccess(ctx.db, req, mine !== null);
      if (!auth.ok) return auth.response;
      const format = queryParam(req, 'format', oneOf(['json', 'csv'], 'json'));
      const tz = params.get('tz') || (await storeTimezone(ctx.db, auth.storeId));
      const range = resolveRange({ from: params.get('from'), to: params.get('to'), tz });
      if (format === 'json') return json(await salesReport(ctx.db, auth.storeId, range, auth.ownSalesOf));
      const gen = salesCsv(ctx.db, auth.storeId, range, auth.ownSalesOf);
      const enc = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          const n = await gen.next();
          if (n.done) c.close();
          else c.enqueue(enc.encode(n.value));
        },
        async cancel() {
          await gen.return(undefined);
        },
      });
      const name = `sales-${range.days[0]?.date ?? 'period'}-${range.days[range.days.length - 1]?.date ?? ''}.csv`;
      return new Response(body, {
        headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}"`, ...NO_STORE },
      });
    },
    { req },
  );
}
