// One open ticket (docs/counter.md#open-tickets): PUT replaces its cart (409 when it changed since
// the caller read it), DELETE closes it. Any till user of the store; API keys have none.
import { vendorRoute, ticketCall } from '@/lib/api';
import { deleteTicket, updateTicket } from '@/lib/pos';

export const dynamic = 'force-dynamic';

export function PUT(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return vendorRoute(req, 'payments:write', async (ctx, auth) => {
    const { id } = await params;
    return ticketCall(req, auth, async (user, body) => ({ status: 200, body: await updateTicket(ctx.db, auth.storeId, user, id, body) }));
  });
}

export function DELETE(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return vendorRoute(req, 'payments:write', async (ctx, auth) => {
    const { id } = await params;
    return ticketCall(
      req,
      auth,
      async () => {
        await deleteTicket(ctx.db, auth.storeId, id);
        return { status: 204, body: null };
      },
      false,
    );
  });
}
