// lib/payments: the payment lifecycle and its one writer (docs/architecture.md). Every write to
// the payment tables (payment, payment_tx, payment_submission, payment_line, payment_output,
// vendor_event) is issued by a module of this folder, and other code reaches them through the
// commands exported here (tests/unit/one-writer.test.ts parses the code to hold that).
//
// The state table, how a payment moves through it, and its predicates:
export { STATES, type Trigger } from './states';
export { TRANSITIONS, candidates, allows } from './table';
export { IllegalTransitionError, amountException, transition, requiredDepth, type Facts } from './transition';
export {
  isPastExpiry,
  isExpired,
  expiredField,
  isExpiryDue,
  canCancel,
  canMark,
  canClaimBroadcast,
  canReleaseBroadcast,
  canRefund,
  isFinal,
  amountDue,
  tillState,
  tillStateOfView,
} from './predicates';
// How a payment is shown (pure):
export {
  rfc3339,
  decodeSignedPayment,
  links,
  paymentStatus,
  refundView,
  amountRefunded,
  vendorPaymentView,
  type PaymentRow,
  type RefundView,
} from './view';
export { EVENT_TYPES, eventTypeFor, newEventId } from './events';
// Queries: who may see a payment, its refunds, the vendor API's listings, the open-payment cap.
export { salesScope, canSeePayment, type SalesViewer } from './sales-scope';
export { loadRefunds, withRefunds, withRefundsOne } from './refunds-of';
export { listPayments, encodeCursor, decodeCursor } from './queries/list-payments';
export { listEvents } from './queries/list-events';

// Creation (POST /api/v1/payments, the till's sale, refunds): the request and its pricing, who
// may ask for what, the receive address, the signed Connect Payment and the relay's signing key.
export { createPayment, newPaymentId, type CreatePaymentContext, type CreatePaymentResult } from './creation/create-payment';
export { priceRequest, isWalletUrl } from './creation/request';
export { convertFiatRequest, DOGE } from './creation/fiat-request';
export { idempotency } from './creation/idempotency';
export { paymentLineRows } from './creation/line-rows';

export { buildConnectPayment } from './creation/connect-payment';
export { sellerAddress } from './creation/receive-address';
export { activeRelayKey, rotateRelayKey } from './creation/relay-key';
export { readStoreSettings } from './store-settings';
export { requiredConfirmations } from './risk';
// Commands: /relay/pay (claim, release, accept), creation, the vendor and the merchant.
export {
  loadPayRow,
  claimPayment,
  releaseClaim,
  recordRejected,
  REJECTED_KEPT,
  type PayRow,
  type Claim,
  type ExpectedOutput,
} from './pay-sql';
export { acceptClaimed } from './accept-sql';
export { insertPaymentWithEvent, insertCashSale, insertCashRefund } from './create';
export { cancelPayment, cancelInTx } from './cancel';
export { markPayment, markRequest } from './mark';
// What the chain tells it (the worker):
export {
  onBlockConnected,
  onBlockDisconnected,
  onMempoolTxs,
  updateConfirmations,
  expirePayments,
  CONFIRMATIONS_TRACKED,
} from './chain-sync';
export type { DisconnectedTxs } from './disconnect-ancestry';
export type { SyncContext, ChainContext } from './context';

export { unminedCounted, dropVanishedTxs, dropTxs } from './chain-drops';
// The outbox's delivery state (the webhook loop):
export { claimDelivery, finishDelivery, redeliverEvent, type DeliveryEnd } from './outbox';

// Lines sold with options, priced from the catalog (docs/catalog.md#options).
export { resolveOptionLines, soldOptions } from './creation/options';
// Charging an open ticket (docs/counter.md#open-tickets).
export { ticketOfRequest, withTicket } from './creation/ticket';
// Which tx pays a refund (docs/security.md): the relay asks why a submitted tx does not.
export { whyNot, type NotPaid } from './refund-match';
