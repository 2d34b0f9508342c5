// Every transition of a payment, in one table shaped like docs/protocol.md#payment-states: state, what
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

/** A row as written in the table: every field but `stock`, which follows from `from` and `to`. */
type Row = Omit<Transition, 'stock'>;

const row = ({ name, from, trigger, condition, to, exception, events, reason, broadcast }: Row): Transition => ({
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
  row({
    name: 'pay.claim',
    from: 'unpaid',
    trigger: 'relay.claim',
    condition: 'no /pay broadcast pending',
    to: 'unpaid',
    exception: KEEP,
    events: [],
    broadcast: { from: 'none', to: 'pending' },
  }),
  row({
    name: 'pay.release',
    from: 'unpaid',
    trigger: 'relay.release',
    condition: 'the network refused the claimed tx, or the backend was unreachable',
    to: 'unpaid',
    exception: KEEP,
    events: [],
    broadcast: { from: 'pending', to: 'none' },
  }),
  row({
    name: 'pay.accept',
    from: 'unpaid',
    trigger: 'relay.accept',
    condition: 'network accepts the tx; policy requires ≥ 1 confirmation',
    to: 'accepted',
    exception: AMOUNTS,
    events: ['payment.accepted'],
    broadcast: { from: 'pending', to: 'sent' },
  }),
  row({
    name: 'pay.accept_zero_conf',
    from: 'unpaid',
    trigger: 'relay.accept',
    condition: 'network accepts the tx; policy deems it low risk (0-conf, never RBF)',
    to: 'confirmed',
    exception: AMOUNTS,
    events: ['payment.accepted', 'payment.confirmed'],
    broadcast: { from: 'pending', to: 'sent' },
  }),
  // Plain-wallet payments (docs/api.md#payments-from-any-wallet)
  row({
    name: 'chain.short',
    from: 'unpaid',
    trigger: 'chain.paid',
    condition: '0 < paid < total',
    to: 'unpaid',
    exception: { set: 'underpaid' },
    events: ['payment.underpaid'],
  }),
  // Data not committed: money reached the address in a tx lacking a data output the payment asks
  // for. It counts in paid, but only the txs carrying every data output can make it accepted.
  row({
    name: 'chain.data_missing',
    from: 'unpaid',
    trigger: 'chain.paid',
    condition: 'a tx lacking a data output paid the address; the txs carrying them do not reach the total',
    to: 'unpaid',
    exception: { set: 'data_missing' },
    events: ['payment.data_missing'],
  }),
  row({
    name: 'chain.nothing',
    from: 'unpaid',
    trigger: 'chain.paid',
    condition: 'paid = 0 (the only txs were dropped)',
    to: 'unpaid',
    exception: { set: null },
    events: [],
  }),
  row({
    name: 'chain.enough',
    from: 'unpaid',
    trigger: 'chain.paid',
    condition: 'paid ≥ total, before expires_at',
    to: 'accepted',
    exception: AMOUNTS,
    events: ['payment.accepted'],
    broadcast: { to: 'sent' },
  }),
  row({
    name: 'chain.enough_late',
    from: 'unpaid',
    trigger: 'chain.paid',
    condition: 'paid ≥ total, a tx seen after expires_at',
    to: 'accepted',
    exception: { set: 'paid_late' },
    events: ['payment.paid_late'],
    broadcast: { to: 'sent' },
  }),
  row({
    name: 'chain.more_accepted',
    from: 'accepted',
    trigger: 'chain.paid',
    condition: 'paid ≥ total (a further tx, or an unneeded tx dropped)',
    to: 'accepted',
    exception: AMOUNTS,
    events: [],
  }),
  // A tx it needed left the node's mempool unmined and unconflicted (a node drops the txs of a
  // reorged block past its ancestor limit, or forgets its mempool): that money is in neither the
  // mempool nor the chain, so the payment is short again and payable (payment.underpaid as well
  // when something is left).
  row({
    name: 'chain.short_again',
    from: 'accepted',
    trigger: 'chain.paid',
    condition: 'paid < total: a needed tx left the mempool unmined, without a conflict',
    to: 'unpaid',
    exception: AMOUNTS,
    events: ['payment.unconfirmed'],
    broadcast: { to: 'none' },
  }),
  row({
    name: 'chain.more_confirmed',
    from: 'confirmed',
    trigger: 'chain.paid',
    condition: 'paid ≥ total (a further tx, or an unneeded tx dropped)',
    to: 'confirmed',
    exception: AMOUNTS,
    events: [],
  }),
  row({
    name: 'chain.more_declined',
    from: 'declined',
    trigger: 'chain.paid',
    condition: 'money to a declined payment: amounts recorded, state final',
    to: 'declined',
    exception: { keep: true },
    events: [],
  }),
  // Confirmations and reorgs (docs/protocol.md#chain-facts-and-policy)
  row({
    name: 'chain.confirm',
    from: 'accepted',
    trigger: 'chain.confirmations',
    condition: 'confirmations of the least-confirmed needed tx ≥ required',
    to: 'confirmed',
    exception: { keep: true },
    events: ['payment.confirmed'],
  }),
  row({
    name: 'chain.unconfirm',
    from: 'confirmed',
    trigger: 'chain.confirmations',
    condition: 'a reorg dropped confirmations below required',
    to: 'accepted',
    exception: { keepOr: 'reorged' },
    events: ['payment.unconfirmed'],
  }),
  // Double spends (docs/api.md#payments-from-any-wallet): a needed tx conflicted by a mined tx
  row({
    name: 'chain.double_spent_accepted',
    from: 'accepted',
    trigger: 'chain.double_spend',
    condition: 'a tx needed to reach the total is conflicted by a tx mined in a block',
    to: 'declined',
    exception: { set: 'double_spent' },
    events: ['payment.declined'],
    reason: 'double spent: a transaction that paid it was replaced by a conflicting transaction mined in a block',
  }),
  row({
    name: 'chain.double_spent_confirmed',
    from: 'confirmed',
    trigger: 'chain.double_spend',
    condition: 'a needed tx is conflicted by a mined tx (after a reorg)',
    to: 'declined',
    exception: { set: 'double_spent' },
    events: ['payment.declined'],
    reason: 'double spent: a transaction that paid it was replaced by a conflicting transaction mined in a block',
  }),
  // Expiry: an event only, the payment stays payable (late money is still counted)
  row({
    name: 'timer.expired',
    from: 'unpaid',
    trigger: 'timer.expiry',
    condition: 'past issued + timeout, no claim pending, not yet expired (expired_at unset)',
    to: 'unpaid',
    exception: { keep: true },
    events: ['payment.expired'],
    broadcast: FREE,
  }),
  // The vendor and the merchant (docs/protocol.md#payment-states)
  row({
    name: 'vendor.cancel',
    from: 'unpaid',
    trigger: 'vendor.cancel',
    condition: 'no /pay broadcast pending',
    to: 'declined',
    exception: { set: 'cancelled' },
    events: ['payment.declined'],
    reason: 'cancelled by vendor',
    broadcast: FREE,
  }),
  row({
    name: 'merchant.settle_unpaid',
    from: 'unpaid',
    trigger: 'merchant.mark_settled',
    condition: 'a manager or owner decides',
    to: 'confirmed',
    exception: { set: 'marked_settled' },
    events: ['payment.confirmed'],
  }),
  row({
    name: 'merchant.settle_accepted',
    from: 'accepted',
    trigger: 'merchant.mark_settled',
    condition: 'a manager or owner decides',
    to: 'confirmed',
    exception: { set: 'marked_settled' },
    events: ['payment.confirmed'],
  }),
  row({
    name: 'merchant.invalid_unpaid',
    from: 'unpaid',
    trigger: 'merchant.mark_invalid',
    condition: 'a manager or owner decides',
    to: 'declined',
    exception: { set: 'marked_invalid' },
    events: ['payment.declined'],
    reason: 'marked invalid by merchant',
  }),
  // Cash (docs/counter.md#cash): the cashier took the money, so the sale is paid the moment it is
  // created. Only a tender 'cash' row takes it (insertCashSale guards the write); it has no address,
  // so nothing of the chain ever moves it again.
  row({
    name: 'cash.received',
    from: 'unpaid',
    trigger: 'till.cash',
    condition: 'a cash sale, the cash taken at the counter',
    to: 'confirmed',
    exception: { set: null },
    events: ['payment.confirmed'],
    broadcast: FREE,
  }),
  row({
    name: 'merchant.invalid_accepted',
    from: 'accepted',
    trigger: 'merchant.mark_invalid',
    condition: 'a manager or owner decides',
    to: 'declined',
    exception: { set: 'marked_invalid' },
    events: ['payment.declined'],
    reason: 'marked invalid by merchant',
  }),
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
