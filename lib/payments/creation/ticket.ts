// Charging an open ticket (docs/counter.md#open-tickets): `"ticket_id"` on POST /api/v1/payments
// names the ticket the sale comes from. The payment's order_reference is then the ticket's name,
// and the payment keeps the ticket's id (payment.ticket_id): the ticket reads as closed once that
// payment is accepted or confirmed. An unknown, deleted or already paid ticket is 400 naming
// ticket_id.
import type { Db } from '../../db';
import { InvalidRequestError } from '../../errors';
import { inStore } from '../../stores';

export interface SaleTicket {
  id: string;
  name: string;
}

/** The open ticket a request names, or null when it names none. */
export async function ticketOfRequest(db: Db, storeId: number, body: unknown): Promise<SaleTicket | null> {
  const raw = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).ticket_id : undefined;
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string' || raw.length < 1 || raw.length > 64)
    throw new InvalidRequestError('ticket_id', 'must be the id of an open ticket');
  const row = await db.prisma.posTicket.findFirst({
    where: { id: raw, closedAt: null, ...inStore(storeId) },
    select: { id: true, name: true },
  });
  const paid = row
    ? await db.prisma.payment.count({ where: { ticketId: row.id, ...inStore(storeId), status: { in: ['accepted', 'confirmed'] } } })
    : 0;
  if (!row || paid > 0) throw new InvalidRequestError('ticket_id', 'no open ticket has this id (it may have been paid or deleted)');
  return { id: row.id, name: row.name };
}

/** The request with the ticket's name as its order_reference, and without ticket_id (the row keeps it). */
export function withTicket(body: unknown, ticket: SaleTicket | null): unknown {
  if (!ticket || !body || typeof body !== 'object') return body;
  const { ticket_id: _t, ...rest } = body as Record<string, unknown>;
  return { ...rest, order_reference: ticket.name };
}
