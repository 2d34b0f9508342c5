// Every transition of a payment, in one table shaped like the spec's section 3: state, what
// moves it, condition, next state, events, and the /pay broadcast sub-state (broadcast_state:
// none → pending → sent, or back to none). The relay, the worker, the vendor API and the back
// office all go through `transition()`; only lib/payments writes the payment tables
// (tests/unit/one-writer.test.ts, docs/architecture.md). Pure: no database, no clock.
import type { EventType } from './event-types';

export const STATES = ['unpaid', 'accepted', 'confirmed', 'declined'] as const;
export type PaymentState = (typeof STATES)[number];

export const EXCEPTIONS = [
  'paid_late',
  'reorged',
  'cancelled',
  'underpaid',
  'overpaid',
  'double_spent',
  'data_missing',
  'marked_settled',
  'marked_invalid',
] as const;
export type PaymentException = (typeof EXCEPTIONS)[number];

/** The /pay broadcast sub-state of an unpaid payment (payment.broadcast_state). */
export const BROADCAST_STATES = ['none', 'pending', 'sent'] as const;
export type BroadcastState = (typeof BROADCAST_STATES)[number];

export type Trigger =
  | 'relay.claim' // a /pay submission takes the payment to broadcast its tx
  | 'relay.release' // the network refused the claimed tx, or the backend was unreachable
  | 'relay.accept' // a /pay submission the network accepted
  | 'chain.paid' // a tx paying the address was seen (mempool or block), or one was dropped
  | 'chain.confirmations' // the worker recounted confirmations
  | 'chain.double_spend' // a tx the payment relied on was conflicted by a tx mined in a block
  | 'timer.expiry' // the payment's timeout passed
  | 'vendor.cancel' // POST /api/v1/payments/<id>/cancel
  | 'merchant.mark_settled' // POST /api/v1/payments/<id>/mark {"as":"settled"}
  | 'merchant.mark_invalid' // POST /api/v1/payments/<id>/mark {"as":"invalid"}
  | 'till.cash'; // a cash sale, recorded paid as it is created (docs/counter.md#cash)

/** How the exception column changes: kept, set, or derived from the amounts (`amountException`). */
export type ExceptionRule = { keep: true } | { set: PaymentException | null } | { fromAmounts: true } | { keepOr: PaymentException };

export interface Transition {
  /** Stable name, for logs and tests. */
  name: string;
  from: PaymentState;
  trigger: Trigger;
  condition: string;
  to: PaymentState;
  exception: ExceptionRule;
  events: readonly EventType[];
  /** The reason shown to wallets and the vendor, for transitions into declined. */
  reason?: string;
  /**
   * The broadcast sub-state: `from`, the one the row must be in (any when absent); `to`, the one
   * it is left in (unchanged when absent).
   */
  broadcast?: { from?: BroadcastState; to?: BroadcastState };
  /**
   * What the transition does to the stock of the sale's products (docs/catalog.md#stock):
   * `take` when the payment first becomes paid, `return` when it is declined. Idempotent
   * (lib/stock/sale.ts), so a row that may follow an earlier `take` (paid again after
   * chain.short_again) takes nothing twice, and a `return` with nothing taken returns nothing.
   */
  stock?: StockEffect;
}

export type StockEffect = 'take' | 'return';

const T = (
  name: string,
  from: PaymentState,
  trigger: Trigger,
  condition: string,
  to: PaymentState,
  exception: ExceptionRule,
  events: readonly EventType[],
  reason?: string,
  broadcast?: Transition['broadcast'],
): Transition => ({
  name,
  from,
  trigger,
  condition,
  to,
  exception,
  events,
  ...(reason ? { reason } : {}),
  ...(broadcast ? { broadcast } : {}),
  // Stock (docs/catalog.md#stock): taken when an unpaid payment becomes paid, given back when
  // any payment is declined.
  ...(from === 'unpaid' && (to === 'accepted' || to === 'confirmed') ? { stock: 'take' as const } : {}),
  ...(to === 'declined' && from !== 'declined' ? { stock: 'return' as const } : {}),
});

const AMOUNTS = { fromAmounts: true } as const;
const KEEP = { keep: true } as const;
const FREE = { from: 'none' } as const; // no /pay broadcast pending

/**
 * The table. "paid" is amount_paid, the sum of every output to the payment's address over every
 * tx that pays it (mempool and chain); "late" is a tx first seen after expires_at.
 *
 * Events listed here are the ones the transition always emits; `payment.overpaid` is added by
 * `amountEvents()` whenever a tx takes paid above the total (in any state).
 */
export const TRANSITIONS: readonly Transition[] = [
  // /pay: one submission at a time claims the payment, broadcasts, and is accepted or released
  T('pay.claim', 'unpaid', 'relay.claim', 'no /pay broadcast pending', 'unpaid', KEEP, [], undefined, { from: 'none', to: 'pending' }),
  T(
    'pay.release',
    'unpaid',
    'relay.release',
    'the network refused the claimed tx, or the backend was unreachable',
    'unpaid',
    KEEP,
    [],
    undefined,
    { from: 'pending', to: 'none' },
  ),
  T(
    'pay.accept',
    'unpaid',
    'relay.accept',
    'network accepts the tx; policy requires ≥ 1 confirmation',
    'accepted',
    AMOUNTS,
    ['payment.accepted'],
    undefined,
    { from: 'pending', to: 'sent' },
  ),
  T(
    'pay.accept_zero_conf',
    'unpaid',
    'relay.accept',
    'network accepts the tx; policy deems it low risk (0-conf, never RBF)',
    'confirmed',
    AMOUNTS,
    ['payment.accepted', 'payment.confirmed'],
    undefined,
    { from: 'pending', to: 'sent' },
  ),
  // Plain-wallet payments (§12)
  T('chain.short', 'unpaid', 'chain.paid', '0 < paid < total', 'unpaid', { set: 'underpaid' }, ['payment.underpaid']),
  // Data not committed: money reached the address in a tx lacking a data output the payment asks
  // for. It counts in paid, but only the txs carrying every data output can make it accepted.
  T(
    'chain.data_missing',
    'unpaid',
    'chain.paid',
    'a tx lacking a data output paid the address; the txs carrying them do not reach the total',
    'unpaid',
    { set: 'data_missing' },
    ['payment.data_missing'],
  ),
  T('chain.nothing', 'unpaid', 'chain.paid', 'paid = 0 (the only txs were dropped)', 'unpaid', { set: null }, []),
  T('chain.enough', 'unpaid', 'chain.paid', 'paid ≥ total, before expires_at', 'accepted', AMOUNTS, ['payment.accepted'], undefined, {
    to: 'sent',
  }),
  T(
    'chain.enough_late',
    'unpaid',
    'chain.paid',
    'paid ≥ total, a tx seen after expires_at',
    'accepted',
    { set: 'paid_late' },
    ['payment.paid_late'],
    undefined,
    { to: 'sent' },
  ),
  T('chain.more_accepted', 'accepted', 'chain.paid', 'paid ≥ total (a further tx, or an unneeded tx dropped)', 'accepted', AMOUNTS, []),
  // A tx it needed left the node's mempool unmined and unconflicted (a node drops the txs of a
  // reorged block past its ancestor limit, or forgets its mempool): that money is in neither the
  // mempool nor the chain, so the payment is short again and payable (payment.underpaid as well
  // when something is left).
  T(
    'chain.short_again',
    'accepted',
    'chain.paid',
    'paid < total: a needed tx left the mempool unmined, without a conflict',
    'unpaid',
    AMOUNTS,
    ['payment.unconfirmed'],
    undefined,
    { to: 'none' },
  ),
  T('chain.more_confirmed', 'confirmed', 'chain.paid', 'paid ≥ total (a further tx, or an unneeded tx dropped)', 'confirmed', AMOUNTS, []),
  T(
    'chain.more_declined',
    'declined',
    'chain.paid',
    'money to a declined payment: amounts recorded, state final',
    'declined',
    { keep: true },
    [],
  ),
  // Confirmations and reorgs (§4 "Reorgs")
  T(
    'chain.confirm',
    'accepted',
    'chain.confirmations',
    'confirmations of the least-confirmed needed tx ≥ required',
    'confirmed',
    { keep: true },
    ['payment.confirmed'],
  ),
  T(
    'chain.unconfirm',
    'confirmed',
    'chain.confirmations',
    'a reorg dropped confirmations below required',
    'accepted',
    { keepOr: 'reorged' },
    ['payment.unconfirmed'],
  ),
  // Double spends (§12): a needed tx conflicted by a mined tx
  T(
    'chain.double_spent_accepted',
    'accepted',
    'chain.double_spend',
    'a tx needed to reach the total is conflicted by a tx mined in a block',
    'declined',
    { set: 'double_spent' },
    ['payment.declined'],
    'double spent: a transaction that paid it was replaced by a conflicting transaction mined in a block',
  ),
  T(
    'chain.double_spent_confirmed',
    'confirmed',
    'chain.double_spend',
    'a needed tx is conflicted by a mined tx (after a reorg)',
    'declined',
    { set: 'double_spent' },
    ['payment.declined'],
    'double spent: a transaction that paid it was replaced by a conflicting transaction mined in a block',
  ),
  // Expiry: an event only, the payment stays payable (late money is still counted)
  T(
    'timer.expired',
    'unpaid',
    'timer.expiry',
    'past issued + timeout, no claim pending, not yet expired (expired_at unset)',
    'unpaid',
    { keep: true },
    ['payment.expired'],
    undefined,
    FREE,
  ),
  // The vendor and the merchant (§3, §12)
  T(
    'vendor.cancel',
    'unpaid',
    'vendor.cancel',
    'no /pay broadcast pending',
    'declined',
    { set: 'cancelled' },
    ['payment.declined'],
    'cancelled by vendor',
    FREE,
  ),
  T('merchant.settle_unpaid', 'unpaid', 'merchant.mark_settled', 'a manager or owner decides', 'confirmed', { set: 'marked_settled' }, [
    'payment.confirmed',
  ]),
  T('merchant.settle_accepted', 'accepted', 'merchant.mark_settled', 'a manager or owner decides', 'confirmed', { set: 'marked_settled' }, [
    'payment.confirmed',
  ]),
  T(
    'merchant.invalid_unpaid',
    'unpaid',
    'merchant.mark_invalid',
    'a manager or owner decides',
    'declined',
    { set: 'marked_invalid' },
    ['payment.declined'],
    'marked invalid by merchant',
  ),
  // Cash (docs/counter.md#cash): the cashier took the money, so the sale is paid the moment it is
  // created. Only a tender 'cash' row takes it (insertCashSale guards the write); it has no address,
  // so nothing of the chain ever moves it again.
  T(
    'cash.received',
    'unpaid',
    'till.cash',
    'a cash sale, the cash taken at the counter',
    'confirmed',
    { set: null },
    ['payment.confirmed'],
    undefined,
    FREE,
  ),
  T(
    'merchant.invalid_accepted',
    'accepted',
    'merchant.mark_invalid',
    'a manager or owner decides',
    'declined',
    { set: 'marked_invalid' },
    ['payment.declined'],
    'marked invalid by merchant',
  ),
];

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

/** The row of the table with this name (throws on a typo: names are part of the contract). */
export function byName(name: string): Transition {
  const t = TRANSITIONS.find((x) => x.name === name);
  if (!t) throw new Error(`unknown transition ${name}`);
  return t;
}

/** The transitions a state has on a trigger (the condition then picks one). */
export function candidates(from: string, trigger: Trigger): Transition[] {
  return TRANSITIONS.filter((t) => t.from === from && t.trigger === trigger);
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

/**
 * Whether the table has a row for `trigger` from the row's state and broadcast sub-state (the
 * conditions that need facts, such as amounts, are the caller's). The `can…` predicates
 * (predicates.ts) ask this.
 */
export function allows(row: { status: string; broadcastState: string }, trigger: Trigger): boolean {
  return candidates(row.status, trigger).some((t) => !t.broadcast?.from || t.broadcast.from === row.broadcastState);
}
