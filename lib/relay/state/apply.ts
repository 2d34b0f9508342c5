// Writes a transition of the table (table.ts) to one payment row, with its events, inside the
// caller's database transaction. The write is guarded by the status the decision was taken
// from (and any extra guard the caller adds), so a concurrent change makes it a no-op.
import type { Prisma } from '../../db/client';
import type { Prisma as P } from '../../db/generated/client';
import { recordEvent } from '../events';
import { withRefundsOne } from '../../refunds/load';
import type { PaymentRow } from '../payment-view';
import { transition, type Facts, type Outcome, type Trigger } from './table';

type Tx = Pick<Prisma, 'payment' | 'vendorEvent'>;

export interface ApplyInput {
  /** The row the decision is taken from (its status and exception). */
  row: { id: string; status: string; exception: string | null };
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

/** The columns a move into `to` sets, whatever moved it. */
function stateColumns(from: string, o: Outcome, now: Date): P.PaymentUpdateManyMutationInput {
  const d: P.PaymentUpdateManyMutationInput = { status: o.status, exception: o.exception, updatedAt: now };
  if (o.status === from) return d;
  if (o.status === 'accepted' && from === 'unpaid') Object.assign(d, { acceptedAt: now, broadcastState: 'sent' });
  if (o.status === 'accepted' && from === 'confirmed') d.confirmedAt = null;
  // Short again (chain.short_again): payable again, by any wallet or through /pay.
  if (o.status === 'unpaid' && from === 'accepted') Object.assign(d, { acceptedAt: null, broadcastState: 'none', confirmations: 0 });
  if (o.status === 'confirmed') {
    d.confirmedAt = now;
    if (from === 'unpaid') Object.assign(d, { acceptedAt: now });
  }
  if (o.status === 'declined') Object.assign(d, { declinedAt: now, reason: o.reason ?? 'declined' });
  return d;
}

/**
 * Decides with the table and writes the change and its events. Returns null when the row no
 * longer matches (another writer moved it first). Throws IllegalTransitionError when the table
 * has no such transition.
 */
export async function applyTransition(t: Tx, a: ApplyInput): Promise<Applied | null> {
  const outcome = transition(a.row.status, a.row.exception, a.trigger, a.facts);
  const data = { ...(a.data ?? {}), ...stateColumns(a.row.status, outcome, a.now) };
  const u = await t.payment.updateMany({ where: { ...(a.guard ?? {}), id: a.row.id, status: a.row.status }, data });
  if (u.count !== 1) return null;
  let fresh: Applied['row'] = await t.payment.findUniqueOrThrow({ where: { id: a.row.id } });
  // A payment body lists its refunds (DESIGN.md §13); only money paid can have been refunded.
  if (outcome.events.length && fresh.refundOf === null && (fresh.amountPaid ?? 0n) > 0n) fresh = await withRefundsOne(t, fresh);
  for (const type of outcome.events) await recordEvent(t, type, fresh, a.publicUrl, a.now);
  return { outcome, row: fresh };
}

/** Runs a transition that must not change the status (recounted confirmations...): plain columns only. */
export async function updateWithoutTransition(t: Tx, id: string, status: string, data: P.PaymentUpdateManyMutationInput): Promise<boolean> {
  if ('status' in data) throw new Error('a status change goes through applyTransition');
  const u = await t.payment.updateMany({ where: { id, status }, data });
  return u.count === 1;
}
