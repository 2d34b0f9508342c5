// lib/payments: the payment lifecycle and its one writer (docs/architecture.md). Every write to
// the payment tables (payment, payment_tx, payment_submission, payment_line, payment_output,
// vendor_event) is issued by a module of this folder, and other code reaches them through the
// commands exported here (tests/unit/one-writer.test.ts parses the code to hold that).
//
// The state table and its predicates:
export {
  STATES, EXCEPTIONS, BROADCAST_STATES, TRANSITIONS, IllegalTransitionError, byName, candidates, amountException, amountEvents,
  transition, requiredDepth, allows,
  type PaymentState, type PaymentException, type BroadcastState, type Trigger, type ExceptionRule, type Transition, type Amounts,
  type Outcome, type Facts,
} from './table';
export {
  isPastExpiry, isExpired, expiredField, isExpiryDue, canCancel, canMark, canClaimBroadcast, canReleaseBroadcast, canRefund,
  isFinal, isDecided, amountDue, tillState, tillStateOfView, allowedTriggers, type StateRow, type TillState,
} from './predicates';
// How a payment is shown (pure):
export {
  rfc3339, decodeSignedPayment, links, dueSec, paymentStatus, amountFields, rateView, refundView, amountRefunded, vendorPaymentView,
  type PaymentRow, type RefundRow, type RefundView,
} from './view';
export { EVENT_TYPES, eventTypeFor, newEventId, eventBody, type EventType, type EventRow } from './events';
// Queries:
export { salesScope, canSeePayment } from './sales-scope';
export { loadRefunds, withRefunds, withRefundsOne } from './refunds-of';
// Commands: /relay/pay (claim, release, accept), creation, the vendor and the merchant.
export {
  loadPayRow, claimPayment, releaseClaim, recordRejected, REJECTED_KEPT, type PayRow, type Claim, type ExpectedOutput,
} from './pay-sql';
export { acceptClaimed, acceptedRow, type PaidByTx } from './accept-sql';
export { insertPayment, insertPaymentWithEvent } from './create';
export { cancelPayment, cancelInTx, type CancelResult } from './cancel';
export { markPayment, markRequest, type MarkRequest, type MarkResult } from './mark';
// What the chain tells it (the worker):
export {
  onBlockConnected, onBlockDisconnected, onMempoolTxs, updateConfirmations, expirePayments, CONFIRMATIONS_TRACKED, type SyncContext,
} from './chain-sync';
export { observeTxs, summarize, unminedCounted, dropVanishedTxs, dropTxs, type ObserveContext, type BlockRef } from './chain-txs';
// The outbox's delivery state (the webhook loop):
export { claimDelivery, finishDelivery, redeliverEvent, type DeliveryEnd, type AttemptLog } from './outbox';
