// The customer's checkout page: loading a payment for it, its live states and its QR code.
// What other folders use of lib/checkout: they import it from here (.dependency-cruiser.cjs, lib-through-index).
export { checkoutLive, type CheckoutLive, asksForMoney, checkoutShown } from './state';
export { checkoutExists, loadCheckout } from './load';
export { qrImage, type QrImage } from './qr';
