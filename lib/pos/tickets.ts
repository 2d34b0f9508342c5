// Open tickets (docs/counter.md#open-tickets): a sale kept open on the till ("Table 4", a tab at
// the bar) and picked up later by anyone of the store signed in to the till. A ticket is not a
// payment: it holds the till's own cart as JSON until it is charged. A PUT must send back the
// `updated_at` it read, so two cashiers editing one ticket never overwrite each other: the
// second gets 409. A ticket is open until deleted or until a payment charged from it becomes
// accepted or confirmed (payment.ticket_id), which is read, not written, so the payment's one
// writer stays the only one to move a payment.
import { DomainError } from '../errors';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db';
import { isPrintable, UNPRINTABLE_MESSAGE } from '../text';
import { inStore } from '../stores';

export const MAX_TICKET_CART_BYTES = 64 * 1024;

export interface TicketView {
  id: string;
  name: string;
  cart: unknown;
  total: string;
  user: string;
  created_at: string;
  updated_at: string;
}

export class TicketError extends DomainError {
  constructor(code: 'invalid_request' | 'not_found' | 'conflict', field: string, message: string) {
    super(code, field ? `${field}: ${message}` : message, field);
    this.name = 'TicketError';
  }
}

const Name = z
  .string()
  .refine((s) => isPrintable(s), UNPRINTABLE_MESSAGE)
  .pipe(z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters'));
const Total = z
  .string()
  .max(40, 'must be at most 40 characters')
  .regex(/^-?\d{1,20}(\.\d{1,8})?$/, 'must be a decimal amount such as "12.50"');
const Cart = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())], { message: 'must be a JSON object or array' });
const CreateTicket = z.object({ name: Name, cart: Cart, total: Total }).strict();
const UpdateTicket = z.object({ cart: Cart, total: Total, updated_at: z.string().max(40, 'must be the updated_at you read') }).strict();

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new TicketError('invalid_request', 'body', 'a JSON object is required');
  const r = schema.safeParse(body);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = issue?.code === 'unrecognized_keys' ? ((issue as { keys: string[] }).keys[0] ?? '') : String(issue?.path[0] ?? '');
    throw new TicketError(
      'invalid_request',
      field,
      issue?.code === 'unrecognized_keys' ? 'is not a field of a ticket' : (issue?.message ?? 'is invalid'),
    );
  }
  const cart = (r.data as { cart: unknown }).cart;
  if (Buffer.byteLength(JSON.stringify(cart), 'utf8') > MAX_TICKET_CART_BYTES) {
    throw new TicketError('invalid_request', 'cart', `must be at most ${MAX_TICKET_CART_BYTES} bytes of JSON`);
  }
  return r.data;
}

type Row = { id: string; name: string; cart: unknown; total: string; updatedBy: string | null; createdAt: Date; updatedAt: Date };

async function views(db: Db, rows: Row[]): Promise<TicketView[]> {
  const ids = [...new Set(rows.map((r) => r.updatedBy).filter((x): x is string => !!x))];
  const users = ids.length
    ? await db.prisma.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, email: true } })
    : [];
  const names = new Map(users.map((u) => [u.id, u.name || u.email]));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    cart: r.cart,
    total: r.total,
    user: (r.updatedBy && names.get(r.updatedBy)) || '',
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }));
}

/** The ids of tickets a payment charged from them has paid (accepted or confirmed): closed. */
const PAID_SQL = `SELECT DISTINCT ticket_id FROM payment WHERE store_id = $1 AND ticket_id = ANY($2::text[]) AND status IN ('accepted', 'confirmed')`;

async function paidTickets(db: Db, storeId: number, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db.prisma.$queryRawUnsafe<{ ticket_id: string }[]>(PAID_SQL, inStore(storeId).storeId, ids);
  return new Set(rows.map((r) => r.ticket_id));
}

/** The store's open tickets, oldest created first. */
export async function listTickets(db: Db, storeId: number): Promise<TicketView[]> {
  const rows = await db.prisma.posTicket.findMany({
    where: { closedAt: null, ...inStore(storeId) },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: 500,
  });
  const paid = await paidTickets(
    db,
    storeId,
    rows.map((r) => r.id),
  );
  return views(
    db,
    rows.filter((r) => !paid.has(r.id)),
  );
}

/** One of the store's open tickets, or null (unknown, another store's, deleted, or paid). */
export async function openTicket(db: Db, storeId: number, id: string): Promise<Row | null> {
  if (typeof id !== 'string' || id.length > 64) return null;
  const row = await db.prisma.posTicket.findFirst({ where: { id, closedAt: null, ...inStore(storeId) } });
  if (!row || (await paidTickets(db, storeId, [id])).size) return null;
  return row;
}

export async function createTicket(db: Db, storeId: number, userId: string, body: unknown): Promise<TicketView> {
  const p = parse(CreateTicket, body);
  const now = new Date();
  const row = await db.prisma.posTicket.create({
    data: {
      id: 'tk_' + randomBytes(12).toString('base64url'),
      ...inStore(storeId),
      name: p.name,
      cart: p.cart as object,
      total: p.total,
      createdBy: userId,
      updatedBy: userId,
      createdAt: now,
      updatedAt: now,
    },
  });
  return (await views(db, [row]))[0]!;
}

/** Replaces the cart when `updated_at` is the version read; 409 when it changed since, 404 when it is not open. */
export async function updateTicket(db: Db, storeId: number, userId: string, id: string, body: unknown): Promise<TicketView> {
  const p = parse(UpdateTicket, body);
  const current = await openTicket(db, storeId, id);
  if (!current) throw new TicketError('not_found', '', 'no open ticket with this id');
  const read = new Date(p.updated_at);
  if (Number.isNaN(read.getTime()) || read.toISOString() !== p.updated_at) {
    throw new TicketError('conflict', 'updated_at', 'the ticket changed since you read it: open it again');
  }
  // The next version is later than the one read, by a millisecond at least, so it always differs.
  const next = new Date(Math.max(Date.now(), current.updatedAt.getTime() + 1));
  const u = await db.prisma.posTicket.updateMany({
    where: { id, closedAt: null, updatedAt: read, ...inStore(storeId) },
    data: { cart: p.cart as object, total: p.total, updatedBy: userId, updatedAt: next },
  });
  if (u.count !== 1) throw new TicketError('conflict', 'updated_at', 'the ticket changed since you read it: open it again');
  const row = await db.prisma.posTicket.findFirstOrThrow({ where: { id, ...inStore(storeId) } });
  return (await views(db, [row]))[0]!;
}

export async function deleteTicket(db: Db, storeId: number, id: string): Promise<void> {
  if (id.length > 64) throw new TicketError('not_found', '', 'no open ticket with this id');
  const u = await db.prisma.posTicket.updateMany({ where: { id, closedAt: null, ...inStore(storeId) }, data: { closedAt: new Date() } });
  if (u.count !== 1) throw new TicketError('not_found', '', 'no open ticket with this id');
}
