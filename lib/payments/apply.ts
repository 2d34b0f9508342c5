// Writes a transition of the table (table.ts) to one payment row, with its events, inside the
// caller's database transaction. The write is guarded by the status the decision was taken
// from, by the broadcast sub-state the table row requires (and any extra guard the caller
// adds), so a concurrent change makes it a no-op.
import type { Prisma } from '../db';
import type { Prisma as P } from '../db/generated/client';
import { eventBody, eventTypeFor, newEventId, recordEvent, type EventRow, type EventType } from './events';
import { withRefundsOne } from './refunds-of';
import type { PaymentRow } from './view';
import type { Trigger } from './states';
import { transition, type Facts, type Outcome } from './transition';
import { stockOfTransition } from './stock';

type Tx = Pick<Prisma, 'payment' | 'vendorEvent' | '$queryRawUnsafe'>;

export interface ApplyInput {
  /** The row the decision is taken from (its status and exception, and broadcast sub-state when it has one). */
  row: { id: string; status: string; exception: string | null; broadcastState?: string };
  trigger: Trigger;
  facts?: Facts;
  /** More columns to write with the change (amounts, confirmations, decision...). */
  data?: P.PaymentUpdateManyMutationInput;
  /** More conditions the row must still meet. */
  guard?: P.PaymentWhereInput;
  publicUrl: string;
  now: Date;
}

export interface Applied {
  outcome: Outcome;
  row: PaymentRow & Record<string, unknown>;
}

/** The columns a transition sets, whatever wrote it (applyTransition, or the /pay statement in accept-sql.ts). */
export function stateColumns(from: string, o: Outcome, now: Date) {
  const d: {
    status: string;
    exception: string | null;
    updatedAt: Date;
    broadcastState?: string;
    requiredConfirmations?: number;
    acceptedAt?: Date | null;
    confirmedAt?: Date | null;
    declinedAt?: Date;
    reason?: string;
    confirmations?: number;
    expiredAt?: Date;
  } = { status: o.status, exception: o.exception, updatedAt: now };
  if (o.broadcast) d.broadcastState = o.broadcast;
  if (o.required !== undefined) d.requiredConfirmations = o.required;
  if (o.transition.name === 'timer.expired') d.expiredAt = now;
  if (o.status === from) return d;
  if (o.status === 'accepted' && from === 'unpaid') d.acceptedAt = now;
  if (o.status === 'accepted' && from === 'confirmed') d.confirmedAt = null;
  // Short again (chain.short_again): payable again, by any wallet or through /pay.
  if (o.status === 'unpaid' && from === 'accepted') Object.assign(d, { acceptedAt: null, confirmations: 0 });
  if (o.status === 'confirmed') {
    d.confirmedAt = now;
    if (from === 'unpaid') d.acceptedAt = now;
  }
  if (o.status === 'declined') Object.assign(d, { declinedAt: now, reason: o.reason ?? 'declined' });
  return d;
}

/**
 * The row as every event body shows it: with its refunds when money had been paid before the
 * transition (only money paid can have been refunded, so the /pay hot path, paying an untouched
 * payment, reads nothing more).
 */
export async function eventRow<T extends EventRow & { refundOf?: string | null }>(
  t: Pick<Prisma, 'payment'>,
  row: T,
  paidBefore: bigint,
): Promise<T> {
  if (row.refundOf || paidBefore === 0n || row.refunds) return row;
  return withRefundsOne(t, row);
}

/** The vendor events of a transition, with their ids and bodies (a refund reports refund.* only). */
export function eventRows(row: EventRow, types: readonly EventType[], publicUrl: string, now: Date) {
  return types.flatMap((type) => {
    const t = eventTypeFor(row, type);
    if (t === null) return [];
    const id = newEventId();
    return [{ id, type: t, body: eventBody(id, t, row, publicUrl, now) }];
  });
}

/**
 * Decides with the table and writes the change and its events. Returns null when the row no
 * longer matches (another writer moved it first). Throws IllegalTransitionError when the table
 * has no such transition.
 */
export async function applyTransition(t: Tx, a: ApplyInput): Promise<Applied | null> {
  const outcome = transition(a.row.status, a.row.exception, a.trigger, a.facts);
  const data = { ...(a.data ?? {}), ...stateColumns(a.row.status, outcome, a.now) };
  const need = outcome.transition.broadcast?.from;
  const where: P.PaymentWhereInput = { ...(a.guard ?? {}), id: a.row.id, status: a.row.status, ...(need ? { broadcastState: need } : {}) };
  const u = await t.payment.updateMany({ where, data });
  if (u.count !== 1) return null;
  await stockOfTransition(t, outcome.transition, a.row.id, a.now);
  let fresh: Applied['row'] = await t.payment.findUniqueOrThrow({ where: { id: a.row.id } });
  if (outcome.events.length) fresh = await eventRow(t, fresh, fresh.amountPaid ?? 0n);
  for (const type of outcome.events) await recordEvent(t, type, fresh, a.publicUrl, a.now);
  return { outcome, row: fresh };
}

/** Runs a transition that must not change the status (recounted confirmations...): plain columns only. */
export async function updateWithoutTransition(t: Tx, id: string, status: string, data: P.PaymentUpdateManyMutationInput): Promise<boolean> {
  if ('status' in data || 'broadcastState' in data) throw new Error('a status or broadcast change goes through applyTransition');
  const u = await t.payment.updateMany({ where: { id, status }, data });
  return u.count === 1;
}
