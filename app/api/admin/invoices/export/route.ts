import { json, adminRoute, NO_STORE, oneOf, queryParam } from '@/lib/api';
import { exportInvoicesCsv, exportInvoicesJson, parseInvoiceFilter } from '@/lib/backoffice';
import { storeZone } from '@/lib/receipts';

export const dynamic = 'force-dynamic';

// CSV or JSON export of the invoices matching the filters (status, from, to, q).
export function GET(req: Request) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    const params = new URL(req.url).searchParams;
    params.delete('cursor');
    params.delete('limit');
    const f = parseInvoiceFilter(params);
    const format = queryParam(req, 'format', oneOf(['csv', 'json'], 'csv'));
    const stamp = new Date().toISOString().slice(0, 10);
    if (format === 'csv') {
      return new Response(await exportInvoicesCsv(ctx.db, a.user.storeId, f, new Date(), await storeZone(ctx.db, a.user.storeId)), {
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="invoices-${stamp}.csv"`,
          ...NO_STORE,
        },
      });
    }
    return json({ invoices: await exportInvoicesJson(ctx.db, a.user.storeId, f, ctx.cfg.publicUrl) }, 200, {
      'Content-Disposition': `attachment; filename="invoices-${stamp}.json"`,
    });
  });
}
