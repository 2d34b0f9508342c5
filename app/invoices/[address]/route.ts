import { vendorRoute, json } from '@/lib/api';
import { forbidden } from '@/lib/errors';
import { listInvoices, parseInvoiceQuery } from '@/lib/invoices';

export const dynamic = 'force-dynamic';

// docs/using-counter.md#the-back-office-admin-and-the-invoice-listing: an API key with invoices:read, or an owner session.
export function GET(req: Request, { params }: { params: Promise<{ address: string }> }) {
  return vendorRoute(req, 'invoices:read', async (ctx, auth) => {
    if (auth.kind === 'session' && auth.user.role !== 'owner')
      throw forbidden('the invoice listing needs an owner session or an API key with invoices:read');
    const { address } = await params;
    const q = parseInvoiceQuery(address, new URL(req.url).searchParams, ctx.network);
    return json(await listInvoices(ctx.db, ctx.network, auth.storeId, address, q));
  });
}
