// Open tickets (docs/counter.md#open-tickets): GET lists the open ones, oldest first; POST saves
// a sale as a ticket. Any till user of the store (a password or PIN session); API keys have none.
import { vendorRoute, ticketCall } from '@/lib/api';
import { createTicket, listTickets } from '@/lib/pos';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return vendorRoute(req, 'payments:write', (ctx, auth) =>
    ticketCall(req, auth, async () => ({ status: 200, body: { tickets: await listTickets(ctx.db, auth.storeId) } })),
  );
}

export function POST(req: Request) {
  return vendorRoute(req, 'payments:write', (ctx, auth) =>
    ticketCall(req, auth, async (user, body) => ({ status: 201, body: await createTicket(ctx.db, auth.storeId, user, body) })),
  );
}
