// Every transition of a payment, in one table shaped like the spec's section 3: state, what
// moves it, condition, next state, events, and the /pay broadcast sub-state (broadcast_state:
// none → pending → sent, or back to none). The relay, the worker, the vendor API and the back
// office all go through `transition()` (transition.ts), which picks a row of this table; only
// lib/payments writes the payment tables (tests/unit/one-writer.test.ts, docs/architecture.md).
// Pure: no database, no clock.
import type { EventType } from './event-types';
import type { BroadcastState, PaymentException, PaymentState, Trigger } from './states';

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

/**
 * Whether the table has a row for `trigger` from the row's state and broadcast sub-state (the
 * conditions that need facts, such as amounts, are the caller's). The `can…` predicates
 * (predicates.ts) ask this.
 */
export function allows(row: { status: string; broadcastState: string }, trigger: Trigger): boolean {
  return candidates(row.status, trigger).some((t) => !t.broadcast?.from || t.broadcast.from === row.broadcastState);
}
