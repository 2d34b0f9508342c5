// lib/payments: the payment lifecycle and its one writer (docs/architecture.md). Every write to
// the payment tables (payment, payment_tx, payment_submission, payment_line, payment_output,
// vendor_event) is issued by a module of this folder, and other code reaches them through the
// commands exported here (tests/unit/one-writer.test.ts parses the code to hold that).
//
// The state table and its predicates:
export {
  STATES,
  EXCEPTIONS,
  BROADCAST_STATES,
  TRANSITIONS,
  IllegalTransitionError,
  byName,
  candidates,
  amountException,
  amountEvents,
  transition,
  requiredDepth,
  allows,
  type StockEffect,
  type PaymentState,
  type PaymentException,
  type BroadcastState,
  type Trigger,
  type ExceptionRule,
  type Transition,
  type Amounts,
  type Outcome,
  type Facts,
} from './table';
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
  isDecided,
  amountDue,
  tillState,
  tillStateOfView,
  allowedTriggers,
  type StateRow,
  type TillState,
} from './predicates';
// How a payment is shown (pure):
export {
  rfc3339,
  decodeSignedPayment,
  links,
  dueSec,
  paymentStatus,
  amountFields,
  rateView,
  refundView,
  amountRefunded,
  vendorPaymentView,
  isCashSale,
  tenderFields,
  type PaymentRow,
  type RefundRow,
  type RefundView,
} from './view';
export { EVENT_TYPES, eventTypeFor, newEventId, eventBody, type EventType, type EventRow } from './events';
// Queries: who may see a payment, its refunds, the vendor API's listings, the open-payment cap.
export { salesScope, canSeePayment, type SalesViewer } from './sales-scope';
export { loadRefunds, withRefunds, withRefundsOne } from './refunds-of';
export { listPayments, encodeCursor, decodeCursor } from './queries/list-payments';
export { listEvents } from './queries/list-events';
export { countOpenPayments, DEFAULT_MAX_OPEN_PAYMENTS } from './queries/open-payments';
// Creation (POST /api/v1/payments, the till's sale, refunds): the request and its pricing, who
// may ask for what, the receive address, the signed Connect Payment and the relay's signing key.
export {
  createPayment,
  newPaymentId,
  IdempotencyConflictError,
  type CreatePaymentContext,
  type CreatePaymentResult,
} from './creation/create-payment';
export {
  priceRequest,
  isWalletUrl,
  PaymentRequestSchema,
  MIN_PAYMENT_KOINU,
  type PaymentRequest,
  type PricedRequest,
  type PricedLine,
  type PricedOutput,
} from './creation/request';
export { convertFiatRequest, requestCurrency, DOGE, type FiatLine } from './creation/fiat-request';
export { idempotency, type Idempotency } from './creation/idempotency';
export { paymentLineRows, type StoredLineExtras } from './creation/line-rows';
export { authorizePaymentRequest } from './creation/authz';
export { ForbiddenFieldError, TooManyOpenPaymentsError } from './creation/errors';
export { buildConnectPayment, type ConnectPaymentInput } from './creation/connect-payment';
export { allocateReceiveAddress, sellerAddress, NoReceivingWalletError } from './creation/receive-address';
export { activeRelayKey, rotateRelayKey, type RelayKeyMaterial } from './creation/relay-key';
export { readStoreSettings, type StoreSettings } from './store-settings';
export { requiredConfirmations, requiredForTx } from './risk';
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
export { acceptClaimed, acceptedRow, type PaidByTx } from './accept-sql';
export { insertPayment, insertPaymentWithEvent, insertCashSale, insertCashRefund } from './create';
// Stock (docs/catalog.md#stock): what a transition moves (applyTransition calls it).
export { stockOfTransition } from './stock';
export { cancelPayment, cancelInTx, type CancelResult } from './cancel';
export { markPayment, markRequest, type MarkRequest, type MarkResult } from './mark';
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
export { observeTxs, type BlockRef } from './chain-txs';
export { summarize } from './recompute';
export { unminedCounted, dropVanishedTxs, dropTxs } from './chain-drops';
// The outbox's delivery state (the webhook loop):
export { claimDelivery, finishDelivery, redeliverEvent, type DeliveryEnd, type AttemptLog } from './outbox';

// Lines sold with options, priced from the catalog (docs/catalog.md#options).
export { resolveOptionLines, soldOptions, type SoldOption } from './creation/options';
// Charging an open ticket (docs/counter.md#open-tickets).
export { ticketOfRequest, withTicket, type SaleTicket } from './creation/ticket';
// Which tx pays a refund (docs/security.md): the relay asks why a submitted tx does not.
export { whyNot, type NotPaid } from './refund-match';
