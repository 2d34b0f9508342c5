// The words of the payment state table (table.ts): the states a payment is in, the exceptions
// that qualify a state, the /pay broadcast sub-state, and the triggers that move a payment. Pure.
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
