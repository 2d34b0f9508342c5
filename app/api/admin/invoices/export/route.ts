import { json } from '@/lib/api/respond';
import { adminRoute } from '@/lib/api/admin';
import { jsonError, NO_STORE } from '@/lib/api/respond';
import { exportInvoicesCsv, exportInvoicesJson, parseInvoiceFilter } from '@/lib/backoffice/invoices';
import { storeZone } from '@/lib/receipts/receipt';

export const dynamic = 'force-dynamic';

// CSV or JSON export of the invoices matching the filters (status, from, to, q).
export function GET(req: Request) {
  return adminRoute(req, 'manager', async (ctx) => {
    const params = new URL(req.url).searchParams;
    const format = params.get('format') ?? 'csv';
    params.delete('cursor');
    params.delete('limit');
    const f = parseInvoiceFilter(params);
    const stamp = new Date().toISOString().slice(0, 10);
    if (format === 'csv') {
      return new Response(await exportInvoicesCsv(ctx.db, f, new Date(), await storeZone(ctx.db)), {
        headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="invoices-${stamp}.csv"`, ...NO_STORE },
      });
    }
    if (format === 'json') {
      return json({ invoices: await exportInvoicesJson(ctx.db, f, ctx.cfg.publicUrl) }, 200, { 'Content-Disposition': `attachment; filename="invoices-${stamp}.json"` });
    }
    return jsonError(400, 'invalid_request', 'format: must be csv or json');
  });
}
