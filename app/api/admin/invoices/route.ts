import { json, adminRoute } from '@/lib/api';
import { parseInvoiceFilter, searchInvoices } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    return json(await searchInvoices(ctx.db, a.user.storeId, parseInvoiceFilter(new URL(req.url).searchParams)));
  });
}
