// Refunds: the request, creation and cancelling, cash refunds, and the back office's view of them.
// What other folders use of lib/refunds: they import it from here (.dependency-cruiser.cjs, lib-through-index).
export { loadRefunds, withRefunds, withRefundsOne, refundsOfPayment } from './load';
export { cancelRefund, isRefundId } from './cancel-refund';
export { refundQrSvgs, cashRefundableOf, refundableOf } from './backoffice';
export { createRefund } from './create-refund';
