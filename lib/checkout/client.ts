// The part of lib/checkout safe in a browser bundle: the checkout's live states and QR code.
export { qrImage, type QrImage, QR_MIN_MODULE_PX } from './qr';
export { asksForMoney, checkoutShown, checkoutLive, isFinalCheckout, type CheckoutLive, type CheckoutState } from './state';
