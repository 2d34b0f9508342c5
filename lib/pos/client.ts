// The part of lib/pos safe in a browser bundle: the cart, search, sales and payment states the till runs.
export {
  posPaymentState,
  underpaidRest,
  isFinalPosState,
  posShownState,
  saleInProgress,
  shownTxid,
  countdown,
  okToHandOver,
  posStatusMessage,
  type PosPaymentState,
} from './payment-state';
export {
  dogeText,
  moneyText,
  paymentBody,
  type CartExtras,
  type CartLine,
  fiatOf,
  DOGE_CURRENCY,
  cartTotals,
  amountString,
  keyboardKeypadKey,
  keypadAmount,
  keypadPress,
  taxPercentBp,
  currencyDigits,
  NO_EXTRAS,
  type CartTotals,
} from './cart';
export { ALL, filterProducts, findByCode } from './catalog-search';
export { cartOfTicket, ticketCartJson } from './ticket-cart';
export { saleFromView, type VendorPaymentView, canReopen, STATE_LABEL } from './sales';
export { cartLineKey } from './cart';
