import { json } from '@/lib/api/respond';
import { adminRoute } from '@/lib/api/admin';
import { parseInvoiceFilter, searchInvoices } from '@/lib/backoffice/invoices';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    return json(await searchInvoices(ctx.db, a.user.storeId, parseInvoiceFilter(new URL(req.url).searchParams)));
  });
}
