// Applying the state table (table.ts): the row a payment in a state takes on a trigger given the
// facts, and the status, exception, events, broadcast sub-state and required depth it leaves.
// Pure: no database, no clock.
import type { EventType } from './event-types';
import type { BroadcastState, PaymentException, PaymentState, Trigger } from './states';
import { candidates, type Transition } from './table';

export class IllegalTransitionError extends Error {
  constructor(
    readonly from: string,
    readonly trigger: Trigger,
    readonly detail = '',
  ) {
    super(`no transition from ${from} on ${trigger}${detail ? ` (${detail})` : ''}`);
    this.name = 'IllegalTransitionError';
  }
}

const STICKY = new Set<string>(['marked_settled', 'marked_invalid', 'cancelled', 'double_spent']);

export interface Amounts {
  total: bigint;
  paid: bigint;
}

/** The exception the amounts call for, given whether the money that completed it came late. */
export function amountException(a: Amounts, late: boolean, current: string | null): PaymentException | null {
  // A decision (the merchant's, the vendor's) or a double spend is not replaced by amounts.
  if (current && STICKY.has(current)) return current as PaymentException;
  if (a.paid > 0n && a.paid < a.total) return 'underpaid';
  if (a.paid > a.total) return 'overpaid';
  if (a.paid === a.total) {
    // Reaching the total exactly clears underpaid/overpaid; lateness and reorg history stay.
    if (late || current === 'paid_late') return 'paid_late';
    if (current === 'reorged') return 'reorged';
    return null;
  }
  return current === 'underpaid' || current === 'overpaid' ? null : (current as PaymentException | null);
}

export interface Outcome {
  transition: Transition;
  status: PaymentState;
  exception: string | null;
  events: EventType[];
  reason?: string;
  /** The broadcast sub-state the row is left in, when the transition sets one. */
  broadcast?: BroadcastState;
  /** The confirmations the payment now requires, when the facts gave the policy's depth (`required`). */
  required?: number;
}

export interface Facts {
  /** For chain.paid and relay.accept: the amounts after the change, and before it. */
  amounts?: Amounts & { before: bigint };
  /** A tx that counted was first seen after expires_at. */
  late?: boolean;
  /** relay.accept: the risk policy allows 0-conf for this tx (implied by `required` 0 when given). */
  zeroConf?: boolean;
  /** The confirmations the payment requires by the risk policy (payment.required_confirmations). */
  required?: number;
  /**
   * A tx the payment counts, not yet mined, signals replace-by-fee (BIP125). Such a tx never
   * gets 0-conf, whatever path brought it: the required depth becomes at least 1.
   */
  rbf?: boolean;
  /** chain.confirmations: the required depth is reached. */
  reached?: boolean;
  /** chain.paid: a tx lacking a data output counts, and the txs carrying them do not reach the total. */
  dataMissing?: boolean;
}

/** The depth a payment requires given the facts: never 0 while it relies on a tx that signals RBF. */
export function requiredDepth(f: Pick<Facts, 'required' | 'rbf'>): number | undefined {
  if (f.required === undefined) return undefined;
  return f.rbf ? Math.max(f.required, 1) : f.required;
}

/** 0-conf at acceptance: the policy's depth is 0 and no RBF is signalled. */
function zeroConf(f: Facts): boolean {
  const d = requiredDepth(f);
  return d !== undefined ? d === 0 : (f.zeroConf ?? false) && !f.rbf;
}

function pick(from: string, trigger: Trigger, f: Facts): Transition {
  const c = candidates(from, trigger);
  if (c.length === 0) throw new IllegalTransitionError(from, trigger);
  if (c.length === 1) {
    const only = c[0];
    if (trigger === 'chain.confirmations') {
      if (only.name === 'chain.confirm' && !f.reached) throw new IllegalTransitionError(from, trigger, 'not yet reached');
      if (only.name === 'chain.unconfirm' && f.reached) throw new IllegalTransitionError(from, trigger, 'still reached');
    }
    return only;
  }
  const name = (n: string) =>
    c.find((t) => t.name === n) ??
    (() => {
      throw new IllegalTransitionError(from, trigger, n);
    })();
  if (trigger === 'relay.accept') return name(zeroConf(f) ? 'pay.accept_zero_conf' : 'pay.accept');
  if (trigger === 'chain.paid') {
    const a = f.amounts;
    if (!a) throw new IllegalTransitionError(from, trigger, 'amounts missing');
    if (from === 'accepted') return name(a.paid >= a.total && !f.dataMissing ? 'chain.more_accepted' : 'chain.short_again');
    if (f.dataMissing) return name('chain.data_missing');
    if (a.paid === 0n) return name('chain.nothing');
    if (a.paid < a.total) return name('chain.short');
    return name(f.late ? 'chain.enough_late' : 'chain.enough');
  }
  throw new IllegalTransitionError(from, trigger, 'ambiguous');
}

/** payment.overpaid whenever a tx takes paid above the total (docs/api.md#payments-from-any-wallet). */
export function amountEvents(a: (Amounts & { before: bigint }) | undefined, status: PaymentState): EventType[] {
  if (!a || status === 'declined') return [];
  return a.paid > a.total && a.paid > a.before ? ['payment.overpaid'] : [];
}

/**
 * Applies the table: the next status, exception, events and reason for a payment in `from`
 * moved by `trigger` under `facts`. Throws IllegalTransitionError when the table has no row.
 */
export function transition(from: string, currentException: string | null, trigger: Trigger, facts: Facts = {}): Outcome {
  // The merchant's settlement is final for the chain: neither a recount nor a double spend
  // takes it back (the recount and the double-spend check also skip such payments).
  if (currentException === 'marked_settled' && (trigger === 'chain.confirmations' || trigger === 'chain.double_spend')) {
    throw new IllegalTransitionError(from, trigger, 'settled by the merchant');
  }
  const t = pick(from, trigger, facts);
  let exception: string | null;
  const r = t.exception;
  if ('keep' in r) exception = currentException;
  else if ('set' in r) exception = r.set;
  // With the step's amounts, the exception they leave is the one kept: a reorg that takes an
  // overpaid payment back to exact leaves `reorged`, not the overpaid it no longer is.
  else if ('keepOr' in r)
    exception = (facts.amounts ? amountException(facts.amounts, facts.late ?? false, currentException) : currentException) ?? r.keepOr;
  else {
    const a = facts.amounts;
    exception = a ? amountException(a, facts.late ?? false, currentException) : currentException;
  }
  const events = [...t.events];
  // A short payment's event is emitted for each new tx only (not when a drop leaves it short).
  if ((t.name === 'chain.short' || t.name === 'chain.data_missing') && facts.amounts && facts.amounts.paid <= facts.amounts.before)
    events.length = 0;
  // Short again with the data still missing: the exception says why it is not paid.
  if (t.name === 'chain.short_again' && facts.dataMissing && !STICKY.has(exception ?? '')) exception = 'data_missing';
  if (t.name === 'chain.short_again' && facts.amounts && facts.amounts.paid > 0n) events.push('payment.underpaid');
  for (const e of amountEvents(facts.amounts, t.to)) if (!events.includes(e)) events.push(e);
  const required = requiredDepth(facts);
  return {
    transition: t,
    status: t.to,
    exception,
    events,
    ...(t.reason ? { reason: t.reason } : {}),
    ...(t.broadcast?.to ? { broadcast: t.broadcast.to } : {}),
    ...(required !== undefined ? { required } : {}),
  };
}
